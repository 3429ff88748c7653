// The `l1-stalled` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1Stalled = defineScenario({
  name: 'l1-stalled',
  help: 'the L1 chain accepts no block from the switch on while blocks keep arriving and wait in consensus (the L1 halted), everything else healthy',
  effect:
    'the L1 chain\'s height and last accepted timestamp stay where they were at the switch, `avalanche_snowman_blks_processing{chain="<L1 chain>"}` grows by one every 20 s from 3, and the chain\'s health check fails `block processing too long: <wait> > 30s` once the oldest block has waited 30 s (avalanchego snowman Topological.HealthCheck); the subnet\'s tagged health is unhealthy; leaving it catches up at once',
  node: { chainProgress: { chains: ['L1'], rate: 0 } },
});
