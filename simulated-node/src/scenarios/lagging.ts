// The `lagging` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const lagging = defineScenario({
  name: 'lagging',
  help: 'the node accepts blocks at half the network pace from the switch on (falls behind a reference)',
  effect: 'P, X and C heights grow at half the network pace from the switch (a reference node of the same network keeps the full pace: `chainSeed`); leaving it catches up at once',
  node: { chainProgress: { chains: ['P', 'X', 'C'], rate: 0.5 } },
});
