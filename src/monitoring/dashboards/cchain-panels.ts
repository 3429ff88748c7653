// The C-Chain under SAE (ACP-194, avalanchego v1.15.0+ once Helicon activated): its three heights and its execution
// queue, on the node dashboard and on the node internals dashboard's C-Chain row. Empty on a Coreth C-Chain.
import type * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import { durationWords } from '../duration.js';
import { range, steps, type DashboardContext } from './kit.js';
import { series, type Size } from './panels.js';

/** Accepted (consensus), executed (`latest`, eth_blockNumber) and settled (`safe`/`finalized`) C-Chain heights. */
export function cchainHeights({ q }: DashboardContext, size: Size): timeseries.PanelBuilder {
  return series(
    size,
    'C-Chain heights: accepted, executed, settled',
    'Under SAE (avalanchego v1.15.0+ after Helicon) a C-Chain block is accepted by consensus, then executed, then settled once a later block commits its state root. eth_blockNumber and the `latest` block are the executed height (avax_chain_height{chain="C"}); `safe` and `finalized` the settled one. Empty on a Coreth C-Chain, where the three are one.',
    range(q.sel('avax_node_last_accepted_height', 'chain="C"'), '{{target}} accepted'),
    range(q.sel('avax_node_cchain_last_executed_height'), '{{target}} executed'),
    range(q.sel('avax_node_cchain_last_settled_height'), '{{target}} settled'),
  ).unit('none');
}

/** Accepted blocks waiting for execution: the lag of the two heights, and the node's own queue (blocks). */
export function cchainExecutionQueue({ q, t }: DashboardContext, size: Size): timeseries.PanelBuilder {
  return series(
    size,
    'C-Chain execution queue',
    `Under SAE: accepted C-Chain blocks not yet executed, as accepted minus executed height (avax_cchain_execution_lag_blocks) and as the node's execution queue counts them (the block executing included). A healthy node: 0 or 1. Above ${t.cchainExecutionLagBlocks} and not shrinking for ${durationWords(t.cchainExecutionWindow)}: AvalancheCChainExecutionLagging; no block executed in ${durationWords(t.cchainExecutionWindow)} while blocks are accepted: AvalancheCChainExecutionStuck.`,
    range(q.sel('avax_cchain_execution_lag_blocks'), '{{target}} accepted - executed'),
    range(q.sel('avax_node_cchain_execution_queue_blocks'), '{{target}} queue (node)'),
  )
    .unit('none')
    .min(0)
    .thresholds(steps(['green', null], ['orange', t.cchainExecutionLagBlocks + 1]));
}
