// The `l1-weight-warning` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { drainingFromThreeDays } from './l1-weight-at-risk.js';
import { defineScenario } from './scenario.js';

export const l1WeightWarning = defineScenario({
  name: 'l1-weight-warning',
  help: 'the L1 validator of weight 100 (20 % of the L1) has 3 days of fees at the switch, still draining',
  effect: 'the L1 validator at position 3 (weight 100 of 500) has `balance` = 512 × 259,200 nAVAX (3 days of fees) at the switch, draining 512/s: with the inactive one (weight 10) 22 % of the weight runs out within 7 days',
  l1: { otherBalance: drainingFromThreeDays(3) },
});
