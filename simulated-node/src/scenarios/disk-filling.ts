// The `disk-filling` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const diskFilling = defineScenario({
  name: 'disk-filling',
  help: 'the disk fills by 20% of its size per hour from the switch on (logs or a database growing)',
  effect: '`diskspace` health check: available space shrinks by 20 % of the disk per hour from the switch; the check fails below 10 % (about 1 h 45 min after the switch from the healthy 45 %)',
  node: { diskFillPerHour: 0.2 },
});
