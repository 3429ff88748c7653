// Consistency: on the simulator's big answers (hundreds of validators and peers, L1 entries, every
// scenario that changes them), the lean readers of src/schemas agree with the zod schemas (the oracle
// checks of schemas.test.ts): both accept, with the same used data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimNode } from '@avalanche-exporter/simulated-node';
import { expectAgreement } from '../helpers/lean-agreement.js';
import { result, startReadySim } from './helpers.js';

let sim: SimNode;
beforeAll(async () => {
  sim = await startReadySim({ seed: 21, validators: 300, peers: 320, healthIntervalMs: 50 });
});
afterAll(async () => {
  await sim?.close();
});

async function agreeOnAll(what: string): Promise<void> {
  const P = '/ext/bc/P';
  const calls: [string, string, string, unknown?][] = [
    ['info.peers', '/ext/info', 'info.peers'],
    ['platform.getCurrentValidators', P, 'platform.getCurrentValidators'],
    ['platform.getCurrentValidators', P, 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] }],
    ['platform.getCurrentValidators', P, 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId }],
    ['platform.getCurrentValidators', P, 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId, nodeIDs: [sim.nodeId()] }],
    ['platform.getBlockchains', P, 'platform.getBlockchains'],
  ];
  for (const [method, path, rpcMethod, params] of calls) {
    const answer = await result(sim.url, path, rpcMethod, params);
    expect(expectAgreement(method, answer, `${what}: ${rpcMethod} ${JSON.stringify(params ?? {})}`)).toBe(true);
  }
}

describe('sim answers: lean readers agree with the zod schemas', () => {
  it('default: healthy', async () => {
    await agreeOnAll('healthy');
  });

  it('behavior: in the scenarios that change validators and peers', async () => {
    for (const s of ['validator-disconnected', 'low-uptime', 'validator-expiring', 'not-a-validator', 'l1-inactive', 'acp-vote', 'healthy'] as const) {
      await sim.setScenario(s);
      await agreeOnAll(s);
    }
  });
});
