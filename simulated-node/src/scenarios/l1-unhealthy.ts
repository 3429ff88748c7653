// The `l1-unhealthy` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1Unhealthy = defineScenario({
  name: 'l1-unhealthy',
  help: "the L1 chain's health check fails (not connected to enough L1 stake): the subnet's tagged health is unhealthy",
  effect:
    'the L1 chain\'s health check fails `not connected to enough stake: …` (only the own L1 ' +
    'validator connected): `health.health {tags:[<subnet>]}` and `GET /ext/health?tag=<subnet>` ' +
    'unhealthy; status stays `Validating`',
  l1: { peersConnected: false },
});
