// The `bootstrapping` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const bootstrapping = defineScenario({
  name: 'bootstrapping',
  help: 'P/X/C not bootstrapped: chain routes 503, readiness 503, bootstrapped check failing',
  effect:
    '`info.isBootstrapped` false for P/X/C; `/ext/bc/*` 503 text; readiness 503; `bootstrapped` ' +
    'failing with `["111…LpoYY"]`; chain checks `consensus: {}`',
  node: { bootstrapped: false },
});
