// The `low-uptime` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const lowUptime = defineScenario({
  name: 'low-uptime',
  help: 'peers see low uptime: info.uptime weighted ~75%, rewarding ~40%',
  effect: 'peers holding ~60 % of the stake see the node below 80 %: `info.uptime` ≈ 75 / 42',
  // Peers holding ~40 % of the stake still see the node above 80 %, the rest well below, so
  // info.uptime reports rewarding ~40 % and weighted ~75 %. Non-validator peers by their seeded r.
  observedUptime: (_n, p) => {
    const pos = p.validatorPos ?? p.r;
    return pos < 0.4 ? 81 + p.r * 12 + p.drift : 58 + p.r * 22 + p.drift;
  },
});
