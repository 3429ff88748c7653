/**
 * The docs of the node-internals group's thresholds (alerts from the node's own /ext/metrics: consensus, L1
 * chains, handlers, database, disk, C-Chain execution), part of THRESHOLD_DOCS (threshold-docs.ts). The values
 * are never written here: every number comes from the thresholds (settings.ts).
 */
import { promDuration, secondsExpr } from './duration.js';
import type { Thresholds } from './settings.js';
import { num } from './text.js';
import { c, type ThresholdDoc } from './threshold-doc.js';

type NodeInternalsThreshold =
  | 'consensusStuckWindow'
  | 'l1ChainStallWindow'
  | 'pollFailureRatio'
  | 'pollFailureRatioCritical'
  | 'pollSampleSize'
  | 'blocksProcessingWarning'
  | 'blocksProcessingCritical'
  | 'connectedStakeLow'
  | 'badBlocks'
  | 'cchainExecutionWindow'
  | 'cchainExecutionLagBlocks'
  | 'handlerExpiredPerSecond'
  | 'benchedWeightRatio'
  | 'dbLatency'
  | 'unstakeSoon'
  | 'diskFreeWarning'
  | 'diskFreeCritical'
  | 'diskUnhealthyLevel'
  | 'diskShutdownLevel'
  | 'diskRunwayWarning'
  | 'diskRunwayCritical'
  | 'diskGrowthWindow';

