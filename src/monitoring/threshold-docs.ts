/**
 * What alerts/README.md ("Thresholds operators tune") and examples/monitoring.yaml say about each
 * threshold. The values are never written here: every number comes from the thresholds (settings.ts,
 * the one home of each default), so `npm run monitoring` writes the table and the example from them and
 * test/monitoring/docs.test.ts fails when the committed text differs.
 */
import { SLOW_COLLECTORS, SLOW_INTERVAL_SECONDS, COLLECTOR_INTERVALS, collectorsByInterval } from './collector-facts.js';
import { durationWords, promDuration, secondsExpr } from './duration.js';
import { THRESHOLD_KEYS, thresholdText, type Thresholds } from './settings.js';
import { num } from './text.js';

export interface ThresholdDoc {
  /** The alerts it feeds (README column "alert"). */
  alerts: string;
  /** README column "expression with the default" (markdown), for these thresholds. */
  expression: (t: Thresholds) => string;
  /** README column "why / when to change" (markdown). */
  why: (t: Thresholds) => string;
  /** The comment after the key in examples/monitoring.yaml. */
  example: string;
}

/** Inline code. */
const c = (s: string): string => `\`${s}\``;
const names = (list: readonly string[]): string => list.map(c).join(', ').replace(/, ([^,]*)$/, ' and $1');

