// Consistency: the simulator's answers parse with the schemas the exporter reads them with (the
// declared calls', collectors/index.ts CALLS: a lean reader or zod), in the healthy scenario and
// after a scenario switch. Every method a call declares is asked here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, schemaOfMethod } from '../../src/collectors/index.js';
import type { SimNode } from '@avalanche-exporter/simulated-node';
import { raw, result, rpc, startReadySim } from './helpers.js';

let sim: SimNode;
beforeAll(async () => {
  sim = await startReadySim({ seed: 21, validators: 200, peers: 220, healthIntervalMs: 50 });
});
afterAll(async () => {
  await sim?.close();
});

const P = '/ext/bc/P';
/** What is asked: path, JSON-RPC method and params, and the scenario in which the API answers. */
interface Ask {
  readonly path: string;
  readonly method: string;
  readonly params?: () => Promise<unknown> | unknown;
  readonly scenario?: 'log-level-debug';
}

/** The own validation's txID and reward owner (for the reward outcome and the owner balance). */
async function ownValidation(): Promise<{ txID: string; addresses: string[] }> {
  const { validators } = await result(sim.url, P, 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] });
  return { txID: validators[0].txID, addresses: validators[0].validationRewardOwner.addresses };
}

const ASKS: Ask[] = [
  { path: '/ext/info', method: 'info.getNodeID' },
  { path: '/ext/info', method: 'info.getNodeVersion' },
  { path: '/ext/info', method: 'info.getNetworkID' },
  { path: '/ext/info', method: 'info.getNetworkName' },
  { path: '/ext/info', method: 'info.isBootstrapped', params: () => ({ chain: 'P' }) },
  { path: '/ext/info', method: 'info.peers' },
  { path: '/ext/info', method: 'info.uptime' },
  { path: '/ext/info', method: 'info.upgrades' },
  { path: '/ext/info', method: 'info.acps' },
  { path: '/ext/info', method: 'info.getNodeIP' },
  { path: '/ext/info', method: 'info.getVMs' },
  { path: P, method: 'platform.getHeight' },
  { path: P, method: 'platform.getTimestamp' },
  { path: P, method: 'platform.getCurrentValidators' },
  { path: P, method: 'platform.getCurrentValidators', params: () => ({ nodeIDs: [sim.nodeId()] }) },
  { path: P, method: 'platform.getCurrentValidators', params: () => ({ subnetID: sim.l1SubnetId }) },
  { path: P, method: 'platform.getValidatorFeeState' },
  { path: P, method: 'platform.getCurrentSupply' },
  { path: P, method: 'platform.getTotalStake' },
  { path: P, method: 'platform.getMinStake' },
  { path: P, method: 'platform.getFeeState' },
  { path: P, method: 'platform.getRewardUTXOs', params: async () => ({ txID: (await ownValidation()).txID, encoding: 'hex' }) },
  { path: P, method: 'platform.getBalance', params: async () => ({ addresses: (await ownValidation()).addresses }) },
  { path: P, method: 'platform.getTxStatus', params: async () => ({ txID: (await ownValidation()).txID }) },
  { path: P, method: 'platform.getBlockchains' },
  { path: P, method: 'platform.getBlockchainStatus', params: async () => ({ blockchainID: (await result(sim.url, P, 'platform.getBlockchains')).blockchains[0].id }) },
  { path: '/ext/bc/X', method: 'avm.getHeight' },
  { path: '/ext/bc/C/rpc', method: 'eth_blockNumber', params: () => [] },
  ...['/ext/index/P/block', '/ext/index/C/block', '/ext/index/X/block', '/ext/index/X/tx', '/ext/index/X/vtx'].map((path) => ({ path, method: 'index.getLastAccepted', params: () => ({ encoding: 'hex' }) })),
  { path: '/ext/admin', method: 'admin.getLoggerLevel', params: () => ({}), scenario: 'log-level-debug' },
];

const check = (method: string, v: unknown, what: string): void => {
  const schema = schemaOfMethod(method);
  expect(schema, `${method}: the schema of its calls`).toBeDefined();
  const r = schema!.safeParse(v);
  expect(r.success, `${what}: ${JSON.stringify(r.success ? undefined : r.error.issues.slice(0, 3))}`).toBe(true);
};

describe('sim answers parse with the schemas of the declared calls', () => {
  it('default: every JSON-RPC method a call declares is asked here', () => {
    const asked = new Set(ASKS.map((a) => a.method));
    expect(CALLS.filter(({ call }) => call.kind === 'rpc' && !asked.has(call.method)).map(({ call }) => call.method)).toEqual([]);
  });

  it.each(ASKS.map((a) => [`${a.method} ${a.path}`, a] as const))('default: %s', async (_n, a) => {
    if (a.scenario) await sim.setScenario(a.scenario);
    try {
      const params = await a.params?.();
      const r = await rpc(sim.url, a.path, a.method, params);
      expect(r.json?.error, `${a.method}: ${JSON.stringify(r.json?.error)}`).toBeUndefined();
      check(a.method, r.json.result, `${a.method} ${a.path} ${JSON.stringify(params ?? {})}`);
    } finally {
      if (a.scenario) await sim.setScenario('healthy');
    }
  });

  it('default: the Health API in several scenarios, read like the health call reads GET /ext/health', async () => {
    const health = CALLS.find(({ call }) => call.kind === 'health')!.call;
    for (const s of ['healthy', 'bootstrapping', 'unhealthy-network', 'validator-disconnected', 'not-a-validator'] as const) {
      await sim.setScenario(s);
      for (const p of ['/ext/health', '/ext/health/readiness', '/ext/health/liveness']) check(health.method, JSON.parse((await raw(sim.url + p)).body), `${s} ${p}`);
    }
    await sim.setScenario('healthy');
  });
});
