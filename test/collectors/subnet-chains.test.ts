import { describe, expect, it } from 'vitest';
import { NodeIdSet } from '../../src/collectors/node-id-set.js';
import { subnetChains, watchedSubnets } from '../../src/collectors/subnet-chains.js';
import type { CollectorValues } from '../../src/collectors/define.js';
import { RpcError, TimeoutError } from '../../src/node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, testSlot, valueOf } from './fake.js';
import { OTHER, SELF } from '../fixtures/ids.js';

const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
// The synthetic L1 of platform.getBlockchains/default.json.
const L1_SUBNET = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';
const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const L1_VM = 'qxV63uTMB9duhwv3h2kZPx71uhkVf2qz4DzWrmWJUs8ZBGsu4';

const chains = PlatformGetBlockchainsResult.parse(result('platform.getBlockchains', 'default')).blockchains;
const CHECK = { timestamp: 1778750490, duration: 1 };

/** What the other collectors published: the own ID, the node's health checks, the primary validators. */
function values(o: { runsL1?: boolean; primary?: string[]; nodeId?: string } = {}): Partial<CollectorValues> {
  const checks: Record<string, typeof CHECK> = { network: CHECK, P: CHECK, X: CHECK, C: CHECK };
  if (o.runsL1 ?? true) checks[L1_CHAIN] = CHECK;
  const primary = o.primary ?? [SELF, OTHER];
  return {
    'node-info': { nodeId: o.nodeId ?? SELF },
    health: { health: { checks, healthy: true } },
    'platform-validators-full': { primaryValidators: NodeIdSet.of(primary), primaryCount: primary.length },
  };
}

/** The node's answers: the chain list, statuses, VMs and the L1's validator list (l1.json: SELF active, one inactive, one legacy). */
function client(over: Record<string, unknown> = {}) {
  return fakeClient({
    'platform.getBlockchains': result('platform.getBlockchains', 'default'),
    'platform.getBlockchainStatus': result('platform.getBlockchainStatus', 'default'),
    'info.getVMs': result('info.getVMs', 'default'),
    'platform.getCurrentValidators': result('platform.getCurrentValidators', 'l1'),
    ...over,
  });
}

