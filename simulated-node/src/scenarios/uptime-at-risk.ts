// The `uptime-at-risk` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const uptimeAtRisk = defineScenario({
  name: 'uptime-at-risk',
  help: 'peers see the uptime above the 80% requirement but within 5 points of it: info.uptime weighted ~83%, rewarding ~100%',
  effect: 'every peer sees the node at 82 % to 84 % (a degraded link, not an outage): `info.uptime` weighted ≈ 83 (the stake of momentarily disconnected peers counts 0), rewarding ≈ 100',
  // Above the requirement for every peer (the stake that rewards it stays whole) and inside the
  // 5-point margin with room on both sides: disconnected peers (a few % of the stake at times) pull the
  // weighted average down by that much.
  observedUptime: (_n, p) => 83 + p.r * 1.5 + p.drift * 0.3,
});
