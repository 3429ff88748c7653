// Avalanche / Overview (uid avax-overview): the fleet at a glance, one table row per target.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { PRIMARY_NETWORK } from '../rules/types.js';
import { avalancheDashboard, prop, range, redGreen, steps, valueText, type DashboardContext } from './kit.js';
import { columnsTable, metricSeries, metricTimeline, series, statOf, type Size } from './panels.js';

export function overviewDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const P = `subnet="${PRIMARY_NETWORK}"`;
  // Colours shared by the stats and the table: red below the alert thresholds.
  const peerSteps = () => steps(['red', null], ['orange', t.peersLow], ['green', Math.max(100, 2 * t.peersLow)]);
  const uptimeSteps = () => steps(['red', null], ['orange', 0.8], ['green', 0.9]);
  const endSteps = () => steps(['red', null], ['orange', t.validationEndingCritical], ['yellow', t.validationEndingWarning], ['green', t.validationEndingInfo]);
  const small: Size = [4, 3];
  const countStat = (title: string, expr: string, color: string) => statOf(small, title, expr).thresholds(steps(['green', null], [color, 1]));
  /** A 0/1 column: coloured, with the texts of the 0 and 1 values. */
  const state = (no: string, yes: string) => [prop.cellBackground(), prop.mappings(valueText([0, no, 'red'], [1, yes, 'green'])), prop.thresholds(redGreen())];
  const acpShare = (w: string) =>
    `max by (target, acp) (${q.sel(`avax_acp_${w}_weight`)} / (${q.sel('avax_acp_support_weight')} + ${q.sel('avax_acp_object_weight')} + ${q.sel('avax_acp_abstain_weight')}) and on(target, acp) (${q.sel('avax_acp_activated')} == 0))`;
  const connected = (agg: string) => `${agg} by (subnet, node_id) (max by (target, subnet, node_id) (${q.sel('avax_validator_connected')} unless on(target, node_id) ${q.sel('avax_node_info')}))`;

  return avalancheDashboard(
    { uid: 'avax-overview', title: 'Avalanche / Overview', description: 'Fleet overview of the Avalanche nodes watched by avalanche-exporter: one row per target.' },
    ctx,
  )
    .withPanel(statOf(small, 'Targets up', `sum(${q.sel('avax_up')})`).thresholds(steps(['blue', null])))
    .withPanel(countStat('Targets down', `sum(1 - ${q.sel('avax_up')})`, 'red'))
    .withPanel(countStat('Unhealthy nodes', `sum(1 - ${q.sel('avax_node_healthy')})`, 'red'))
    .withPanel(countStat('Chains not bootstrapped', `sum(1 - ${q.sel('avax_chain_bootstrapped')})`, 'red'))
    .withPanel(statOf(small, 'Fewest peers', `min(${q.sel('avax_peers')})`).thresholds(peerSteps()))
    .withPanel(statOf(small, 'Lowest uptime', `min(${q.sel('avax_uptime_weighted_average_ratio')})`).unit('percentunit').thresholds(uptimeSteps()))
    .withPanel(statOf(small, 'Soonest validation end', `min(${q.sel('avax_validator_end_timestamp_seconds', P)} - time())`).unit('dtdurations').thresholds(endSteps()))
    .withPanel(countStat('Failing collectors', `sum(1 - ${q.sel('avax_collector_success')})`, 'orange'))
    // Targets whose cycles outlast the interval: the exporter collects them less often than configured.
    .withPanel(countStat('Targets falling behind', `sum(increase(${q.sel('avax_collection_skipped_ticks_total')}[15m]) > bool 0)`, 'orange'))
    .withPanel(
      columnsTable([12, 24], 'Targets', {
        sortBy: 'target',
        description: 'One row per target. Index lag is the age of the newest block in the P/C/X block indexes (empty without --index-enabled); validation end is for the primary network.',
        labels: ['target', 'version'],
        columns: [
          { hidden: `max by (target, version) (${q.sel('avax_node_info')})` },
          { name: 'up', query: `max by (target) (${q.sel('avax_up')})`, props: state('DOWN', 'up') },
          { name: 'healthy', query: `max by (target) (${q.sel('avax_node_healthy')})`, props: state('UNHEALTHY', 'healthy') },
          { name: 'bootstrapped', query: `min by (target) (${q.sel('avax_chain_bootstrapped')})`, props: state('NO', 'yes') },
          { name: 'peers', query: `max by (target) (${q.sel('avax_peers')})`, props: [prop.cellBackground(), prop.thresholds(peerSteps())] },
          { name: 'uptime', query: `max by (target) (${q.sel('avax_uptime_weighted_average_ratio')})`, props: [prop.cellBackground(), prop.thresholds(uptimeSteps()), prop.unit('percentunit')] },
          { name: 'validation ends in', query: `min by (target) (${q.sel('avax_validator_end_timestamp_seconds', P)}) - time()`, props: [prop.cellBackground(), prop.thresholds(endSteps()), prop.unit('dtdurations')] },
          {
            name: 'index lag',
            query: `max by (target) (time() - ${q.sel('avax_index_last_accepted_timestamp_seconds', 'kind="block"', 'chain=~"P|C|X"')})`,
            props: [prop.cellBackground(), prop.thresholds(steps(['green', null], ['orange', 300], ['red', 900])), prop.unit('s')],
          },
          { name: 'failing collectors', query: `sum by (target) (1 - ${q.sel('avax_collector_success')})`, props: [prop.cellBackground(), prop.thresholds(steps(['green', null], ['orange', 1]))] },
        ],
      }),
    )
    .withPanel(metricTimeline([8, 12], 'Node health over time', q, 'avax_node_healthy', '{{target}}', valueText([0, 'UNHEALTHY', 'red'], [1, 'healthy', 'green'])))
    .withPanel(metricSeries([8, 12], 'Peers', q, 'avax_peers', '{{target}}').min(0))
    .withPanel(
      columnsTable([8, 12], 'Open ACP proposals', {
        sortBy: 'acp',
        description: `info.acps: open Avalanche Community Proposals with the share of the weight that supports, objects or abstains (green: majority support, AvalancheACPMajoritySupport). The node's own vote is known only when another target of the exporter has it as a peer. Empty when no ACP is open (mainnet v1.14.2). Only ACPs known to be open (avax_acp_activated 0): those of an upgrade that has already activated (v1.13.x still lists ACP-176 after Fortuna, v1.15.0 the six Helicon ACPs; avax_acp_activated 1) are no open vote, and those the exporter cannot judge (avax_acp_table_outdated 1: the node has activated an upgrade the exporter does not know) are left out too.`,
        labels: ['target', 'acp'],
        columns: [
          { name: 'support', query: acpShare('support'), props: [prop.cellBackground(), prop.thresholds(steps(['blue', null], ['green', t.acpMajority])), prop.unit('percentunit')] },
          { name: 'object', query: acpShare('object'), props: [prop.unit('percentunit')] },
          { name: 'abstain', query: acpShare('abstain'), props: [prop.unit('percentunit')] },
          { hidden: `max by (target, acp, vote) (${q.sel('avax_acp_node_vote')} == 1)` },
        ],
        after: ['vote'],
        rename: { vote: "this node's vote" },
      }),
    )
    .withPanel(
      columnsTable([8, 12], 'Vantage connectivity', {
        sortBy: 'targets that see it connected',
        description: `For each watched validator, how many of the selected targets see it connected (a node's view of its own ID is left out: it always counts itself connected). Red below ${t.vantages}, the vantage threshold of AvalancheValidatorFewVantagesConnected. Needs several targets watching the same node IDs.`,
        labels: ['node_id', 'subnet'],
        columns: [
          { name: 'targets that see it connected', query: connected('sum'), props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', t.vantages]))] },
          { name: 'targets that watch it', query: connected('count') },
        ],
      }),
    )
    .withPanel(
      series(
        [8, 24],
        'Blocks behind the reference',
        `Highest height of the reference target(s) minus this node's height, per chain (AvalancheNodeBehindReference: C above ${t.referenceBehindBlocksC}, P and X above ${t.referenceBehindBlocksPX}). Only with a target marked reference: true.`,
        range(q.sel('avax_chain_height_behind_reference'), '{{target}} {{chain}}'),
      )
        .unit('short')
        .thresholds(steps(['green', null], ['orange', t.referenceBehindBlocksPX], ['red', t.referenceBehindBlocksC])),
    )
    .withPanel(
      series(
        [8, 12],
        'Network staking ratio',
        "Primary-network total stake (platform.getTotalStake, delegations included) over the current supply (platform.getCurrentSupply, an upper bound: burnt fees are not subtracted), as each target's node reports them.",
        range(`${q.sel('avax_network_total_stake_avax')} / on(target) ${q.sel('avax_network_supply_avax')}`, '{{target}}'),
      )
        .unit('percentunit')
        .thresholds(steps(['green', null]))
        .min(0),
    )
    .withPanel(metricSeries([8, 12], 'P-Chain gas price', q, 'avax_pchain_gas_price_navax', '{{target}}').thresholds(steps(['green', null])).min(0));
}
