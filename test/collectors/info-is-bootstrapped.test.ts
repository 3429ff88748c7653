import { describe, expect, it } from 'vitest';
import { chainsOf, infoIsBootstrapped, toSamples } from '../../src/collectors/info-is-bootstrapped.js';
import type { CollectorValues } from '../../src/collectors/define.js';
import { RpcError } from '../../src/node-client/index.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

describe('info-is-bootstrapped toSamples', () => {
  it.each([
    ['default: P, X, C', [{ chain: 'P', isBootstrapped: true }, { chain: 'X', isBootstrapped: true }, { chain: 'C', isBootstrapped: false }], ['avax_chain_bootstrapped{chain="P"} 1', 'avax_chain_bootstrapped{chain="X"} 1', 'avax_chain_bootstrapped{chain="C"} 0']],
    ['behavior: nothing answered', [], []],
  ])('%s', (_n, v, want) => {
    const s = toSamples(v);
    assertContract('info-is-bootstrapped', s);
    expect(lines(s)).toEqual(want);
  });
  it('behavior: configured chains come after P, X, C, deduplicated', () => {
    expect(chainsOf(['dfk', 'C', 'dfk'])).toEqual(['P', 'X', 'C', 'dfk']);
  });
});

describe('info-is-bootstrapped collect', () => {
  it('default: one call per chain with {chain}', async () => {
    const { client, calls } = fakeClient({ 'info.isBootstrapped': (p: any) => (p.chain === 'C' ? result('info.isBootstrapped', 'not-bootstrapped') : result('info.isBootstrapped', 'default')) });
    const { ctx } = makeCtx(infoIsBootstrapped, client, { target: { chains: ['dfk'] } });
    const r = await infoIsBootstrapped.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.params)).toEqual([{ chain: 'P' }, { chain: 'X' }, { chain: 'C' }, { chain: 'dfk' }]);
    expect(lines(r.samples)).toContain('avax_chain_bootstrapped{chain="C"} 0');
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: unknown chain → that chain fails, the others are kept', async () => {
    const { client } = fakeClient({ 'info.isBootstrapped': (p: any) => (p.chain === 'Q' ? new RpcError('info.isBootstrapped', -32000, "there is no chain with alias/ID 'Q'") : { isBootstrapped: true }) });
    const r = await infoIsBootstrapped.collect(makeCtx(infoIsBootstrapped, client, { target: { chains: ['Q'] } }).ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.samples).toHaveLength(3);
  });
});

describe('info-is-bootstrapped: a restart that left no other mark', () => {
  const report = (bootstrapped: { error?: string; timestamp?: string }) => ({ health: { healthy: !bootstrapped.error, checks: { bootstrapped: { message: [], ...bootstrapped } } } });
  it('behavior: a chain seen bootstrapped is asked again while the node\'s bootstrapped check fails, and shows 0', async () => {
    let bootstrapped = true;
    const { client, calls } = fakeClient({ 'info.isBootstrapped': () => ({ isBootstrapped: bootstrapped }) });
    const { ctx } = makeCtx(infoIsBootstrapped, client);
    expect(lines((await infoIsBootstrapped.collect(ctx)).samples)).toContain('avax_chain_bootstrapped{chain="C"} 1');
    expect(calls).toHaveLength(3);
    // the node restarted between two runs into a bootstrap: its health says so, no refresh was seen
    bootstrapped = false;
    const failing = makeCtx(infoIsBootstrapped, client, { values: { health: report({ error: 'subnets not bootstrapped' }) as any } });
    failing.ctx.memory.done.add('P');
    failing.ctx.memory.done.add('X');
    failing.ctx.memory.done.add('C');
    const before = calls.length;
    const r = await infoIsBootstrapped.collect(failing.ctx);
    expect(calls.length - before).toBe(3);
    expect(lines(r.samples)).toContain('avax_chain_bootstrapped{chain="C"} 0');
  });
  it('behavior: a passing or not-yet-run bootstrapped check asks nothing of a bootstrapped chain', async () => {
    for (const check of [{}, { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z' }]) {
      const { client, calls } = fakeClient({ 'info.isBootstrapped': () => ({ isBootstrapped: true }) });
      const { ctx } = makeCtx(infoIsBootstrapped, client, { values: { health: report(check) as any } });
      for (const c of ['P', 'X', 'C']) ctx.memory.done.add(c);
      const r = await infoIsBootstrapped.collect(ctx);
      expect(calls).toEqual([]);
      expect(lines(r.samples)).toEqual(['avax_chain_bootstrapped{chain="P"} 1', 'avax_chain_bootstrapped{chain="X"} 1', 'avax_chain_bootstrapped{chain="C"} 1']);
    }
  });
});

describe('info-is-bootstrapped: the L1 chains subnet-chains watches', () => {
  const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
  const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
  const watched = (): CollectorValues['subnet-chains'] => ({
    subnets: ['11111111111111111111111111111111LpoYY', 's'],
    chains: [
      { id: X, subnet: '11111111111111111111111111111111LpoYY', name: 'X-Chain', vmId: 'v' },
      { id: L1_CHAIN, subnet: 's', name: 'dexalot', vmId: 'v' },
    ],
    activeValidators: new Map(),
    l1Stakes: new Map(),
  });
  it('default: asked for the L1 chains too (P, X, C by their aliases only)', async () => {
    const { client, calls } = fakeClient({ 'info.isBootstrapped': (p: any) => (p.chain === L1_CHAIN ? result('info.isBootstrapped', 'not-bootstrapped') : result('info.isBootstrapped', 'default')) });
    const { ctx } = makeCtx(infoIsBootstrapped, client, { values: { 'subnet-chains': watched() } });
    const r = await infoIsBootstrapped.collect(ctx);
    assertContract('info-is-bootstrapped', r.samples);
    expect(calls.map((c) => c.params)).toEqual([{ chain: 'P' }, { chain: 'X' }, { chain: 'C' }, { chain: L1_CHAIN }]);
    expect(lines(r.samples)).toEqual(['avax_chain_bootstrapped{chain="P"} 1', 'avax_chain_bootstrapped{chain="X"} 1', 'avax_chain_bootstrapped{chain="C"} 1', `avax_chain_bootstrapped{chain="${L1_CHAIN}"} 0`]);
  });
  it('behavior: a watched L1 chain the node does not run (unknown chain) is a normal state: not bootstrapped, no failure', async () => {
    const { client } = fakeClient({ 'info.isBootstrapped': (p: any) => (p.chain === L1_CHAIN ? new RpcError('info.isBootstrapped', -32000, `there is no chain with alias/ID '${L1_CHAIN}'`) : { isBootstrapped: true }) });
    const r = await infoIsBootstrapped.collect(makeCtx(infoIsBootstrapped, client, { values: { 'subnet-chains': watched() } }).ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples)).toContain(`avax_chain_bootstrapped{chain="${L1_CHAIN}"} 0`);
  });
  it('behavior: a configured chain is asked once, not again as a watched one', async () => {
    const { client, calls } = fakeClient({ 'info.isBootstrapped': result('info.isBootstrapped', 'default') });
    const { ctx } = makeCtx(infoIsBootstrapped, client, { target: { chains: [L1_CHAIN] }, values: { 'subnet-chains': watched() } });
    const r = await infoIsBootstrapped.collect(ctx);
    expect(calls.filter((c) => (c.params as { chain: string }).chain === L1_CHAIN)).toHaveLength(1);
    expect(lines(r.samples).filter((l) => l.includes(L1_CHAIN))).toEqual([`avax_chain_bootstrapped{chain="${L1_CHAIN}"} 1`]);
  });
});
