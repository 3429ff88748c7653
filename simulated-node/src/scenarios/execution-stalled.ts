// The `execution-stalled` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

/**
 * params.Tau (5 s): SAE verifies a block only if it can tell which executed blocks the block settles (the ones
 * executed by its time − Tau: blocks.LastToSettleAt, else errExecutionLagging). With the executor stuck, blocks
 * up to Tau after the stuck one are still accepted; later ones fail verification.
 */
const TAU_MS = 5000;

export const executionStalled = defineScenario({
  name: 'execution-stalled',
  help: "the C-Chain's SAE executor executes nothing from the switch on: executed height frozen, the queue grows, then acceptance stops (5 s later)",
  effect:
    '(1.15.0 with the C-Chain on SAE) the executor stops at the switch: `avalanche_evm_transition_sae_last_executed_height`, ' +
    '`eth_blockNumber` (`latest` = last executed), the executed gas counters and the execution histograms stop; the ' +
    'C-Chain still accepts the blocks of the next 5 s (SAE\'s Tau: later blocks fail verification with ' +
    '`errExecutionLagging`, they are dropped, not processing), so `execution_queue_blocks` = accepted − executed grows ' +
    'to about Tau × the C block rate + 1 (3 at 0.5 blocks/s) with `execution_queue_gas_limit`, then accepted and settled ' +
    'heights stay; health checks pass (v1.15.0 has no acceptance-time check). Without SAE (Coreth executes while ' +
    'verifying) only the accepted height stops, 5 s after the switch; leaving it catches up at once',
  node: { saeExecution: 'stalled', chainProgress: { chains: ['C'], rate: 0, graceMs: TAU_MS, dropped: true } },
});
