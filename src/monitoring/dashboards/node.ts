// Avalanche / Node (uid avax-node): health checks, bootstrap, chain heights, index lag, peers,
// network upgrades and the exporter's own collectors, per target.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as common from '@grafana/grafana-foundation-sdk/common';
import { durationWords, percent } from '../duration.js';
import {
  avalancheDashboard,
  dashboardLink,
  mergeColumns,
  ofMetric,
  prop,
  range,
  redGreen,
  refs,
  row,
  stateTimelinePanel,
  steps,
  tablePanel,
  tableQuery,
  timeseriesPanel,
  valueText,
  type DashboardContext,
} from './kit.js';
import { withIdentityPanels } from './l1-chains-panels.js';

export function nodeDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const okFailing = () => valueText([0, 'FAILING', 'red'], [1, 'OK', 'green']);
  // Issue 14 panels (l1-chains-panels.ts) after the others.
  return withIdentityPanels(
    avalancheDashboard(
      {
        uid: 'avax-node',
        title: 'Avalanche / Node',
        description: "Per-node detail: health checks, bootstrap, chain heights, index lag, peers and the exporter's own collectors.",
      },
      ctx,
    )
      .link(dashboardLink('Node internals', 'avax-node-internals', "Consensus, network, database, C-Chain and process from the node's own /ext/metrics"))
      // ------------------------------------------------------------ Health and bootstrap
      .withRow(row('Health and bootstrap'))
      .withPanel(
        stateTimelinePanel('Health checks')
          .height(10)
          .span(24)
          .description(
            'avax_health_check_healthy by check, from /ext/health. A check the node has not run yet (for about 30 s after a restart) shows PENDING (avax_health_check_pending), never FAILING.',
          )
          // A pending check has no _healthy series; `pending + 1 == 2` shows it as the value 2 (PENDING).
          .withTarget(range(`${q.sel('avax_health_check_healthy')} or (${q.sel('avax_health_check_pending')} + 1 == 2)`, '{{target}} {{check}}').refId('A'))
          .mappings(valueText([0, 'FAILING', 'red'], [1, 'OK', 'green'], [2, 'PENDING (not yet run)', 'text']))
          .thresholds(redGreen()),
      )
      .withPanel(
        stateTimelinePanel('Healthy / ready / live')
          .height(7)
          .span(12)
          .targets(
            refs(
              range(q.sel('avax_node_healthy'), '{{target}} healthy'),
              range(q.sel('avax_node_ready'), '{{target}} ready'),
              range(q.sel('avax_node_live'), '{{target}} live'),
            ),
          )
          .mappings(okFailing())
          .thresholds(redGreen()),
      )
      .withPanel(
        ofMetric(stateTimelinePanel('Bootstrapped chains'), 'avax_chain_bootstrapped')
          .height(7)
          .span(12)
          .withTarget(range(q.sel('avax_chain_bootstrapped'), '{{target}} {{chain}}').refId('A'))
          .mappings(valueText([0, 'BOOTSTRAPPING', 'red'], [1, 'bootstrapped', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Chains and index
      .withRow(row('Chains and index'))
      .withPanel(
        timeseriesPanel('Block rate')
          .height(8)
          .span(12)
          .description('Blocks per second, from the per-chain height.')
          .withTarget(range(`rate(${q.sel('avax_chain_height')}[$__rate_interval])`, '{{target}} {{chain}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Chain height'), 'avax_chain_height')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_chain_height'), '{{target}} {{chain}}').refId('A'))
          .unit('none')
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        timeseriesPanel('Index lag')
          .height(8)
          .span(12)
          .description('Age of the last container accepted into each block index (only with --index-enabled). X/tx and X/vtx are not shown: they stopped growing in 2023.')
          .withTarget(range(`time() - ${q.sel('avax_index_last_accepted_timestamp_seconds', 'kind="block"')}`, '{{target}} {{chain}}/{{kind}}').refId('A'))
          .unit('s')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        timeseriesPanel('P-Chain time lag')
          .height(8)
          .span(12)
          .description('Wall clock minus platform.getTimestamp.')
          .withTarget(range(`time() - ${q.sel('avax_pchain_timestamp_seconds')}`, '{{target}}').refId('A'))
          .unit('s')
          .thresholds(steps(['green', null])),
      )
      // ------------------------------------------------------------ Peers
      .withRow(row('Peers'))
      .withPanel(
        timeseriesPanel('Peers')
          .height(8)
          .span(8)
          .targets(refs(range(q.sel('avax_peers'), '{{target}} peers'), range(q.sel('avax_peers_silent'), '{{target}} silent')))
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Peers by version'), 'avax_peers_by_version')
          .height(8)
          .span(8)
          .withTarget(range(`sum by (target, version) (${q.sel('avax_peers_by_version')})`, '{{target}} {{version}}').refId('A'))
          .stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal).group('A'))
          .fillOpacity(30)
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Benched peers'), 'avax_peers_benched')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_peers_benched'), '{{target}} {{chain}}').refId('A'))
          .min(0)
          .thresholds(steps(['green', null])),
      )
      // ------------------------------------------------------------ Network upgrades and versions
      .withRow(row('Network upgrades and versions'))
      .withPanel(
        tablePanel('Scheduled network upgrades', 'activates in')
          .height(8)
          .span(12)
          .description(
            `Network upgrades in info.upgrades that are scheduled and still ahead. Unscheduled ones (year 9999 on the wire, +Inf here) and past ones are hidden, so the table is empty most of the time. AvalancheNetworkUpgradeNodeOutdated fires when one is less than ${durationWords(t.upgradeWindow)} away and most peers run a newer version.`,
          )
          .targets(
            refs(
              tableQuery(`max by (target, upgrade) (${q.sel('avax_network_upgrade_timestamp_seconds')}) - time() > 0 < Inf`),
              tableQuery(`(max by (target, upgrade) (${q.sel('avax_network_upgrade_timestamp_seconds')}) > time() < Inf) * 1000`),
            ),
          )
          .thresholds(steps(['green', null]))
          .overrideByName('activates in', [
            prop.cellBackground(),
            prop.thresholds(steps(['red', null], ['orange', 86400], ['yellow', t.upgradeWindow], ['green', 30 * 86400])),
            prop.unit('dtdurations'),
          ])
          .overrideByName('activation time', [prop.unit('dateTimeAsIso')])
          .transformations(
            mergeColumns({
              hide: ['Time'],
              order: ['target', 'upgrade', 'Value #A', 'Value #B'],
              rename: { 'Value #A': 'activates in', 'Value #B': 'activation time' },
            }),
          ),
      )
      .withPanel(
        timeseriesPanel('Peers on a newer version')
          .height(8)
          .span(12)
          .description(
            `Share of peers (with a parseable version) that run a newer avalanchego than this node, by semantic version. Above ${percent(t.newerVersionRatio)} % for ${durationWords(t.versionBehindFor, { article: true })}: AvalancheNodeVersionBehindPeers; with an upgrade less than ${durationWords(t.upgradeWindow)} away: AvalancheNetworkUpgradeNodeOutdated.`,
          )
          .withTarget(range(q.sel('avax_peers_newer_version_ratio'), '{{target}}').refId('A'))
          .unit('percentunit')
          .thresholds(steps(['green', null], ['red', t.newerVersionRatio]))
          .min(0)
          .max(1)
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Line)),
      )
      .withPanel(
        stateTimelinePanel('Future upgrade check')
          .height(5)
          .span(24)
          .description(
            "The node's futureupgrade health check (avalanchego v1.14.1+): fails when most of the stake announces an upgrade time this version does not know (AvalancheFutureUpgradeUnknown). No data on nodes before v1.14.1 (v1.13.x has no such check): that is neither healthy nor failing.",
          )
          .withTarget(range(q.sel('avax_health_check_healthy', 'check="futureupgrade"'), '{{target}}').refId('A'))
          .mappings(valueText([0, 'UNKNOWN UPGRADE', 'red'], [1, 'ok', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Exporter
      .withRow(row('Exporter'))
      .withPanel(
        ofMetric(stateTimelinePanel('Collector success'), 'avax_collector_success')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_collector_success'), '{{target}} {{collector}}').refId('A'))
          .mappings(okFailing())
          .thresholds(redGreen()),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Collector duration'), 'avax_collector_duration_seconds')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_collector_duration_seconds'), '{{target}} {{collector}}').refId('A'))
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        timeseriesPanel('RPC requests by result')
          .height(8)
          .span(8)
          .description(
            'Requests to the node per second by result. normal_state is not an error: an answer the collector treats as a normal state of the node (index disabled or empty, not a validator, a method an older node lacks).',
          )
          .withTarget(range(`sum by (target, result) (rate(${q.sel('avax_rpc_requests_total')}[$__rate_interval]))`, '{{target}} {{result}}').refId('A'))
          .unit('reqps')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        timeseriesPanel('RPC latency p95 by method')
          .height(8)
          .span(8)
          .withTarget(
            range(`histogram_quantile(0.95, sum by (target, method, le) (rate(${q.sel('avax_rpc_request_duration_seconds_bucket')}[$__rate_interval])))`, '{{target}} {{method}}').refId('A'),
          )
          .unit('s')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        timeseriesPanel('Data age by collector')
          .height(8)
          .span(8)
          .description('Seconds since each collector last succeeded (AvalancheExporterDataStale fires above 3 intervals).')
          .withTarget(range(`time() - ${q.sel('avax_collector_last_success_timestamp_seconds')}`, '{{target}} {{collector}}').refId('A'))
          .unit('s')
          .min(0)
          .thresholds(steps(['green', null])),
      ),
    ctx,
  );
}
