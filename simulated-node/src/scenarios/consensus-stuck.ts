// The `consensus-stuck` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const consensusStuck = defineScenario({
  name: 'consensus-stuck',
  help: 'the C-Chain accepts no block from the switch on; blocks keep arriving and wait (processing grows)',
  effect: 'C-Chain height frozen at the switch (`eth_blockNumber`, index, `/ext/metrics` accepted count), `avalanche_snowman_blks_processing{chain="C"}` grows by one every 20 s; the node stays bootstrapped and its health checks pass; leaving it catches up at once',
  node: { chainProgress: { chains: ['C'], rate: 0 } },
});
