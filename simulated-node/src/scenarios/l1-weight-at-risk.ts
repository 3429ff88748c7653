// The `l1-weight-at-risk` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { L1_FEE_PRICE } from '../mainnet-constants.js';
import { defineScenario, type ScenarioNode } from './scenario.js';

/**
 * The L1 validator at `position` with 3 days of fees at the switch, draining since (its operator does not
 * top it up); the others as the L1 sets them.
 */
export function drainingFromThreeDays(position: number): (n: ScenarioNode, position: number, nowS: number) => bigint | undefined {
  return (n, at, nowS) => (at === position ? BigInt(L1_FEE_PRICE) * BigInt(3 * 86_400 - Math.max(0, nowS - n.switchS)) : undefined);
}

export const l1WeightAtRisk = defineScenario({
  name: 'l1-weight-at-risk',
  help: 'the L1 validator of weight 200 (40 % of the L1) has 3 days of fees at the switch, still draining',
  effect: 'the L1 validator at position 4 (weight 200 of 500) has `balance` = 512 × 259,200 nAVAX (3 days of fees) at the switch, draining 512/s: with the inactive one (weight 10) 42 % of the weight runs out within 7 days, more than the third that halts the L1 once spent',
  l1: { otherBalance: drainingFromThreeDays(4) },
});
