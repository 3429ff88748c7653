// Consistency: the simulator's answers parse with the exporter's own response
// schemas (src/schemas), in the healthy scenario and after a scenario switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimNode, type SimNode } from '../../src/sim/server.js';
import { AvmGetHeightResult } from '../../src/schemas/avm.js';
import { EthBlockNumberResult } from '../../src/schemas/evm.js';
import { HealthReport } from '../../src/schemas/health.js';
import { IndexGetLastAcceptedResult } from '../../src/schemas/index-api.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
  InfoIsBootstrappedResult,
  InfoPeersResult,
  InfoUpgradesResult,
  InfoUptimeResult,
} from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsResult, PlatformGetHeightResult, PlatformGetTimestampResult } from '../../src/schemas/platform.js';
import { raw, result, rpc, waitFor } from './helpers.js';

let sim: SimNode;
beforeAll(async () => {
  sim = await startSimNode({ seed: 21, validators: 200, peers: 220, healthIntervalMs: 50 });
  await waitFor(async () => (await raw(sim.url + '/ext/health')).status === 200);
});
afterAll(async () => {
  await sim?.close();
});

const check = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, v: unknown, what: string): void => {
  const r = schema.safeParse(v);
  expect(r.success, `${what}: ${JSON.stringify(r.error)}`).toBe(true);
};

describe('sim answers parse with src/schemas', () => {
  it('info', async () => {
    check(InfoGetNodeIDResult, await result(sim.url, '/ext/info', 'info.getNodeID'), 'getNodeID');
    check(InfoGetNodeVersionResult, await result(sim.url, '/ext/info', 'info.getNodeVersion'), 'getNodeVersion');
    check(InfoGetNetworkIDResult, await result(sim.url, '/ext/info', 'info.getNetworkID'), 'getNetworkID');
    check(InfoGetNetworkNameResult, await result(sim.url, '/ext/info', 'info.getNetworkName'), 'getNetworkName');
    check(InfoIsBootstrappedResult, await result(sim.url, '/ext/info', 'info.isBootstrapped', { chain: 'P' }), 'isBootstrapped');
    check(InfoPeersResult, await result(sim.url, '/ext/info', 'info.peers'), 'peers');
    check(InfoUptimeResult, await result(sim.url, '/ext/info', 'info.uptime'), 'uptime');
    check(InfoUpgradesResult, await result(sim.url, '/ext/info', 'info.upgrades'), 'upgrades');
  });

  it('platform, avm, evm, index', async () => {
    check(PlatformGetHeightResult, await result(sim.url, '/ext/bc/P', 'platform.getHeight'), 'getHeight');
    check(PlatformGetTimestampResult, await result(sim.url, '/ext/bc/P', 'platform.getTimestamp'), 'getTimestamp');
    check(PlatformGetCurrentValidatorsResult, await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators'), 'validators');
    check(PlatformGetCurrentValidatorsResult, await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] }), 'own validator');
    check(PlatformGetCurrentValidatorsResult, await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId }), 'L1 validators');
    check(AvmGetHeightResult, await result(sim.url, '/ext/bc/X', 'avm.getHeight'), 'avm.getHeight');
    check(EthBlockNumberResult, (await rpc(sim.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])).json.result, 'eth_blockNumber');
    for (const p of ['/ext/index/P/block', '/ext/index/C/block', '/ext/index/X/block', '/ext/index/X/tx', '/ext/index/X/vtx']) {
      check(IndexGetLastAcceptedResult, await result(sim.url, p, 'index.getLastAccepted', { encoding: 'hex' }), p);
    }
  });

  it('health in several scenarios', async () => {
    for (const s of ['healthy', 'bootstrapping', 'unhealthy-network', 'validator-disconnected', 'not-a-validator'] as const) {
      await sim.setScenario(s);
      for (const p of ['/ext/health', '/ext/health/readiness', '/ext/health/liveness']) check(HealthReport, JSON.parse((await raw(sim.url + p)).body), `${s} ${p}`);
    }
    await sim.setScenario('healthy');
  });
});
