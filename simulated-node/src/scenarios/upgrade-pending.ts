// The `upgrade-pending` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { DAY } from '../mainnet-constants.js';
import { defineScenario, type ScenarioNode } from './scenario.js';

/** The next upgrade: 3 days after the switch (unix s), in info.upgrades and announced by the peers that moved. */
const upgradeAt = (n: ScenarioNode): number => n.switchS + 3 * DAY;

export const upgradePending = defineScenario({
  name: 'upgrade-pending',
  help: "the version's next upgrade (heliconTime on 1.14.2) = switch + 3 d; ~70% of peers on the next release (1.15.0) announcing it",
  effect:
    '(v1.14.2; for v1.13.5 see Versions) `info.upgrades.heliconTime` = switch + 3 d (RFC3339, ' +
    'seconds); peers at the bottom 70 % of the seeded stake order (≈ 70 % by stake and by count) ' +
    'run `avalanchego/1.15.0` with `upgradeTime` = that time; the node\'s local upgrade time is ' +
    'Helicon\'s, so `futureupgrade` stays healthy (mode = local). The node still reports 1.14.2',
  node: { nextUpgradeAt: upgradeAt },
  peers: {
    release: (n, pos) => (pos < 0.7 ? { version: n.profile.nextRelease, upgradeTime: upgradeAt(n) } : null),
  },
});
