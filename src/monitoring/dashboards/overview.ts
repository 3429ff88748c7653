// Avalanche / Overview (uid avax-overview): the fleet at a glance, one table row per target.
import { PRIMARY_NETWORK } from '../rules/types.js';
import {
  avalancheDashboard,
  instant,
  mergeColumns,
  ofMetric,
  prop,
  range,
  redGreen,
  refs,
  statPanel,
  stateTimelinePanel,
  steps,
  tablePanel,
  tableQuery,
  timeseriesPanel,
  valueText,
  type DashboardContext,
} from './kit.js';
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';

export function overviewDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const P = `subnet="${PRIMARY_NETWORK}"`;
  // Colours shared by the stats and the table: red below the alert thresholds.
  const peerSteps = () => steps(['red', null], ['orange', t.peersLow], ['green', Math.max(100, 2 * t.peersLow)]);
  const uptimeSteps = () => steps(['red', null], ['orange', 0.8], ['green', 0.9]);
  const endSteps = () => steps(['red', null], ['orange', t.validationEndingCritical], ['yellow', t.validationEndingWarning], ['green', t.validationEndingInfo]);
  const countStat = (title: string, expr: string, color: string) =>
    statPanel(title).height(4).span(3).withTarget(instant(expr).refId('A')).thresholds(steps(['green', null], [color, 1]));

  return avalancheDashboard(
    { uid: 'avax-overview', title: 'Avalanche / Overview', description: 'Fleet overview of the Avalanche nodes watched by avalanche-exporter: one row per target.' },
    ctx,
  )
    .withPanel(statPanel('Targets up').height(4).span(3).withTarget(instant(`sum(${q.sel('avax_up')})`).refId('A')).thresholds(steps(['blue', null])))
    .withPanel(countStat('Targets down', `sum(1 - ${q.sel('avax_up')})`, 'red'))
    .withPanel(countStat('Unhealthy nodes', `sum(1 - ${q.sel('avax_node_healthy')})`, 'red'))
    .withPanel(countStat('Chains not bootstrapped', `sum(1 - ${q.sel('avax_chain_bootstrapped')})`, 'red'))
    .withPanel(statPanel('Fewest peers').height(4).span(3).withTarget(instant(`min(${q.sel('avax_peers')})`).refId('A')).thresholds(peerSteps()))
    .withPanel(
      statPanel('Lowest uptime').height(4).span(3).withTarget(instant(`min(${q.sel('avax_uptime_weighted_average_ratio')})`).refId('A')).unit('percentunit').thresholds(uptimeSteps()),
    )
    .withPanel(
      statPanel('Soonest validation end')
        .height(4)
        .span(3)
        .withTarget(instant(`min(${q.sel('avax_validator_end_timestamp_seconds', P)} - time())`).refId('A'))
        .unit('dtdurations')
        .thresholds(endSteps()),
    )
    .withPanel(countStat('Failing collectors', `sum(1 - ${q.sel('avax_collector_success')})`, 'orange'))
    .withPanel(
      tablePanel('Targets', 'target')
        .height(12)
        .span(24)
        .description('One row per target. Index lag is the age of the newest block in the P/C/X block indexes (empty without --index-enabled); validation end is for the primary network.')
        .targets(
          refs(
            tableQuery(`max by (target, version) (${q.sel('avax_node_info')})`),
            tableQuery(`max by (target) (${q.sel('avax_up')})`),
            tableQuery(`max by (target) (${q.sel('avax_node_healthy')})`),
            tableQuery(`min by (target) (${q.sel('avax_chain_bootstrapped')})`),
            tableQuery(`max by (target) (${q.sel('avax_peers')})`),
            tableQuery(`max by (target) (${q.sel('avax_uptime_weighted_average_ratio')})`),
            tableQuery(`min by (target) (${q.sel('avax_validator_end_timestamp_seconds', P)}) - time()`),
            tableQuery(`max by (target) (time() - ${q.sel('avax_index_last_accepted_timestamp_seconds', 'kind="block"', 'chain=~"P|C|X"')})`),
            tableQuery(`sum by (target) (1 - ${q.sel('avax_collector_success')})`),
          ),
        )
        .thresholds(steps(['green', null]))
        .overrideByName('up', [prop.cellBackground(), prop.mappings(valueText([0, 'DOWN', 'red'], [1, 'up', 'green'])), prop.thresholds(redGreen())])
        .overrideByName('healthy', [prop.cellBackground(), prop.mappings(valueText([0, 'UNHEALTHY', 'red'], [1, 'healthy', 'green'])), prop.thresholds(redGreen())])
        .overrideByName('bootstrapped', [prop.cellBackground(), prop.mappings(valueText([0, 'NO', 'red'], [1, 'yes', 'green'])), prop.thresholds(redGreen())])
        .overrideByName('peers', [prop.cellBackground(), prop.thresholds(peerSteps())])
        .overrideByName('uptime', [prop.cellBackground(), prop.thresholds(uptimeSteps()), prop.unit('percentunit')])
        .overrideByName('validation ends in', [prop.cellBackground(), prop.thresholds(endSteps()), prop.unit('dtdurations')])
        .overrideByName('index lag', [prop.cellBackground(), prop.thresholds(steps(['green', null], ['orange', 300], ['red', 900])), prop.unit('s')])
        .overrideByName('failing collectors', [prop.cellBackground(), prop.thresholds(steps(['green', null], ['orange', 1]))])
        .transformations(
          mergeColumns({
            hide: ['Time', 'Value #A'],
            order: ['target', 'version', 'Value #B', 'Value #C', 'Value #D', 'Value #E', 'Value #F', 'Value #G', 'Value #H', 'Value #I'],
            rename: {
              'Value #B': 'up',
              'Value #C': 'healthy',
              'Value #D': 'bootstrapped',
              'Value #E': 'peers',
              'Value #F': 'uptime',
              'Value #G': 'validation ends in',
              'Value #H': 'index lag',
              'Value #I': 'failing collectors',
            },
          }),
        ),
    )
    .withPanel(
      ofMetric(stateTimelinePanel('Node health over time'), 'avax_node_healthy')
        .height(8)
        .span(12)
        .withTarget(range(q.sel('avax_node_healthy'), '{{target}}').refId('A'))
        .mappings(valueText([0, 'UNHEALTHY', 'red'], [1, 'healthy', 'green']))
        .thresholds(redGreen()),
    )
    .withPanel(
      ofMetric(timeseriesPanel('Peers'), 'avax_peers')
        .height(8)
        .span(12)
        .withTarget(range(q.sel('avax_peers'), '{{target}}').refId('A'))
        .min(0)
        .thresholds(steps(['green', null])),
    )
    .withPanel(
      tablePanel('Open ACP proposals', 'acp')
        .height(8)
        .span(12)
        .description(
          `info.acps: open Avalanche Community Proposals with the share of the weight that supports, objects or abstains (green: majority support, AvalancheACPMajoritySupport). The node's own vote is known only when another target of the exporter has it as a peer. Empty when no ACP is open (mainnet v1.14.2). ACPs of an upgrade that has already activated (v1.13.x still lists ACP-176 after Fortuna; avax_acp_activated 1) are left out: they are no open vote.`,
        )
        .targets(
          refs(
            ...(['support', 'object', 'abstain'] as const).map((w) =>
              tableQuery(
                `max by (target, acp) (${q.sel(`avax_acp_${w}_weight`)} / (${q.sel('avax_acp_support_weight')} + ${q.sel('avax_acp_object_weight')} + ${q.sel('avax_acp_abstain_weight')}) unless on(target, acp) ${q.sel('avax_acp_activated')} == 1)`,
              ),
            ),
            tableQuery(`max by (target, acp, vote) (${q.sel('avax_acp_node_vote')} == 1)`),
          ),
        )
        .thresholds(steps(['green', null]))
        .overrideByName('support', [prop.cellBackground(), prop.thresholds(steps(['blue', null], ['green', t.acpMajority])), prop.unit('percentunit')])
        .overrideByName('object', [prop.unit('percentunit')])
        .overrideByName('abstain', [prop.unit('percentunit')])
        .transformations(
          mergeColumns({
            hide: ['Time', 'Value #D'],
            order: ['target', 'acp', 'Value #A', 'Value #B', 'Value #C', 'vote'],
            rename: { 'Value #A': 'support', 'Value #B': 'object', 'Value #C': 'abstain', vote: "this node's vote" },
          }),
        ),
    )
    .withPanel(
      tablePanel('Vantage connectivity', 'targets that see it connected')
        .height(8)
        .span(12)
        .description(
          `For each watched validator, how many of the selected targets see it connected (a node's view of its own ID is left out: it always counts itself connected). Red below ${t.vantages}, the vantage threshold of AvalancheValidatorFewVantagesConnected. Needs several targets watching the same node IDs.`,
        )
        .targets(
          refs(
            ...(['sum', 'count'] as const).map((agg) =>
              tableQuery(`${agg} by (subnet, node_id) (max by (target, subnet, node_id) (${q.sel('avax_validator_connected')} unless on(target, node_id) ${q.sel('avax_node_info')}))`),
            ),
          ),
        )
        .thresholds(steps(['green', null]))
        .overrideByName('targets that see it connected', [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', t.vantages]))])
        .transformations(
          mergeColumns({
            hide: ['Time'],
            order: ['node_id', 'subnet', 'Value #A', 'Value #B'],
            rename: { 'Value #A': 'targets that see it connected', 'Value #B': 'targets that watch it' },
          }),
        ),
    )
    .withPanel(
      timeseriesPanel('Blocks behind the reference')
        .height(8)
        .span(24)
        .description(
          `Highest height of the reference target(s) minus this node's height, per chain (AvalancheNodeBehindReference: C above ${t.referenceBehindBlocksC}, P and X above ${t.referenceBehindBlocksPX}). Only with a target marked reference: true.`,
        )
        .withTarget(range(q.sel('avax_chain_height_behind_reference'), '{{target}} {{chain}}').refId('A'))
        .unit('short')
        .thresholds(steps(['green', null], ['orange', t.referenceBehindBlocksPX], ['red', t.referenceBehindBlocksC])),
    )
    .withPanel(
      timeseriesPanel('Network staking ratio')
        .height(8)
        .span(12)
        .description(
          'Primary-network total stake (platform.getTotalStake, delegations included) over the current supply (platform.getCurrentSupply, an upper bound: burnt fees are not subtracted), as each target\'s node reports them.',
        )
        .withTarget(range(`${q.sel('avax_network_total_stake_avax')} / on(target) ${q.sel('avax_network_supply_avax')}`, '{{target}}').refId('A'))
        .unit('percentunit')
        .thresholds(steps(['green', null]))
        .min(0),
    )
    .withPanel(
      ofMetric(timeseriesPanel('P-Chain gas price'), 'avax_pchain_gas_price_navax')
        .height(8)
        .span(12)
        .withTarget(range(q.sel('avax_pchain_gas_price_navax'), '{{target}}').refId('A'))
        .thresholds(steps(['green', null]))
        .min(0),
    );
}

