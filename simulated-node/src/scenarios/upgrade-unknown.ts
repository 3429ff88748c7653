// The `upgrade-unknown` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const upgradeUnknown = defineScenario({
  name: 'upgrade-unknown',
  help: 'peers with ~70% of the stake announce an upgrade at switch + 20 h; futureupgrade check failing',
  effect:
    'the same peers (≈ 70 % of the weight) run `avalanchego/1.15.0` with `upgradeTime` = switch +' +
    ' 20 h; `info.upgrades` unchanged; `futureupgrade` fails `unknown network upgrade detected - ' +
    'update as soon as possible`, message `{localUpgradeTime: Granite, modeUpgradeTime, ' +
    'modeUpgradeWeightPercentage, numUpgradeTimes, timeUntilUpgrade: "20h0m0s"}`, then `imminent ' +
    '…` in the last hour',
  peers: {
    release: (n, pos) => (pos < 0.7 ? { version: n.profile.nextRelease, upgradeTime: n.switchS + 20 * 3600 } : null),
  },
});
