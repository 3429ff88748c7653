import { describe, expect, it } from 'vitest';
import { chainsOf, infoIsBootstrapped, toSamples } from '../../src/collectors/info-is-bootstrapped.js';
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
    const { ctx } = makeCtx(client, { target: { chains: ['dfk'] } });
    const r = await infoIsBootstrapped.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.params)).toEqual([{ chain: 'P' }, { chain: 'X' }, { chain: 'C' }, { chain: 'dfk' }]);
    expect(lines(r.samples)).toContain('avax_chain_bootstrapped{chain="C"} 0');
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: unknown chain → that chain fails, the others are kept', async () => {
    const { client } = fakeClient({ 'info.isBootstrapped': (p: any) => (p.chain === 'Q' ? new RpcError('info.isBootstrapped', -32000, "there is no chain with alias/ID 'Q'") : { isBootstrapped: true }) });
    const r = await infoIsBootstrapped.collect(makeCtx(client, { target: { chains: ['Q'] } }).ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.samples).toHaveLength(3);
  });
});

describe('info-is-bootstrapped: the L1 chains subnet-chains watches', () => {
  const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
  const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
  const chains = [
    { id: X, subnet: '11111111111111111111111111111111LpoYY', name: 'X-Chain', vmId: 'v' },
    { id: L1_CHAIN, subnet: 's', name: 'dexalot', vmId: 'v', bootstrapped: false },
  ];
  it('default: their bootstrap state from subnet-chains, without a request of its own', async () => {
    const { client, calls } = fakeClient({ 'info.isBootstrapped': result('info.isBootstrapped', 'default') });
    const { ctx } = makeCtx(client, { values: { 'subnet-chains': { chains } } });
    const r = await infoIsBootstrapped.collect(ctx);
    assertContract('info-is-bootstrapped', r.samples);
    expect(calls.map((c) => c.params)).toEqual([{ chain: 'P' }, { chain: 'X' }, { chain: 'C' }]);
    expect(lines(r.samples)).toEqual(['avax_chain_bootstrapped{chain="P"} 1', 'avax_chain_bootstrapped{chain="X"} 1', 'avax_chain_bootstrapped{chain="C"} 1', `avax_chain_bootstrapped{chain="${L1_CHAIN}"} 0`]);
  });
  it('behavior: a configured chain is asked here and not repeated from subnet-chains', async () => {
    const { client } = fakeClient({ 'info.isBootstrapped': result('info.isBootstrapped', 'default') });
    const { ctx } = makeCtx(client, { target: { chains: [L1_CHAIN] }, values: { 'subnet-chains': { chains } } });
    const r = await infoIsBootstrapped.collect(ctx);
    expect(lines(r.samples).filter((l) => l.includes(L1_CHAIN))).toEqual([`avax_chain_bootstrapped{chain="${L1_CHAIN}"} 1`]);
  });
});
