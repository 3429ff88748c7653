// The `version-drift` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { GRANITE_UNIX } from '../versions.js';
import { defineScenario } from './scenario.js';

export const versionDrift = defineScenario({
  name: 'version-drift',
  help: '~70% of peers on avalanchego/1.14.10 (newer than 1.14.2 by semver, older as a string)',
  effect:
    'the same ≈ 70 % of peers run `avalanchego/1.14.10` (newer than 1.14.2 by semver, older as a ' +
    'string), the rest 1.14.2 / 1.14.1 / 1.14.0; nothing scheduled, `futureupgrade` healthy',
  peers: {
    release: (n, pos) => (pos < 0.7 ? { version: n.profile.driftRelease, upgradeTime: GRANITE_UNIX } : null),
  },
});
