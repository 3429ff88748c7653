// The `disk-filling-slow` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const diskFillingSlow = defineScenario({
  name: 'disk-filling-slow',
  help: 'the disk fills by 0.5% of its size per hour from the switch on (days of warning before the cliff)',
  effect: '`diskspace` check and /ext/metrics free space shrink by 0.5 % of the disk per hour (12 % a day): from the healthy 45 % free the node reaches 20 % in about 50 h, the unhealthy 10 % in about 70 h and the 3 % shutdown in about 84 h',
  node: { diskFillPerHour: 0.005 },
});
