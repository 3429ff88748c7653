// The `l1-quorum-lost` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1QuorumLost = defineScenario({
  name: 'l1-quorum-lost',
  help: "the L1's other validators are unreachable: the L1 chain accepts no block and none reaches the node (nothing waits), its health check fails on the stake connected",
  effect:
    'of the L1 validators only the own one is connected (`percentConnected` 0.2 in the chain\'s check and `avalanche_stake_percent_connected`): the chain\'s health check fails `not connected to enough stake: …`, its height and last accepted timestamp stay where they were at the switch and nothing waits in consensus (`blks_processing` 0: no block reaches the node); leaving it catches up at once',
  node: { chainProgress: { chains: ['L1'], rate: 0, issued: false } },
  l1: { peersConnected: false },
});
