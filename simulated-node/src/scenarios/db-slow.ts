// The `db-slow` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const dbSlow = defineScenario({
  name: 'db-slow',
  help: 'every database call takes 80 ms from the switch on (a failing disk)',
  effect: '`/ext/metrics` `avalanche_meterdb_duration` grows by 80 ms per call from the switch (healthy: 9 µs, batch writes 80 µs)',
  extMetrics: { dbCallNs: 80_000_000 },
});
