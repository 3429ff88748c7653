import { gauge, sample, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * avax_cchain_execution_lag_blocks: how many blocks the node's C-Chain execution is behind its consensus under
 * SAE (ACP-194, avalanchego v1.15.0+ once Helicon activated): the last accepted height minus the last executed
 * height, both from the same /ext/metrics body (node-metrics). What the node serves as `latest` (eth_blockNumber,
 * avax_chain_height{chain="C"}) is that many blocks older than what consensus decided. The node's own
 * avax_node_cchain_execution_queue_blocks counts the same blocks as its executor's queue sees them (from the
 * process start); this one is the difference of the two heights an operator compares on the dashboard.
 * Negative only when the node updated one gauge between the other and the text (a block executes within a
 * millisecond): 0 then. Absent on a Coreth C-Chain and while either height is unknown.
 */
export function executionLag(accepted: number, executed: number): number {
  return Math.max(0, accepted - executed);
}

export const cchainExecutionLag = defineDerivation({
  name: 'cchain-execution-lag',
  reads: ['node-metrics'],
  metrics: [
    {
      ...gauge(
        'avax_cchain_execution_lag_blocks',
        'C-Chain blocks accepted by consensus and not yet executed (SAE): avax_node_last_accepted_height{chain="C"} - avax_node_cchain_last_executed_height, of the same /ext/metrics read. eth_blockNumber (the `latest` block) is this many blocks behind the last accepted one.',
      ),
      avalanchego: 'v1.15.0+, once Helicon activated (C-Chain on SAE)',
    },
  ],
  derive(s): Sample[] {
    const e = valueOf(s, 'node-metrics')?.cchainExecution;
    return e === undefined ? [] : [sample('avax_cchain_execution_lag_blocks', {}, executionLag(e.accepted, e.executed))];
  },
});
