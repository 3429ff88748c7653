// The `reward-paid` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const rewardPaid = defineScenario({
  name: 'reward-paid',
  help: 'own validation ends 60 s after the switch with its reward paid (getRewardUTXOs), then re-staked (new txID)',
  effect:
    'the own primary validation current at the switch gets `endTime` = switch + 60 s; from then ' +
    'on it is replaced by a re-staked one (new `txID`, `startTime` = that end, 28 d); ' +
    '`getRewardUTXOs(old txID)` → the validation reward (= the `potentialReward` it showed) and ' +
    'the accrued delegation fee when non-zero, as TransferOutput UTXOs to the reward owner (codec' +
    ' v0, `0x…` hex with checksum, `numFetched` a string); `getBalance` of the owner grows by the' +
    ' same amount. Any other txID → `{"numFetched":"0","utxos":[],"encoding":"hex"}`',
  validators: { rewardOutcome: 'paid' },
});
