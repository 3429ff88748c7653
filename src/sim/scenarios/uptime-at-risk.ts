// The `uptime-at-risk` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
import { defineScenario } from './scenario.js';

export const uptimeAtRisk = defineScenario({
  name: 'uptime-at-risk',
  help: 'peers see the uptime just above the 80% requirement: info.uptime weighted ~82%, rewarding 100%',
  effect: 'every peer sees the node between 80 % and 85 % (a degraded link, not an outage): `info.uptime` weighted ≈ 82, rewarding ≈ 100',
  // Above the requirement everywhere (so the stake that rewards it stays whole), inside the 5-point margin.
  observedUptime: (_n, p) => 80.5 + p.r * 4.5 + p.drift * 0.4,
});
