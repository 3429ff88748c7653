// The `l1-idle` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1Idle = defineScenario({
  name: 'l1-idle',
  help: 'the L1 chain produces no block (an idle L1: no transactions), everything else healthy',
  effect:
    'the height of the L1 chain stays where it was at the switch (an L1 without traffic builds no block): its last accepted timestamp stays too, nothing waits in consensus (`avalanche_snowman_blks_processing` 0) and its health check passes; a normal state',
  node: { chainProgress: { chains: ['L1'], rate: 0, issued: false } },
});