describe('subnet-chains: which subnets', () => {
  const base = { configured: [] as string[], chains, remembered: new Set<string>() };
  it.each([
    ['default: a configured subnet, beside the primary network', { ...base, configured: [L1_SUBNET], primaryValidator: true }, [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: none configured → the primary network (a watched validator) and the L1 whose chain the node runs', { ...base, checks: new Set([L1_CHAIN, 'C']), primaryValidator: true }, [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: not a validator, no L1 chain running → nothing', { ...base, checks: new Set(['C', 'X', 'P']), primaryValidator: false }, []],
    ['behavior: nothing known yet → nothing', { ...base, chains: [] }, []],
    ['behavior: a subnet once found stays (remembered)', { ...base, remembered: new Set([L1_SUBNET]) }, [L1_SUBNET]],
  ])('%s', (_n, inputs, want) => {
    expect(watchedSubnets(inputs)).toEqual(want);
  });
});

describe('subnet-chains collect', () => {
  it('default: with no flag, the L1 whose chain the node runs is found; every chain with status, VM, membership; its active validators', async () => {
    const { client: c, calls } = client();
    const { ctx } = makeCtx(subnetChains, c, { values: values() });
    const r = await subnetChains.collect(ctx);
    expect(r.errors).toEqual([]);
    assertContract('subnet-chains', r.samples);
    // The primary network's chains (X, C) are the other collectors': only the L1's chain shows here.
    expect(lines(r.samples)).toEqual([
      `avax_chain_info{blockchain_id="${L1_CHAIN}",name="dexalot",subnet="${L1_SUBNET}",vm_id="${L1_VM}"} 1`,
      `avax_chain_status{blockchain_id="${L1_CHAIN}",status="Validating"} 1`,
      // The L1's VM is not among info.getVMs/default.json's built-in VMs.
      `avax_chain_vm_installed{blockchain_id="${L1_CHAIN}",vm_id="${L1_VM}"} 0`,
      `avax_subnet_node_is_validator{subnet="${PRIMARY_NETWORK_ID}"} 1`,
      `avax_subnet_node_is_validator{subnet="${L1_SUBNET}"} 1`,
    ]);
    // One request per item, every run: the list, the VMs, the L1 chain's status, the L1's validators.
    expect(calls.map((x) => `${x.method} ${JSON.stringify(x.params)}`)).toEqual([
      'platform.getBlockchains {}',
      'info.getVMs {}',
      `platform.getBlockchainStatus {"blockchainID":"${L1_CHAIN}"}`,
      `platform.getCurrentValidators {"subnetID":"${L1_SUBNET}"}`,
    ]);
    expect(r.value?.subnets).toEqual([PRIMARY_NETWORK_ID, L1_SUBNET]);
    // l1.json: SELF and a legacy validator active, one L1 validator with balance 0 (not counted).
    expect([...(r.value?.activeValidators ?? [])]).toEqual([[L1_SUBNET, 2]]);
    expect(calls.every((x) => x.signal === ctx.signal)).toBe(true);
  });

  it('behavior: every run asks everything again (no rotation): a change shows in the next run', async () => {
    let status = 'Validating';
    const { client: c, calls } = client({ 'platform.getBlockchainStatus': () => ({ status }) });
    const slot = testSlot(subnetChains);
    await subnetChains.collect(makeCtx(subnetChains, c, { slot, values: values() }).ctx);
    const first = calls.length;
    status = 'Syncing';
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { slot, values: values() }).ctx);
    expect(calls.length - first).toBe(first);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Syncing' })).toBe(1);
  });

  it('behavior: a disabled L1 validator (balance 0) is not a member, and not counted (issue 23 item 6)', async () => {
    const list = result('platform.getCurrentValidators', 'l1') as { validators: { nodeID: string; balance?: string }[] };
    const disabled = { validators: list.validators.map((v) => (v.nodeID === SELF ? { ...v, balance: '0' } : v)) };
    const { client: c } = client({ 'platform.getCurrentValidators': disabled });
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { values: values() }).ctx);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(0);
    expect(r.value?.activeValidators.get(L1_SUBNET)).toBe(1);
  });

  it('behavior: a configured subnet is watched even when the node runs none of its chains (not tracked)', async () => {
    const { client: c } = client({ 'platform.getBlockchainStatus': { status: 'Created' } });
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { target: { subnets: [L1_SUBNET] }, values: values({ runsL1: false }) }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
  });

  it('behavior: an API node that validates nothing and runs no L1 → no series, no failure', async () => {
    const { client: c } = client();
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { values: values({ runsL1: false, primary: [OTHER] }) }).ctx);
    expect(r).toMatchObject({ samples: [], errors: [] });
  });

  it('behavior: watching another validator (--validator.node-id) → its primary network; the own membership stays the own ID', async () => {
    const { client: c, calls } = client();
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { target: { validatorNodeIds: [OTHER] }, values: values({ runsL1: false, primary: [OTHER] }) }).ctx);
    expect(r.value?.subnets).toEqual([PRIMARY_NETWORK_ID]);
    expect(r.samples.filter((s) => s.name === 'avax_chain_info')).toHaveLength(0);
    // No chain of another subnet to look at: neither VMs nor statuses asked.
    expect(calls.map((x) => x.method)).toEqual(['platform.getBlockchains']);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: PRIMARY_NETWORK_ID })).toBe(0);
  });

  it('behavior: an L1 once found stays watched when its chain check goes away (subnet no longer tracked)', async () => {
    let running = true;
    const { client: c } = client({ 'platform.getBlockchainStatus': (p: unknown) => ({ status: (p as { blockchainID: string }).blockchainID === L1_CHAIN && !running ? 'Created' : 'Validating' }) });
    const slot = testSlot(subnetChains);
    expect((await subnetChains.collect(makeCtx(subnetChains, c, { slot, values: values() }).ctx)).errors).toEqual([]);
    running = false;
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { slot, values: values({ runsL1: false }) }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
  });

  it('behavior: public server (getVMs absent, no health report) → the configured subnet\'s chains and status, no VM series, no failure', async () => {
    const { client: c } = client({ 'info.getVMs': new RpcError('info.getVMs', -32000, 'rpc: can\'t find method "info.GetVMs"') });
    const { health: _h, ...rest } = values();
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { target: { subnets: [L1_SUBNET] }, values: rest }).ctx);
    expect(r.errors).toEqual([]);
    expect([...new Set(r.samples.map((s) => s.name))]).toEqual(['avax_chain_info', 'avax_chain_status', 'avax_subnet_node_is_validator']);
  });

  it('behavior: reference target → no getVMs, no health, no own membership', async () => {
    const { client: c, calls } = client();
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { target: { reference: true, validatorNodeIds: [OTHER] }, values: values() }).ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((x) => x.method).sort()).toEqual(['platform.getBlockchains']);
    expect(r.samples.filter((s) => s.name === 'avax_subnet_node_is_validator')).toEqual([]);
  });

  it('error: getBlockchains fails → nothing, failure', async () => {
    const { client: c } = client({ 'platform.getBlockchains': new TimeoutError('platform.getBlockchains', 5000) });
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { values: values() }).ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });

  it.each([
    ['error: a status call fails → the others are shown, failure', { 'platform.getBlockchainStatus': new RpcError('platform.getBlockchainStatus', -32000, 'boom') }],
    ['error: a status outside the known set → invalid answer, failure', { 'platform.getBlockchainStatus': { status: 'Bogus' } }],
  ])('%s', async (_n, over) => {
    const { client: c } = client(over);
    const r = await subnetChains.collect(makeCtx(subnetChains, c, { values: values() }).ctx);
    expect(r.samples.some((s) => s.name === 'avax_chain_status')).toBe(false);
    expect(r.samples.some((s) => s.name === 'avax_chain_info')).toBe(true);
    expect(r.errors).toHaveLength(1);
  });

  it('behavior: its network-wide calls (the chain list, an L1\'s validators) are network-scoped; the node\'s own views are not', () => {
    expect(Object.fromEntries(subnetChains.calls.map((x) => [`${x.method}`, x.scope]))).toMatchObject({
      'platform.getBlockchains': 'network',
      'platform.getBlockchainStatus': 'node',
      'info.getVMs': 'node',
      'platform.getCurrentValidators': 'network',
    });
  });
});
