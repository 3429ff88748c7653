import { describe, expect, it } from 'vitest';
import { subnetChains, watchedSubnets } from '../../src/collectors/subnet-chains.js';
import { HttpError, PRIMARY_NETWORK_ID, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const SELF = 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv';
const OTHER = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
// The synthetic L1 of platform.getBlockchains/default.json.
const L1_SUBNET = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';
const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const L1_VM = 'qxV63uTMB9duhwv3h2kZPx71uhkVf2qz4DzWrmWJUs8ZBGsu4';

const chains = PlatformGetBlockchainsResult.parse(result('platform.getBlockchains', 'default')).blockchains;

interface NodeState {
  /** The node runs the L1 chain (its health check exists). */
  runsL1: boolean;
  /** Tags whose report is unhealthy. */
  unhealthy: string[];
  /** NodeIDs in the primary network's validator set. */
  primary: string[];
}

/** Answers of a node in `st` (read at call time, so a test can change it between runs). */
function answers(st: NodeState, over: Record<string, unknown> = {}) {
  return {
    'platform.getBlockchains': result('platform.getBlockchains', 'default'),
    'platform.getBlockchainStatus': result('platform.getBlockchainStatus', 'default'),
    'info.getVMs': result('info.getVMs', 'default'),
    'info.isBootstrapped': result('info.isBootstrapped', 'default'),
    'health.health': (p: unknown) => {
      const tags = (p as { tags: string[] }).tags;
      const checks: Record<string, unknown> = { network: { timestamp: '2026-05-14T09:21:30Z', duration: 1 } };
      if (st.runsL1 && tags.includes(L1_SUBNET)) checks[L1_CHAIN] = { timestamp: '2026-05-14T09:21:30Z', duration: 1 };
      return { checks, healthy: !tags.some((t) => st.unhealthy.includes(t)) };
    },
    'platform.getValidatorsAt': (p: unknown) =>
      (p as { subnetID: string }).subnetID === PRIMARY_NETWORK_ID ? Object.fromEntries(st.primary.map((id) => [id, { publicKey: null, weight: '2000000000000' }])) : result('platform.getValidatorsAt', 'default'),
    ...over,
  };
}
const validatorOfBoth = (): NodeState => ({ runsL1: true, unhealthy: [], primary: [SELF, OTHER] });
/** A fake client whose answers carry the node's Node-Id header, as avalanchego's do. */
function client(st: NodeState, over: Record<string, unknown> = {}) {
  const f = fakeClient(answers(st, over));
  (f.client as unknown as { lastNodeIdHeader: string }).lastNodeIdHeader = SELF;
  return f;
}

describe('subnet-chains: which subnets', () => {
  const members = (primaryWatched: boolean) => new Map([[PRIMARY_NETWORK_ID, { own: primaryWatched, watched: primaryWatched }]]);
  it.each([
    ['default: a configured subnet, beside the primary network', [L1_SUBNET], { chains, members: members(true) }, [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: none configured → the primary network (a watched validator) and the L1 whose chain the node runs', [], { chains, running: new Set([L1_CHAIN, 'C']), members: members(true) }, [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: not a validator, no L1 chain running → nothing', [], { chains, running: new Set(['C', 'X', 'P']), members: members(false) }, []],
    ['behavior: nothing known yet → nothing', [], { members: new Map() }, []],
  ])('%s', (_n, configured, cache, want) => {
    expect(watchedSubnets(configured, cache)).toEqual(want);
  });
  it('behavior: a subnet once found stays (remembered)', () => {
    expect(watchedSubnets([], { chains, members: new Map() }, new Set([L1_SUBNET]))).toEqual([L1_SUBNET]);
  });
});

describe('subnet-chains collect', () => {
  it('default: first run asks everything; chains of the watched subnets with status, VM, health, membership', async () => {
    const { client: c, calls } = client(validatorOfBoth());
    const { ctx } = makeCtx(c);
    const r = await subnetChains.collect(ctx);
    expect(r.errors).toEqual([]);
    assertContract('subnet-chains', r.samples);
    expect(lines(r.samples)).toEqual([
      `avax_chain_info{blockchain_id="${X}",name="X-Chain",subnet="${PRIMARY_NETWORK_ID}",vm_id="jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq"} 1`,
      `avax_chain_status{blockchain_id="${X}",status="Validating"} 1`,
      `avax_chain_vm_installed{blockchain_id="${X}",vm_id="jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq"} 1`,
      `avax_chain_info{blockchain_id="${C}",name="C-Chain",subnet="${PRIMARY_NETWORK_ID}",vm_id="mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"} 1`,
      `avax_chain_status{blockchain_id="${C}",status="Validating"} 1`,
      `avax_chain_vm_installed{blockchain_id="${C}",vm_id="mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"} 1`,
      `avax_chain_info{blockchain_id="${L1_CHAIN}",name="dexalot",subnet="${L1_SUBNET}",vm_id="${L1_VM}"} 1`,
      `avax_chain_status{blockchain_id="${L1_CHAIN}",status="Validating"} 1`,
      // The L1's VM is not among info.getVMs/default.json's built-in VMs.
      `avax_chain_vm_installed{blockchain_id="${L1_CHAIN}",vm_id="${L1_VM}"} 0`,
      `avax_subnet_healthy{subnet="${PRIMARY_NETWORK_ID}"} 1`,
      `avax_subnet_node_is_validator{subnet="${PRIMARY_NETWORK_ID}"} 1`,
      `avax_subnet_healthy{subnet="${L1_SUBNET}"} 1`,
      `avax_subnet_node_is_validator{subnet="${L1_SUBNET}"} 1`,
    ]);
    // isBootstrapped only for the L1 chain (P, X, C are info-is-bootstrapped's); health per subnet tag.
    expect(calls.filter((x) => x.method === 'info.isBootstrapped').map((x) => x.params)).toEqual([{ chain: L1_CHAIN }]);
    expect(calls.filter((x) => x.method === 'health.health').map((x) => x.params)).toEqual([{ tags: [L1_SUBNET] }, { tags: [PRIMARY_NETWORK_ID] }, { tags: [L1_SUBNET] }]);
    expect(calls.filter((x) => x.method === 'platform.getValidatorsAt').map((x) => x.params)).toEqual([
      { height: 'proposed', subnetID: PRIMARY_NETWORK_ID },
      { height: 'proposed', subnetID: L1_SUBNET },
    ]);
    expect(r.value?.chains.map((x) => `${x.id}:${String(x.bootstrapped)}`)).toEqual([`${X}:undefined`, `${C}:undefined`, `${L1_CHAIN}:true`]);
    expect(calls.every((x) => x.signal === ctx.signal)).toBe(true);
  });

  it('behavior: after the first run, one request per run in turn; a full turn refreshes every item', async () => {
    let status = 'Validating';
    const { client: c, calls } = client(validatorOfBoth(), { 'platform.getBlockchainStatus': () => ({ status }) });
    const state = new Map<string, unknown>();
    await subnetChains.collect(makeCtx(c, { state }).ctx);
    const first = calls.length;
    // chains, running chains, primary validators, VMs, 3 statuses, 1 isBootstrapped, 2 health, 1 L1 membership
    expect(first).toBe(11);
    status = 'Syncing';
    const perRun: number[] = [];
    let last;
    for (let i = 0; i < first; i++) {
      const before = calls.length;
      last = await subnetChains.collect(makeCtx(c, { state }).ctx);
      expect(last.errors).toEqual([]);
      perRun.push(calls.length - before);
    }
    expect(perRun).toEqual(Array(first).fill(1));
    expect(calls.slice(first).map((x) => `${x.method} ${JSON.stringify(x.params)}`).sort()).toEqual(calls.slice(0, first).map((x) => `${x.method} ${JSON.stringify(x.params)}`).sort());
    expect(valueOf(last!.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Syncing' })).toBe(1);
  });

  it('behavior: the subnet health, a chain leaving Validating and leaving the validator set show in the series', async () => {
    const st: NodeState = { runsL1: true, unhealthy: [L1_SUBNET], primary: [SELF] };
    const { client: c } = client(st, {
      'platform.getBlockchainStatus': (p: unknown) => ({ status: (p as { blockchainID: string }).blockchainID === L1_CHAIN ? 'Syncing' : 'Validating' }),
      'platform.getValidatorsAt': (p: unknown) => ((p as { subnetID: string }).subnetID === PRIMARY_NETWORK_ID ? { [SELF]: { weight: '1' } } : {}),
    });
    const r = await subnetChains.collect(makeCtx(c).ctx);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Syncing' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_healthy', { subnet: L1_SUBNET })).toBe(0);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(0);
  });

  it('behavior: a configured subnet is watched even when the node runs none of its chains (not tracked)', async () => {
    const { client: c } = client({ runsL1: false, unhealthy: [], primary: [SELF] }, { 'platform.getBlockchainStatus': { status: 'Created' } });
    const r = await subnetChains.collect(makeCtx(c, { target: { subnets: [L1_SUBNET] } }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
  });

  it('behavior: an API node that validates nothing and runs no L1 → no series, no failure', async () => {
    const { client: c } = client({ runsL1: false, unhealthy: [], primary: [OTHER] });
    const r = await subnetChains.collect(makeCtx(c).ctx);
    expect(r).toMatchObject({ samples: [], errors: [] });
  });

  it('behavior: watching another validator (--validator.node-id) → its primary network; the own membership stays the own ID', async () => {
    const { client: c } = client({ runsL1: false, unhealthy: [], primary: [OTHER] });
    const r = await subnetChains.collect(makeCtx(c, { target: { validatorNodeIds: [OTHER] } }).ctx);
    expect(r.samples.filter((s) => s.name === 'avax_chain_info')).toHaveLength(2);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: PRIMARY_NETWORK_ID })).toBe(0);
  });

  it('behavior: an L1 once found stays watched when its chain check goes away (subnet no longer tracked)', async () => {
    const st = validatorOfBoth();
    const { client: c } = client(st, {
      'platform.getBlockchainStatus': (p: unknown) => ({ status: (p as { blockchainID: string }).blockchainID === L1_CHAIN && !st.runsL1 ? 'Created' : 'Validating' }),
      'info.isBootstrapped': (p: unknown) => (st.runsL1 ? { isBootstrapped: true } : new RpcError('info.isBootstrapped', -32000, `there is no chain with alias/ID '${(p as { chain: string }).chain}'`)),
    });
    const state = new Map<string, unknown>();
    expect((await subnetChains.collect(makeCtx(c, { state }).ctx)).errors).toEqual([]);
    st.runsL1 = false;
    state.delete('cache'); // start over (as after a failed request): the L1 chain's check is gone now
    const r = await subnetChains.collect(makeCtx(c, { state }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
    // isBootstrapped of a chain the node does not run: a normal state, published as not bootstrapped.
    expect(r.value?.chains.find((x) => x.id === L1_CHAIN)?.bootstrapped).toBe(false);
  });

  it('behavior: public server (getVMs and the Health API absent) → chains and status, no VM or health series, no failure', async () => {
    const { client: c } = client(validatorOfBoth(), {
      'info.getVMs': new RpcError('info.getVMs', -32601, 'rpc: can\'t find method "info.GetVMs"'),
      'health.health': new HttpError('health.health', 404, '404 page not found\n'),
    });
    const r = await subnetChains.collect(makeCtx(c).ctx);
    expect(r.errors).toEqual([]);
    expect([...new Set(r.samples.map((s) => s.name))]).toEqual(['avax_chain_info', 'avax_chain_status', 'avax_subnet_node_is_validator']);
  });

  it('behavior: reference target → neither getVMs nor the Health API; the watched IDs are the configured ones', async () => {
    const { client: c, calls } = client(validatorOfBoth());
    const r = await subnetChains.collect(makeCtx(c, { target: { reference: true, validatorNodeIds: [OTHER] } }).ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((x) => x.method).sort()).toEqual(['platform.getBlockchainStatus', 'platform.getBlockchainStatus', 'platform.getBlockchains', 'platform.getValidatorsAt']);
    expect(r.samples.filter((s) => s.name === 'avax_subnet_node_is_validator')).toEqual([]);
  });

  it.each([
    ['error: getBlockchains fails → nothing, failure', { 'platform.getBlockchains': new TimeoutError('platform.getBlockchains', 5000) }],
    ['error: a status call fails → nothing of the others either (no partial pass), failure', { 'platform.getBlockchainStatus': new RpcError('platform.getBlockchainStatus', -32000, 'boom') }],
    ['error: a status outside the known set → invalid answer, failure', { 'platform.getBlockchainStatus': { status: 'Bogus' } }],
  ])('%s', async (_n, over) => {
    const { client: c } = client(validatorOfBoth(), over);
    const state = new Map<string, unknown>();
    const r = await subnetChains.collect(makeCtx(c, { state }).ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(state.has('cache')).toBe(false);
  });

  it('error: a failed request in turn drops the cache; the next run asks everything again', async () => {
    let fail = false;
    const { client: c, calls } = client(validatorOfBoth(), { 'info.getVMs': () => (fail ? new TimeoutError('info.getVMs', 5000) : result('info.getVMs', 'default')) });
    const state = new Map<string, unknown>();
    await subnetChains.collect(makeCtx(c, { state }).ctx);
    fail = true;
    let r;
    for (let i = 0; i < 4 && !(r && r.errors.length > 0); i++) r = await subnetChains.collect(makeCtx(c, { state }).ctx); // chains, running, members, VMs (fails)
    expect(r!.samples).toEqual([]);
    expect(r!.errors).toHaveLength(1);
    fail = false;
    const before = calls.length;
    const again = await subnetChains.collect(makeCtx(c, { state }).ctx);
    expect(calls.length - before).toBe(11);
    expect(again.samples.length).toBeGreaterThan(0);
  });
});