export const THRESHOLD_DOCS: { readonly [K in keyof Thresholds]: ThresholdDoc } = {
  peersLow: {
    alerts: 'AvalanchePeersLow',
    expression: (t) => `${c(`avax_peers < ${t.peersLow}`)} for 10m`,
    why: () => 'mainnet nodes normally see 1.5k–2.5k peers; Fuji and local networks far fewer. Raise it on mainnet (e.g. 500), lower it on small test networks.',
    example: 'AvalanchePeersLow: fewer peers than this for 10m (mainnet: 1.5k-2.5k peers; e.g. 500)',
  },
  chainStallWindow: {
    alerts: 'AvalancheChainHeightStalled',
    expression: (t) => `${c(`delta(avax_chain_height{chain="C"}[${promDuration(t.chainStallWindow)}]) <= 0`)} for 5m`,
    why: () => 'the C-Chain builds a block every few seconds; only C is watched because P-Chain blocks are irregular.',
    example: 'AvalancheChainHeightStalled: no new C-Chain block in this window',
  },
  indexStallWindow: {
    alerts: 'AvalancheIndexStalled',
    expression: (t) => `${c(`changes(...[${promDuration(t.indexStallWindow)}]) == 0`)} while the height grew over ${promDuration(t.indexStallWindow)}, for 5m`,
    why: () => `lengthen on chains with sparse blocks. Only ${c('kind="block"')} of P, C, X; X/tx and X/vtx are never alerted on.`,
    example: 'AvalancheIndexStalled: index unchanged in this window while the chain grew',
  },
  indexUnavailableLookback: {
    alerts: 'AvalancheIndexUnavailable',
    expression: (t) => `the index was 1 within ${c(`[${promDuration(t.indexUnavailableLookback)}]`)}, 0 for 10m`,
    why: () => 'a longer look-back remembers indexes across longer outages.',
    example: 'AvalancheIndexUnavailable: only for an index that answered within this',
  },
  uptimeRequirementFallback: {
    alerts: 'AvalancheUptimeBelowRequirement, AvalancheUptimeAtRisk',
    expression: (t) => `the requirement (${c(`< ${num(t.uptimeRequirementFallback)}`)}) of targets that export no ${c('avax_validator_uptime_requirement_ratio')} for the primary network, for 15m`,
    why: () => 'otherwise the requirement comes from the validation (0.8, or 0.9 after Helicon).',
    example: 'AvalancheUptimeBelowRequirement/AtRisk when a target exports no requirement',
  },
  uptimeAtRiskMargin: {
    alerts: 'AvalancheUptimeAtRisk',
    expression: (t) => `uptime below the requirement ${c(`+ ${num(t.uptimeAtRiskMargin)}`)} (fallback ${c(num(t.uptimeRequirementFallback + t.uptimeAtRiskMargin))}), for 15m`,
    why: () => 'widen it for earlier warnings.',
    example: 'AvalancheUptimeAtRisk: uptime less than this above the requirement',
  },
  rewardingStakeLow: {
    alerts: 'AvalancheRewardingStakeLow',
    expression: (t) => `${c(`avax_uptime_rewarding_stake_ratio < ${num(t.rewardingStakeLow)}`)} for 15m`,
    why: () => `a share falling shows peers losing sight of the node; it is counted at ${c('avax_uptime_rewarding_stake_requirement_ratio')}, which can be below the validation's requirement (then a full share proves nothing).`,
    example: 'AvalancheRewardingStakeLow: less of the stake than this rewards the node',
  },
  uptimeBudgetFastBurn: {
    alerts: 'AvalancheUptimeBudgetBurn',
    expression: (t) =>
      `share of the validation's (or cycle's) downtime budget, (1 − requirement) × duration, spent in ${c(promDuration(t.uptimeBudgetFastWindow))} ${c(`>= ${num(t.uptimeBudgetFastBurn)}`)}, and at that pace in ${c(promDuration(t.uptimeBudgetFastShortWindow))}, for 2m (fast burn)`,
    why: () => 'the SRE workbook\'s fast burn (2 % of the budget in an hour). Downtime = the exporter could not reach the node. Raise it to page later in short (48-hour) cycles.',
    example: 'AvalancheUptimeBudgetBurn (fast): share of the downtime budget spent in uptimeBudgetFastWindow',
  },
  // AvalancheUptimeBudgetBurn's windows: one line each.
  uptimeBudgetFastWindow: { alerts: 'AvalancheUptimeBudgetBurn', expression: (t) => `fast long window ${c(promDuration(t.uptimeBudgetFastWindow))}`, why: () => `below ${c('uptimeBudgetSlowWindow')}.`, example: 'AvalancheUptimeBudgetBurn (fast): long window', },
  uptimeBudgetFastShortWindow: { alerts: 'AvalancheUptimeBudgetBurn', expression: (t) => `fast short window ${c(promDuration(t.uptimeBudgetFastShortWindow))}`, why: () => `below ${c('uptimeBudgetFastWindow')} (a twelfth of it in the workbook): the alert resolves soon after the node is back.`, example: 'AvalancheUptimeBudgetBurn (fast): short window', },
  uptimeBudgetSlowBurn: {
    alerts: 'AvalancheUptimeBudgetBurn',
    expression: (t) =>
      `share of the downtime budget spent in ${c(promDuration(t.uptimeBudgetSlowWindow))} ${c(`>= ${num(t.uptimeBudgetSlowBurn)}`)}, and at that pace in ${c(promDuration(t.uptimeBudgetSlowShortWindow))}, for 2m (slow burn)`,
    why: () => 'the SRE workbook\'s slow burn (5 % in 6 hours): catches a node that keeps restarting.',
    example: 'AvalancheUptimeBudgetBurn (slow): share of the downtime budget spent in uptimeBudgetSlowWindow',
  },
  uptimeBudgetSlowWindow: { alerts: 'AvalancheUptimeBudgetBurn', expression: (t) => `slow long window ${c(promDuration(t.uptimeBudgetSlowWindow))}; also how long the burn keeps the validation's last values while the node is down`, why: () => `above ${c('uptimeBudgetFastWindow')}.`, example: 'AvalancheUptimeBudgetBurn (slow): long window', },
  uptimeBudgetSlowShortWindow: { alerts: 'AvalancheUptimeBudgetBurn', expression: (t) => `slow short window ${c(promDuration(t.uptimeBudgetSlowShortWindow))}`, why: () => `below ${c('uptimeBudgetSlowWindow')}.`, example: 'AvalancheUptimeBudgetBurn (slow): short window', },
  validationEndingInfo: {
    alerts: 'AvalancheValidationEndingSoon (info)',
    expression: (t) => `${c(`avax_validator_end_timestamp_seconds - time() < ${secondsExpr(t.validationEndingInfo)}`)} for 10m`,
    why: () => `every watched node ID on every subnet with an ${c('endTime')} (L1 validators have none). Lower tiers keep firing with the higher ones; inhibit them (see below).`,
    example: 'AvalancheValidationEndingSoon info',
  },
  validationEndingWarning: {
    alerts: 'AvalancheValidationEndingSoon (warning)',
    expression: (t) => `${c(`... < ${secondsExpr(t.validationEndingWarning)}`)} for 10m`,
    why: () => `below ${c('validationEndingInfo')}.`,
    example: 'AvalancheValidationEndingSoon warning',
  },
  validationEndingCritical: {
    alerts: 'AvalancheValidationEndingSoon (critical)',
    expression: (t) => `${c(`... < ${secondsExpr(t.validationEndingCritical)}`)} for 10m`,
    why: () => `below ${c('validationEndingWarning')}.`,
    example: 'AvalancheValidationEndingSoon critical',
  },
  delegationCapacityLowAvax: {
    alerts: 'AvalancheDelegationCapacityFull (info)',
    expression: (t) => `${c(`avax_validator_delegation_capacity_avax ${t.delegationCapacityLowAvax === 0 ? '== 0' : `< ${num(t.delegationCapacityLowAvax)}`}`)} for 15m`,
    why: () => `e.g. ${c('10000')} (${c('< 10000')}) to hear about it before it is full.`,
    example: 'AvalancheDelegationCapacityFull: capacity left below this (0: only when full)',
  },
  l1RunwayWarning: {
    alerts: 'AvalancheL1ValidatorBalanceLow (warning)',
    expression: (t) => `${c(`avax_l1_validator_balance_runway_seconds < ${secondsExpr(t.l1RunwayWarning)} > 0`)} for 10m`,
    why: () => `runway = balance / current fee price; raise it if top-ups take you longer than a week to organise. A runway of 0 is AvalancheL1ValidatorInactive (critical, balance ${c('== 0')} for 5m).`,
    example: 'AvalancheL1ValidatorBalanceLow warning',
  },
  l1RunwayCritical: {
    alerts: 'AvalancheL1ValidatorBalanceLow (critical)',
    expression: (t) => `${c(`... < ${secondsExpr(t.l1RunwayCritical)} > 0`)} for 10m`,
    why: () => `below ${c('l1RunwayWarning')}.`,
    example: 'AvalancheL1ValidatorBalanceLow critical',
  },
  l1WeightAtRiskWarning: {
    alerts: 'AvalancheL1WeightAtRisk (warning)',
    expression: (t) => `${c(`avax_l1_weight_at_risk_ratio >= ${num(t.l1WeightAtRiskWarning)}`)} for 10m`,
    why: () => 'share of the L1 weight whose balance lasts under 7 days (inactive validators included); time to reach the other operators before the third that halts the L1.',
    example: 'AvalancheL1WeightAtRisk warning: share of the L1 weight running out of balance within 7 days',
  },
  l1WeightAtRiskCritical: {
    alerts: 'AvalancheL1WeightAtRisk (critical)',
    expression: (t) => `${c(`... >= ${num(t.l1WeightAtRiskCritical)}`)} for 10m`,
    why: () => `just under a third: once a third of the weight is out of balance the L1 halts and stays halted after a top-up (builders-hub#4132). Above ${c('l1WeightAtRiskWarning')}.`,
    example: 'AvalancheL1WeightAtRisk critical: before the third that halts the L1',
  },
  rewardMissedWindow: {
    alerts: 'AvalancheValidationEndedWithoutReward (critical)',
    expression: (t) =>
      `${c('avax_validator_last_reward_avax == 0')} with a potential reward ${c('> 0')}, while ${c(`time() - avax_validator_last_reward_timestamp_seconds < ${secondsExpr(t.rewardMissedWindow)}`)}`,
    why: () => "how long the alert keeps firing after the validation's (or auto-renewed cycle's) end (the outcome is final: nothing resolves it but time).",
    example: "AvalancheValidationEndedWithoutReward: keeps firing this long after the validation's end",
  },
  upgradeWindow: {
    alerts: 'AvalancheNetworkUpgradeNodeOutdated',
    expression: (t) => `an upgrade in ${c(`(now, now + ${secondsExpr(t.upgradeWindow)})`)} and ${c(`avax_peers_newer_version_ratio > ${num(t.newerVersionRatio)}`)}, for 10m`,
    why: () => `unscheduled upgrades are ${c('+Inf')} and past ones negative, so neither matches. Lengthen it if your change process is slow.`,
    example: 'AvalancheNetworkUpgradeNodeOutdated: an upgrade closer than this',
  },
  newerVersionRatio: {
    alerts: 'AvalancheNetworkUpgradeNodeOutdated, AvalancheNodeVersionBehindPeers',
    expression: (t) => c(`avax_peers_newer_version_ratio > ${num(t.newerVersionRatio)}`),
    why: () => 'the share of the peers (with a parseable version) on a newer avalanchego.',
    example: 'AvalancheNetworkUpgradeNodeOutdated, AvalancheNodeVersionBehindPeers: share of peers on a newer version',
  },
  versionBehindFor: {
    alerts: 'AvalancheNodeVersionBehindPeers',
    expression: (t) => `${c(`avax_peers_newer_version_ratio > ${num(t.newerVersionRatio)}`)} for ${c(promDuration(t.versionBehindFor))}`,
    why: () => `a release takes days to roll out. Prometheus keeps a pending ${c('for:')} over restarts only within ${c('--rules.alert.for-outage-tolerance')} (1h by default).`,
    example: 'AvalancheNodeVersionBehindPeers: for how long',
  },
  acpMajority: {
    alerts: 'AvalancheACPMajoritySupport (info)',
    expression: (t) => `${c(`support / (support + object + abstain) > ${num(t.acpMajority)}`)} for ${c('1h')}`,
    why: () => 'per open ACP in info.acps (none on mainnet v1.14.2).',
    example: 'AvalancheACPMajoritySupport: share of the weight that supports an ACP',
  },
  vantages: {
    alerts: 'AvalancheValidatorFewVantagesConnected',
    expression: (t) => `fewer than ${c(String(t.vantages))} targets see the validator connected while at least ${c(String(t.vantages))} watch it, for 10m`,
    why: () => 'see "The vantage threshold" below.',
    example: 'AvalancheValidatorFewVantagesConnected: fewer vantage targets than this see the validator',
  },
  referenceBehindBlocksC: {
    alerts: 'AvalancheNodeBehindReference',
    expression: (t) => `${c(`avax_chain_height_behind_reference{chain="C"} > ${t.referenceBehindBlocksC}`)} for 10m`,
    why: () => 'C builds a block every 1-2 s. Raise it if the reference is a load-balanced public API whose nodes differ.',
    example: 'AvalancheNodeBehindReference: C-Chain blocks behind the reference',
  },
  referenceBehindBlocksPX: {
    alerts: 'AvalancheNodeBehindReference',
    expression: (t) => `${c(`avax_chain_height_behind_reference{chain=~"P\\|X"} > ${t.referenceBehindBlocksPX}`)} for 10m`,
    why: () => 'P and X blocks are irregular, so a smaller gap held longer counts.',
    example: 'AvalancheNodeBehindReference: P- and X-Chain blocks behind the reference',
  },
  collectorFailingFor: {
    alerts: 'AvalancheCollectorFailing',
    expression: (t) => c(`for: ${promDuration(t.collectorFailingFor)}`),
    why: () => 'a collector that fails a few runs (a slow answer, a node restart) recovers by itself; lengthen it for flaky networks.',
    example: 'AvalancheCollectorFailing: for how long',
  },
  dataStaleSlowCollectors: {
    alerts: 'AvalancheExporterDataStale',
    expression: (t) => `${c(`> ${t.dataStaleSlowCollectors}`)} s since the last success of ${names(SLOW_COLLECTORS)} (every ${promDuration(SLOW_INTERVAL_SECONDS)} or less often), for 5m`,
    why: () => '3 collection intervals; raise it if you slow these schedules down.',
    example: `AvalancheExporterDataStale: ${SLOW_COLLECTORS.join(', ')}`,
  },
  dataStale: {
    alerts: 'AvalancheExporterDataStale',
    expression: (t) =>
      `${c(`> ${t.dataStale}`)} s for the others (${collectorsByInterval()
        .filter(([s]) => s < SLOW_INTERVAL_SECONDS)
        .reverse()
        .map(([s, list]) => `${list.map(c).join(', ')} every ${promDuration(s)}`)
        .join('; ')}), for 5m`,
    why: () => '3 collection intervals; raise it if you slow the schedules down.',
    example: 'AvalancheExporterDataStale: every other collector',
  },
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
    expression: (t) =>
      `an L1 chain's ${c(`changes(avax_node_last_accepted_height[${promDuration(t.l1ChainStallWindow)}]) == 0`)} while ${c(`min_over_time(avax_node_blocks_processing[${promDuration(t.l1ChainStallWindow)}]) > 0`)}, or while it was busy until then (the next two), for 5m`,
    why: () => 'no new block for this long is a stall only when blocks wait in consensus or the chain was busy until then: an idle L1 (no transaction, no block for days) never fires.',
    example: 'AvalancheL1ChainStalled: no new block on an L1 chain in this window',
  },
  l1ChainBusyPause: {
    alerts: 'AvalancheL1ChainStalled',
    expression: (t) => `busy: no pause between two blocks of ${c(`>= ${t.l1ChainBusyPause}`)} s ended within the look-back`,
    why: () => `below ${c('l1ChainStallWindow')}; raise both to watch L1s whose blocks come less often (a third of the window keeps chance gaps of a steady chain from paging).`,
    example: 'AvalancheL1ChainStalled: a busy L1 chain never paused this long',
  },
  l1ChainLookback: {
    alerts: 'AvalancheL1ChainStalled',
    expression: (t) =>
      `the pauses of ${c(`[${promDuration(t.l1ChainLookback)}:1m]`)}; the chain seen ${c(`offset ${promDuration(t.l1ChainLookback)}`)}; silent for less than ${promDuration(t.l1ChainLookback)} (then idle)`,
    why: () => 'a day holds the quiet hours of a daily cycle. A chain seen for less (a new L1, a new Prometheus) is judged only by the blocks waiting in consensus.',
    example: 'AvalancheL1ChainStalled: the history a busy L1 chain is judged on',
  },
  pollFailureRatio: {
    alerts: 'AvalanchePollFailureRatioHigh (warning)',
    expression: (t) => `${c('failed / (failed + successful)')} polls over 10m ${c(`> ${num(t.pollFailureRatio)}`)}, for 10m`,
    why: () => 'per chain; the official Builders Hub warning (a success rate below 95 %). A healthy node fails well under 1 % of its polls; each offline validator costs about its stake share.',
    example: 'AvalanchePollFailureRatioHigh warning: share of failed consensus polls over 10m (Builders Hub: 5 %)',
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
  ipChangeWindow: {
    alerts: 'AvalancheValidatorIpChanged (warning)',
    expression: (t) => `more than one ${c('ip')} of ${c('avax_node_info')} in ${c(`max_over_time(...[${promDuration(t.ipChangeWindow)}])`)} for a node whose own ID is an active primary-network validator`,
    why: () =>
      `how long after a change the alert keeps firing; from Prometheus' history, so an exporter restart loses nothing. The ${c('node-ip')} collector refreshes the address every ${durationWords(COLLECTOR_INTERVALS.get('node-ip') ?? 0)}.`,
    example: 'AvalancheValidatorIpChanged: more than one advertised IP within this',
  },
  verboseLogFor: {
    alerts: 'AvalancheNodeLogLevelVerbose (info)',
    expression: (t) => `${c('avax_node_log_level{level=~"DEBUG\\|VERBO"} == 1')} for ${c(promDuration(t.verboseLogFor))}`,
    why: () => `a short debugging session is fine; days of debug logs fill the disk. Needs ${c('--collector.admin-logger')} and the node's Admin API.`,
    example: 'AvalancheNodeLogLevelVerbose: a logger at DEBUG/VERBO for this long',
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

/** The markdown table of alerts/README.md "Thresholds operators tune" (header included). */
export function thresholdTable(t: Thresholds): string {
  const rows = THRESHOLD_KEYS.map((k) => {
    const d = THRESHOLD_DOCS[k];
    return `| ${c(k)} | ${c(thresholdText(k, t[k]))} | ${d.alerts} | ${d.expression(t)} | ${d.why(t)} |`;
  });
  return ['| setting | default | alert | expression with the default | why / when to change |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The `thresholds:` block of examples/monitoring.yaml (to the end of the file). */
export function exampleThresholds(t: Thresholds): string {
  const lines = THRESHOLD_KEYS.map((k) => {
    const kv = `  ${k}: ${thresholdText(k, t[k])}`;
    return `${kv.padEnd(Math.max(kv.length + 2, 34))}# ${THRESHOLD_DOCS[k].example}`;
  });
  return ['thresholds:', ...lines, ''].join('\n');
}

const TABLE_START = '| setting | default |';

/** alerts/README.md with its thresholds table replaced by `thresholdTable(t)`. */
export function withThresholdTable(readme: string, t: Thresholds): string {
  const start = readme.indexOf(TABLE_START);
  if (start < 0) throw new Error(`alerts/README.md: no table starting with "${TABLE_START}"`);
  const end = readme.indexOf('\n\n', start);
  return `${readme.slice(0, start)}${thresholdTable(t)}${end < 0 ? '\n' : readme.slice(end)}`;
}

/** examples/monitoring.yaml with its `thresholds:` block (the end of the file) replaced by `exampleThresholds(t)`. */
export function withExampleThresholds(yaml: string, t: Thresholds): string {
  const start = yaml.indexOf('\nthresholds:\n');
  if (start < 0) throw new Error('examples/monitoring.yaml: no top-level thresholds: block');
  return `${yaml.slice(0, start + 1)}${exampleThresholds(t)}`;
}
