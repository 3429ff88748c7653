// The `validator-ending` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { DAY } from '../mainnet-constants.js';
import { defineScenario } from './scenario.js';
import { ownValidationEndingAfterSwitch } from './validator-expiring.js';

export const validatorEnding = defineScenario({
  name: 'validator-ending',
  help: 'own validation ends about 10 days after the switch (not renewed)',
  effect: 'own `endTime` ≈ 10 days after the switch (fixed, seeded within its last hour): less than 14 days, more than 7',
  validators: {
    // Like validator-expiring, 10 days out: the operator has not renewed it yet.
    ownPeriod: ownValidationEndingAfterSwitch(10 * DAY, 78),
  },
});
