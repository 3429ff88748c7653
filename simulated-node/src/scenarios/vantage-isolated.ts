// The `vantage-isolated` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const vantageIsolated = defineScenario({
  name: 'vantage-isolated',
  help: 'this node and its sibling nodes (--nodes >= 2) see each other disconnected',
  effect:
    'no connection between this node and its siblings (see above); one node alone: answers ' +
    'exactly as `healthy`',
  node: { linkedToSiblings: false },
});
