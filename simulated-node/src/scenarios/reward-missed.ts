// The `reward-missed` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const rewardMissed = defineScenario({
  name: 'reward-missed',
  help: 'own validation ends 60 s after the switch without reward (no reward UTXO), then re-staked (new txID)',
  effect:
    'the same end and re-stake, with no reward UTXO (an aborted RewardValidatorTx) and the owner ' +
    'balance unchanged; the ending validation has a txID of its own (so the own txID changes at ' +
    'the switch, and a switch from `reward-paid` does not bring back the txID that already ended)',
  validators: { rewardOutcome: 'missed' },
});
