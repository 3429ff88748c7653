// The `reward-missed-watched` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const rewardMissedWatched = defineScenario({
  name: 'reward-missed-watched',
  help: 'the own validation current at the switch (its txID unchanged) ends 10 min later without reward, then re-staked',
  effect: 'as `reward-missed`, but the validation that ends keeps the txID it had before the switch (the one a watcher has seen active all along) and ends 10 minutes after the switch (a watcher asking every 5 minutes sees its end time first): no reward UTXO, owner balance unchanged, then re-staked (new txID)',
  validators: { rewardOutcome: 'missed-watched' },
});
