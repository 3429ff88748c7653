// The `l1-fee-low` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { L1_FEE_PRICE } from '../mainnet-constants.js';
import { defineScenario } from './scenario.js';

export const l1FeeLow = defineScenario({
  name: 'l1-fee-low',
  help: 'own L1 validator balance = 512 nAVAX/s x 20 h at the switch, still draining',
  effect:
    'own L1 validator `balance` = 512 × 72,000 nAVAX (20 h of fees) at the switch, draining 512/s' +
    ' (`"0"` after 20 h); `getValidatorFeeState` unchanged ' +
    '`{"excess":0,"price":512,"timestamp":…}`',
  l1: {
    // 20 h of fees at the switch, draining since (inactive once it reaches 0).
    ownBalance: (n, nowS) => BigInt(L1_FEE_PRICE) * BigInt(20 * 3600 - Math.max(0, nowS - n.switchS)),
  },
});
