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
import { c, names, type ThresholdDoc } from './threshold-doc.js';
import { NODE_INTERNALS_THRESHOLD_DOCS } from './threshold-docs-node-internals.js';

export type { ThresholdDoc };

/** Every threshold's doc: the node-internals group's in threshold-docs-node-internals.ts, the others here. */
export const THRESHOLD_DOCS: { readonly [K in keyof Thresholds]: ThresholdDoc } = {
  ...NODE_INTERNALS_THRESHOLD_DOCS,
  peersLow: {
    alerts: 'AvalanchePeersLow',
    expression: (t) => `${c(`avax_peers < ${t.peersLow}`)} for 10m (or the lower bound of ${c('peersLowShare')})`,
    why: () => 'mainnet nodes normally see 1.5k–2.5k peers. Raise it on mainnet (e.g. 500); a network of few validators needs no change (`peersLowShare`).',
    example: 'AvalanchePeersLow: fewer peers than this for 10m (mainnet: 1.5k-2.5k peers; e.g. 500)',
  },
  peersLowShare: {
    alerts: 'AvalanchePeersLow',
    expression: (t) => `${c(`avax_peers < ${t.peersLowShare} * (avax_subnet_validators{subnet="<primary>"} - 1)`)} where that is below ${c('peersLow')}`,
    why: () => 'a node connects to every validator: on a network of few validators (a local, test or five-node network) the fixed bound means nothing. Half the others is a node cut off from the rest; a five-validator network pages below 2 peers.',
    example: 'AvalanchePeersLow on a network of few validators: this share of the other validators',
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
    expression: (t) => `${c(`last_over_time(avax_peers_newer_version_ratio[5m]) > ${num(t.newerVersionRatio)}`)} for ${c(promDuration(t.versionBehindFor))}`,
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
  ipChangeWindow: {
    alerts: 'AvalancheValidatorIpChanged (warning)',
    expression: (t) => `more than one ${c('ip')} of ${c('avax_node_info')} in ${c(`max_over_time(...[${promDuration(t.ipChangeWindow)}])`)} for a node whose own ID is an active primary-network validator`,
    why: () =>
      `how long after a change the alert keeps firing; from Prometheus' history, so an exporter restart loses nothing. The ${c('node-ip')} collector refreshes the address every ${durationWords(COLLECTOR_INTERVALS.get('node-ip') ?? 0)}.`,
    example: 'AvalancheValidatorIpChanged: more than one advertised IP within this',
  },
  verboseLogFor: {
    alerts: 'AvalancheNodeLogLevelVerbose (info)',
    expression: (t) => `${c('last_over_time(avax_node_log_level{level=~"DEBUG\\|VERBO"}[5m]) == 1')} for ${c(promDuration(t.verboseLogFor))}`,
    why: () => `a short debugging session is fine; days of debug logs fill the disk. Needs ${c('--collector.admin-logger')} and the node's Admin API.`,
    example: 'AvalancheNodeLogLevelVerbose: a logger at DEBUG/VERBO for this long',
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
