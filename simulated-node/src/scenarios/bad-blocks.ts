// The `bad-blocks` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const badBlocks = defineScenario({
  name: 'bad-blocks',
  help: 'C-Chain blocks fail verification on this node: 6 a minute from the switch on (a diverging node)',
  effect: '`/ext/metrics` `avalanche_evm_eth_chain_block_bad_count{chain="C"}` grows by 6 a minute from the switch (healthy: stays 0)',
  extMetrics: { badBlocksPerMinute: 6 },
});