export const NODE_INTERNALS_THRESHOLD_DOCS: { readonly [K in NodeInternalsThreshold]: ThresholdDoc } & Partial<Record<keyof Thresholds, ThresholdDoc>> = {
  consensusStuckWindow: {
    alerts: 'AvalancheConsensusStuck',
    expression: (t) => {
      const w = promDuration(t.consensusStuckWindow);
      return `${c('avax_node_blocks_processing')} while ${c(`increase(avax_node_blocks_accepted_total[${w}]) == 0`)} and ${c(`delta(avax_node_blocks_processing[${w}]) > 0`)} on a chain with ${c('avax_node_bootstrap_finished == 1')}, for 2m`;
    },
    why: () => 'per chain; P and X accept blocks irregularly, but a stuck chain also shows blocks piling up in processing. Lengthen it on quiet chains.',
    example: 'AvalancheConsensusStuck: no block accepted while processing grew, in this window',
  },
  l1ChainStallWindow: {
    alerts: 'AvalancheL1ChainStalled',
    expression: (t) => {
      const w = promDuration(t.l1ChainStallWindow);
      return `an L1 chain's ${c(`changes(avax_node_last_accepted_height[${w}]) == 0`)} while ${c(`min_over_time(avax_node_blocks_processing[${w}]) > 0`)}, or its health check fails (${c('avax_health_check_healthy{check="<blockchain ID>"} == 0')}), or another target saw it move in ${w}, for 5m`;
    },
    why: () =>
      "no new block for this long is a stall only when blocks wait in consensus, the node reports the chain unhealthy (a block undecided for 30 s, too little stake connected, its VM), or the chain moves elsewhere: an idle L1, however busy before, never fires. Lengthen it to page later.",
    example: 'AvalancheL1ChainStalled: no new block on an L1 chain in this window',
  },
  pollFailureRatio: {
    alerts: 'AvalanchePollFailureRatioHigh (warning)',
    expression: (t) => `${c('failed / (failed + successful)')} polls over 10m, less the stake share not connected, ${c(`> ${num(t.pollFailureRatio)}`)} (times ${c('sqrt(pollSampleSize / validators)')} on a chain of fewer validators), for 10m`,
    why: () => 'per chain; the official Builders Hub warning (a success rate below 95 %). A healthy mainnet node fails well under 1 % of its polls; each offline validator fails its stake share of them (measured: one of five, 20 %), which is left out: that validator pages as itself.',
    example: 'AvalanchePollFailureRatioHigh warning: share of failed consensus polls over 10m (Builders Hub: 5 %)',
  },
  pollSampleSize: {
    alerts: 'AvalanchePollFailureRatioHigh',
    expression: (t) => `the thresholds times ${c(`sqrt(${t.pollSampleSize} / avax_node_validators)`)} on a chain of fewer than ${t.pollSampleSize} validators`,
    why: () => "avalanchego's consensus sample size k (20 by default). With fewer validators than k each holds several of a poll's votes and a healthy network fails more polls (five validators: 2 to 4 % on an idle machine); an L1 with another k sets it here.",
    example: 'AvalanchePollFailureRatioHigh: the consensus sample size k (snowball parameters)',
  },
  pollFailureRatioCritical: {
    alerts: 'AvalanchePollFailureRatioHigh (critical)',
    expression: (t) => `${c(`... > ${num(t.pollFailureRatioCritical)}`)}, for 10m`,
    why: () => `the official Builders Hub paging level (a success rate below 90 %); above ${c('pollFailureRatio')}.`,
    example: 'AvalanchePollFailureRatioHigh critical (Builders Hub: 10 %)',
  },
  blocksProcessingWarning: {
    alerts: 'AvalancheBlocksProcessingHigh (warning)',
    expression: (t) => `${c(`avax_node_blocks_processing > ${t.blocksProcessingWarning}`)} on a bootstrapped chain, for 5m`,
    why: () => 'per chain; the official Builders Hub warning. A healthy chain has 0 to 2 blocks in consensus; a stopped chain (AvalancheConsensusStuck) crosses it too.',
    example: 'AvalancheBlocksProcessingHigh warning: blocks in consensus for 5m (Builders Hub: 6)',
  },
  blocksProcessingCritical: {
    alerts: 'AvalancheBlocksProcessingHigh (critical)',
    expression: (t) => `${c(`... > ${t.blocksProcessingCritical}`)}, for 5m`,
    why: () => `the official Builders Hub paging level; above ${c('blocksProcessingWarning')}.`,
    example: 'AvalancheBlocksProcessingHigh critical (Builders Hub: 15)',
  },
  connectedStakeLow: {
    alerts: 'AvalancheConnectedStakeLow',
    expression: (t) => `${c(`avax_subnet_connected_stake_ratio < ${num(t.connectedStakeLow)}`)} for 10m`,
    why: () => 'per subnet; the official Builders Hub paging level (80 %). Below alpha/k (75 % by default) the node stops querying and its chains stall for it.',
    example: 'AvalancheConnectedStakeLow: share of the subnet stake the node is connected to (Builders Hub: 0.8)',
  },
  badBlocks: {
    alerts: 'AvalancheBadBlocks',
    expression: (t) => `${c(`increase(avax_node_cchain_bad_blocks_total[5m]) > ${t.badBlocks}`)} for 2m`,
    why: () => 'the official Builders Hub paging level (more than 10 in 5 minutes); C-Chain only (coreth\'s counter). Lower it to 0 to page on the first bad block.',
    example: 'AvalancheBadBlocks: C-Chain blocks failing verification in 5m (Builders Hub: 10)',
  },
  cchainExecutionWindow: {
    alerts: 'AvalancheCChainExecutionStuck, AvalancheCChainExecutionLagging',
    expression: (t) => {
      const w = promDuration(t.cchainExecutionWindow);
      return `stuck: ${c(`changes(avax_node_cchain_last_executed_height[${w}]) == 0`)} while ${c(`changes(avax_node_last_accepted_height{chain="C"}[${w}]) > 0`)}, for 2m; lagging: ${c(`deriv(avax_cchain_execution_lag_blocks[${w}]) >= 0`)} while execution moves, for ${w}`;
    },
    why: () =>
      'C-Chain under SAE (v1.15.0+ after Helicon) only. node-metrics reads /ext/metrics every minute: ten reads of each height, so a slow read never makes a moving height look stuck; the same window as AvalancheConsensusStuck. To be calibrated in the backtest.',
    example: 'AvalancheCChainExecutionStuck/Lagging: the window execution is judged over',
  },
  cchainExecutionLagBlocks: {
    alerts: 'AvalancheCChainExecutionLagging',
    expression: (t) => `${c(`avax_cchain_execution_lag_blocks > ${t.cchainExecutionLagBlocks}`)} and not shrinking, on a bootstrapped C-Chain`,
    why: (t) =>
      `accepted blocks not yet executed: a healthy SAE node executes each in milliseconds (0 or 1 waiting). ${t.cchainExecutionLagBlocks} is about a minute of mainnet blocks, the same tolerance as ${c('referenceBehindBlocksC')}; its ${c('latest')} state (eth_blockNumber) is that far behind.`,
    example: 'AvalancheCChainExecutionLagging: accepted C-Chain blocks waiting for execution',
  },
  handlerExpiredPerSecond: {
    alerts: 'AvalancheHandlerMessagesExpiring',
    expression: (t) => `${c(`rate(avax_node_handler_expired_messages_total[5m]) > ${num(t.handlerExpiredPerSecond)}`)}, for 10m`,
    why: () => 'per chain; the series exists only once a message expired. Lower it to 0 to hear about any expiry.',
    example: 'AvalancheHandlerMessagesExpiring: expired inbound messages per second',
  },
  benchedWeightRatio: {
    alerts: 'AvalancheBenchedWeightHigh',
    expression: (t) => `${c(`avax_node_benched_weight / avax_node_stake_weight > ${num(t.benchedWeightRatio)}`)}, for 10m`,
    why: () => 'per chain; a few small validators are often benched, a tenth of the stake is not normal.',
    example: 'AvalancheBenchedWeightHigh: share of the stake benched',
  },
  dbLatency: {
    alerts: 'AvalancheDatabaseLatencyHigh',
    expression: (t) => `mean ${c(`rate(avax_node_db_operation_seconds_total[5m]) / rate(avax_node_db_operations_total[5m]) > ${num(t.dbLatency)}`)} s, for 15m`,
    why: () => 'per chain and op (read, write); LevelDB calls normally take microseconds.',
    example: 'AvalancheDatabaseLatencyHigh: mean database call latency, seconds',
  },
  unstakeSoon: {
    alerts: 'AvalancheNodeUnstakeSoon (critical)',
    expression: (t) => `${c(`0 < avax_node_time_until_unstake_seconds < ${secondsExpr(t.unstakeSoon)}`)} for a target whose own NodeID is an active primary validator, for 10m`,
    why: () => "the node's own view; 0 is left out (not a validator, or the P-Chain health check has not set it). AvalancheValidationEndingSoon covers the same from platform.getCurrentValidators.",
    example: "AvalancheNodeUnstakeSoon: the node's own time until it leaves the validator set",
  },
  diskFreeWarning: {
    alerts: 'AvalancheNodeDiskSpaceLow (warning)',
    expression: (t) => `${c(`avax_node_disk_available_ratio < ${num(t.diskFreeWarning)}`)} for 10m`,
    why: () => `the official Builders Hub "Key Metrics & Alerts" warning (20 %). The share exists from avalanchego v1.14.1 on; older nodes are silent here (their ${c('diskspace')} check still fails at 10 %).`,
    example: 'AvalancheNodeDiskSpaceLow warning: free share of the database volume below this',
  },
  diskFreeCritical: {
    alerts: 'AvalancheNodeDiskSpaceLow (critical)',
    expression: (t) => `${c(`avax_node_disk_available_ratio < ${num(t.diskFreeCritical)}`)} for 10m`,
    why: () => `the official Builders Hub critical (10 %), also where the node turns unhealthy; below ${c('diskFreeWarning')}.`,
    example: 'AvalancheNodeDiskSpaceLow critical',
  },
  diskUnhealthyLevel: {
    alerts: 'AvalancheNodeDiskRunwayShort (warning)',
    expression: (t) => `runway to ${c(num(t.diskUnhealthyLevel))} free: ${c(`bytes * (1 - ${num(t.diskUnhealthyLevel)} / avax_node_disk_available_ratio) / -deriv(bytes[${promDuration(t.diskGrowthWindow)}])`)}`,
    why: () => `the free share below which avalanchego reports its ${c('diskspace')} check unhealthy (10 % by default since v1.14.1); change it only if the node runs with another.`,
    example: 'AvalancheNodeDiskRunwayShort warning: the runway is to this free share (the node turns unhealthy)',
  },
  diskShutdownLevel: {
    alerts: 'AvalancheNodeDiskRunwayShort (critical)',
    expression: (t) => `runway to ${c(num(t.diskShutdownLevel))} free, as above`,
    why: () => `the free share below which avalanchego shuts itself down (3 % by default); below ${c('diskUnhealthyLevel')}.`,
    example: 'AvalancheNodeDiskRunwayShort critical: the runway is to this free share (the node stops)',
  },
  diskRunwayWarning: {
    alerts: 'AvalancheNodeDiskRunwayShort (warning)',
    expression: (t) => `runway to ${c('diskUnhealthyLevel')} ${c(`< ${secondsExpr(t.diskRunwayWarning)}`)} for 30m`,
    why: () => 'days to order a bigger volume or prune; silent while the free space does not shrink.',
    example: 'AvalancheNodeDiskRunwayShort warning: runway to the unhealthy level below this',
  },
  diskRunwayCritical: {
    alerts: 'AvalancheNodeDiskRunwayShort (critical)',
    expression: (t) => `runway to ${c('diskShutdownLevel')} ${c(`< ${secondsExpr(t.diskRunwayCritical)}`)} for 30m`,
    why: () => `below ${c('diskRunwayWarning')}.`,
    example: 'AvalancheNodeDiskRunwayShort critical: runway to the shutdown level below this',
  },
  diskGrowthWindow: {
    alerts: 'AvalancheNodeDiskRunwayShort',
    expression: (t) => `${c(`deriv(avax_node_disk_available_bytes[${promDuration(t.diskGrowthWindow)}])`)}, the slope of the free bytes`,
    why: () => 'longer: fewer pages from a short burst (a compaction, a log spike), later pages for a real change of pace.',
    example: 'AvalancheNodeDiskRunwayShort: the growth rate is the slope over this window',
  },
};
