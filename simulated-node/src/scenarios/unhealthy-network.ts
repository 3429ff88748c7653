// The `unhealthy-network` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const unhealthyNetwork = defineScenario({
  name: 'unhealthy-network',
  help: '3 peers, connected stake below 80%, chain health checks failing',
  effect: '3 peers; chain checks fail `not connected to enough stake: …`; GET health 503',
  node: { linkedToSiblings: false },
  validators: { connectedPeers: 3 },
  peers: { nonValidators: false },
  l1: { peersConnected: false },
  extMetrics: { degraded: true },
});
