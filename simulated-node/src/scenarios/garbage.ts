// The `garbage` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const garbage = defineScenario({
  name: 'garbage',
  help: 'HTTP 200 with invalid JSON, wrong types or truncated bodies',
  effect:
    'successful answers replaced in rotation: HTML, wrong types (`numPeers: true`, heights as ' +
    'objects), truncated JSON, `result: "OK"`; HTTP 200',
  answers: 'garbled',
});
