// The `l1-fee-warning` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { L1_FEE_PRICE } from '../mainnet-constants.js';
import { defineScenario } from './scenario.js';

export const l1FeeWarning = defineScenario({
  name: 'l1-fee-warning',
  help: 'own L1 validator balance = 512 nAVAX/s x 3 days at the switch, still draining',
  effect: 'own L1 validator `balance` = 512 × 259,200 nAVAX (3 days of fees) at the switch, draining 512/s: a runway under 7 days, over 1 day for the first 2 days',
  l1: {
    // 3 days of fees at the switch, draining since (not topped up).
    ownBalance: (n, nowS) => BigInt(L1_FEE_PRICE) * BigInt(3 * 86_400 - Math.max(0, nowS - n.switchS)),
  },
});
