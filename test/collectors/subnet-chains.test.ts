import { describe, expect, it } from 'vitest';
import { subnetChains, watchedSubnets } from '../../src/collectors/subnet-chains.js';
import { PRIMARY_NETWORK_ID, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { HealthReport } from '../../src/schemas/health.js';
import { PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const SELF = 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv';
const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
// The synthetic L1 of platform.getBlockchains/default.json.
const L1_SUBNET = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';
const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const L1_VM = 'qxV63uTMB9duhwv3h2kZPx71uhkVf2qz4DzWrmWJUs8ZBGsu4';

const chains = PlatformGetBlockchainsResult.parse(result('platform.getBlockchains', 'default')).blockchains;
const primaryWatched = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators;
const validators = { sets: [{ subnet: PRIMARY_NETWORK_ID, watched: [SELF], validators: primaryWatched }] };
/** The node's health report with a check for the L1 chain (the node runs it). */
function healthWithL1(): { health: HealthReport } {
  const h = HealthReport.parse(result('health.health', 'default'));
  return { health: { ...h, checks: { ...h.checks, [L1_CHAIN]: { timestamp: 1778750490, duration: 1 } } } };
}

const answers = (over: Record<string, unknown> = {}) => ({
  'platform.getBlockchains': result('platform.getBlockchains', 'default'),
  'platform.getBlockchainStatus': result('platform.getBlockchainStatus', 'default'),
  'info.getVMs': result('info.getVMs', 'default'),
  'info.isBootstrapped': result('info.isBootstrapped', 'default'),
  'health.health': (p: unknown) => ({ checks: {}, healthy: (p as { tags: string[] }).tags[0] !== 'unhealthy-subnet' }),
  'platform.getValidatorsAt': result('platform.getValidatorsAt', 'default'),
  ...over,
});

describe('subnet-chains: which subnets', () => {
  it.each([
    ['default: a configured subnet, beside the primary network', [L1_SUBNET], validators, undefined, [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: none configured → the primary network (own validator active) and the L1 whose chain the node runs', [], validators, healthWithL1(), [PRIMARY_NETWORK_ID, L1_SUBNET]],
    ['behavior: not a validator, no L1 chain running → nothing', [], { sets: [{ subnet: PRIMARY_NETWORK_ID, watched: [SELF], validators: [] }] }, { health: HealthReport.parse(result('health.health', 'default')) }, []],
    ['behavior: nothing known yet → nothing', [], undefined, undefined, []],
  ])('%s', (_n, configured, v, h, want) => {
    expect(watchedSubnets(configured, v, h, chains)).toEqual(want);
  });
});

describe('subnet-chains collect', () => {
  it('default: first run asks everything; chains of the watched subnets with status, VM, health, membership', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(client, { values: { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() } });
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
    expect(calls.filter((c) => c.method === 'info.isBootstrapped').map((c) => c.params)).toEqual([{ chain: L1_CHAIN }]);
    expect(calls.filter((c) => c.method === 'health.health').map((c) => c.params)).toEqual([{ tags: [PRIMARY_NETWORK_ID] }, { tags: [L1_SUBNET] }]);
    expect(calls.filter((c) => c.method === 'platform.getValidatorsAt').map((c) => c.params)).toEqual([{ height: 'proposed', subnetID: L1_SUBNET }]);
    expect(r.value?.chains.map((c) => `${c.id}:${String(c.bootstrapped)}`)).toEqual([`${X}:undefined`, `${C}:undefined`, `${L1_CHAIN}:true`]);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });

  it('behavior: after the first run, one request per run in turn; a full turn refreshes every item', async () => {
    let status = 'Validating';
    const { client, calls } = fakeClient(answers({ 'platform.getBlockchainStatus': () => ({ status }) }));
    const state = new Map<string, unknown>();
    const values = { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() };
    await subnetChains.collect(makeCtx(client, { values, state }).ctx);
    const first = calls.length;
    expect(first).toBe(9); // chains, VMs, 3 statuses, 1 isBootstrapped, 2 health, 1 membership
    status = 'Syncing';
    const perRun: number[] = [];
    let last;
    for (let i = 0; i < 9; i++) {
      const before = calls.length;
      last = await subnetChains.collect(makeCtx(client, { values, state }).ctx);
      expect(last.errors).toEqual([]);
      perRun.push(calls.length - before);
    }
    expect(perRun).toEqual(Array(9).fill(1));
    // 9 items per turn: every chain status was asked again within the turn.
    expect(calls.slice(first).map((c) => c.method).sort()).toEqual(calls.slice(0, first).map((c) => c.method).sort());
    expect(valueOf(last!.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Syncing' })).toBe(1);
  });

  it('behavior: the subnet health and a chain leaving Validating show in the series', async () => {
    const { client } = fakeClient(
      answers({
        'platform.getBlockchainStatus': (p: unknown) => ({ status: (p as { blockchainID: string }).blockchainID === L1_CHAIN ? 'Syncing' : 'Validating' }),
        'health.health': (p: unknown) => ({ checks: {}, healthy: (p as { tags: string[] }).tags[0] !== L1_SUBNET }),
        'platform.getValidatorsAt': {},
      }),
    );
    const { ctx } = makeCtx(client, { values: { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() } });
    const r = await subnetChains.collect(ctx);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Syncing' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_healthy', { subnet: L1_SUBNET })).toBe(0);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(0);
  });

  it('behavior: a configured subnet is watched even when the node runs none of its chains (not tracked)', async () => {
    const { client } = fakeClient(answers({ 'platform.getBlockchainStatus': { status: 'Created' } }));
    const { ctx } = makeCtx(client, { target: { subnets: [L1_SUBNET] }, values: { 'node-info': { nodeId: SELF } } });
    const r = await subnetChains.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(r.samples.filter((s) => s.name === 'avax_chain_info').map((s) => s.labels['blockchain_id'])).toEqual([L1_CHAIN]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
  });

  it('behavior: an API node that validates nothing and runs no L1 → no series, no failure', async () => {
    const { client } = fakeClient(answers());
    const { ctx } = makeCtx(client, { values: { 'node-info': { nodeId: SELF }, 'platform-validators': { sets: [{ subnet: PRIMARY_NETWORK_ID, watched: [SELF], validators: [] }] } } });
    const r = await subnetChains.collect(ctx);
    expect(r).toMatchObject({ samples: [], errors: [] });
  });

  it.each([
    ['error: getBlockchains fails → nothing, failure', { 'platform.getBlockchains': new TimeoutError('platform.getBlockchains', 5000) }],
    ['error: a status call fails → nothing of the others either (no partial pass), failure', { 'platform.getBlockchainStatus': new RpcError('platform.getBlockchainStatus', -32000, 'boom') }],
    ['error: a status outside the known set → invalid answer, failure', { 'platform.getBlockchainStatus': { status: 'Bogus' } }],
  ])('%s', async (_n, over) => {
    const { client } = fakeClient(answers(over));
    const state = new Map<string, unknown>();
    const { ctx } = makeCtx(client, { state, values: { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() } });
    const r = await subnetChains.collect(ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(state.size).toBe(0);
  });

  it('error: a failed request in turn drops the cache; the next run asks everything again', async () => {
    let fail = false;
    const { client, calls } = fakeClient(answers({ 'info.getVMs': () => (fail ? new TimeoutError('info.getVMs', 5000) : result('info.getVMs', 'default')) }));
    const state = new Map<string, unknown>();
    const values = { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() };
    await subnetChains.collect(makeCtx(client, { values, state }).ctx);
    fail = true;
    await subnetChains.collect(makeCtx(client, { values, state }).ctx); // chains (item 0)
    const r = await subnetChains.collect(makeCtx(client, { values, state }).ctx); // vms (item 1) fails
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
    fail = false;
    const before = calls.length;
    const again = await subnetChains.collect(makeCtx(client, { values, state }).ctx);
    expect(calls.length - before).toBe(9);
    expect(again.samples.length).toBeGreaterThan(0);
  });

  it('behavior: an L1 once found stays watched when its chain check goes away (subnet no longer tracked)', async () => {
    const { client } = fakeClient(
      answers({
        'platform.getBlockchainStatus': (p: unknown) => ({ status: (p as { blockchainID: string }).blockchainID === L1_CHAIN ? 'Created' : 'Validating' }),
        'info.isBootstrapped': new RpcError('info.isBootstrapped', -32000, `there is no chain with alias/ID '${L1_CHAIN}'`),
      }),
    );
    const state = new Map<string, unknown>();
    const first = await subnetChains.collect(makeCtx(client, { state, values: { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: healthWithL1() } }).ctx);
    expect(first.errors).toEqual([]);
    // The node's health no longer has the L1 chain's check; the exporter drops its cache (e.g. a failure) and starts over.
    state.delete('cache');
    const plain = { health: HealthReport.parse(result('health.health', 'default')) };
    const r = await subnetChains.collect(makeCtx(client, { state, values: { 'node-info': { nodeId: SELF }, 'platform-validators': validators, health: plain } }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_chain_status', { blockchain_id: L1_CHAIN, status: 'Created' })).toBe(1);
    expect(valueOf(r.samples, 'avax_subnet_node_is_validator', { subnet: L1_SUBNET })).toBe(1);
    // isBootstrapped of a chain the node does not run: a normal state, published as not bootstrapped.
    expect(r.value?.chains.find((c) => c.id === L1_CHAIN)?.bootstrapped).toBe(false);
  });

  it('behavior: public server (getVMs and the Health API absent) → chains and status, no VM or health series, no failure', async () => {
    const { HttpError } = await import('../../src/node-client/index.js');
    const { client } = fakeClient(
      answers({
        'info.getVMs': new RpcError('info.getVMs', -32601, 'rpc: can\'t find method "info.GetVMs"'),
        'health.health': new HttpError('health.health', 404, '404 page not found\n'),
      }),
    );
    const { ctx } = makeCtx(client, { values: { 'node-info': { nodeId: '' }, 'platform-validators': validators } });
    const r = await subnetChains.collect(ctx);
    expect(r.errors).toEqual([]);
    expect([...new Set(r.samples.map((s) => s.name))]).toEqual(['avax_chain_info', 'avax_chain_status']);
  });
  it('behavior: reference target → neither getVMs nor health.health is asked', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(client, { target: { reference: true }, values: { 'platform-validators': validators } });
    const r = await subnetChains.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.method).sort()).toEqual(['platform.getBlockchainStatus', 'platform.getBlockchainStatus', 'platform.getBlockchains']);
  });
});
