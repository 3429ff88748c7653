// Avalanche / Node (uid avax-node): health checks, bootstrap, chain heights, index lag, peers,
// network upgrades and the exporter's own collectors, per target.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as common from '@grafana/grafana-foundation-sdk/common';
import { durationWords, percent } from '../duration.js';
import { avalancheDashboard, dashboardLink, ofMetric, prop, range, row, steps, timeseriesPanel, valueText, type DashboardContext } from './kit.js';
import { cchainExecutionQueue, cchainHeights } from './cchain-panels.js';
import { withIdentityPanels } from './l1-chains-panels.js';
import { columnsTable, metricSeries, metricTimeline, place, series, timeline } from './panels.js';

export function nodeDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const okFailing = () => valueText([0, 'FAILING', 'red'], [1, 'OK', 'green']);
  const upgradeAt = `max by (target, upgrade) (${q.sel('avax_network_upgrade_timestamp_seconds')})`;
  // Blocks a bootstrapping chain has fetched and not executed yet (the node's own counters, since its process started).
  const bootstrapLeft = `((${q.sel('avax_node_bootstrap_fetched_blocks_total')} - ${q.sel('avax_node_bootstrap_executed_blocks_total')}) and on(target, chain) (${q.sel('avax_node_bootstrap_finished')} == 0))`;
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
        // A pending check has no _healthy series; `pending + 1 == 2` shows it as the value 2 (PENDING).
        timeline(
          [10, 24],
          'Health checks',
          'avax_health_check_healthy by check, from /ext/health. A check the node has not run yet (for about 30 s after a restart) shows PENDING (avax_health_check_pending), never FAILING.',
          valueText([0, 'FAILING', 'red'], [1, 'OK', 'green'], [2, 'PENDING (not yet run)', 'text']),
          range(`${q.sel('avax_health_check_healthy')} or (${q.sel('avax_health_check_pending')} + 1 == 2)`, '{{target}} {{check}}'),
        ),
      )
      .withPanel(
        timeline(
          [7, 12],
          'Healthy / ready / live',
          undefined,
          okFailing(),
          ...(['healthy', 'ready', 'live'] as const).map((s) => range(q.sel(`avax_node_${s}`), `{{target}} ${s}`)),
        ),
      )
      .withPanel(metricTimeline([7, 12], 'Bootstrapped chains', q, 'avax_chain_bootstrapped', '{{target}} {{chain}}', valueText([0, 'BOOTSTRAPPING', 'red'], [1, 'bootstrapped', 'green'])))
      .withPanel(
        series(
          [7, 12],
          'Bootstrap: blocks fetched, not yet executed',
          "While a chain bootstraps (avax_node_bootstrap_finished 0), from the node's own /ext/metrics: blocks fetched from peers minus blocks executed since the node process started. avalanchego fetches from the network's tip back to its last accepted block first (this grows), then executes them in height order (this falls to 0). A bootstrapping node reports no height of its own; avax_chain_bootstrap_target_height is the height to reach when another target of the network has the chain (runbook, AvalancheChainNotBootstrapped).",
          range(bootstrapLeft, '{{target}} {{chain}}'),
        )
          .unit('short')
          .min(0),
      )
      .withPanel(
        series(
          [7, 12],
          'Bootstrap: execution ETA',
          'Blocks fetched and not yet executed divided by the execution rate of the last 10 minutes: the time the execution phase still takes at its current pace. Nothing while the node is still fetching (it executes nothing yet) and once the chain is bootstrapped. avalanchego fetches again what the network built meanwhile, briefly, before it finishes.',
          range(`${bootstrapLeft} / (rate(${q.sel('avax_node_bootstrap_executed_blocks_total')}[10m]) > 0)`, '{{target}} {{chain}}'),
        )
          .unit('s')
          .min(0),
      )
      // ------------------------------------------------------------ Chains and index
      .withRow(row('Chains and index'))
      .withPanel(series([8, 12], 'Block rate', 'Blocks per second, from the per-chain height.', range(`rate(${q.sel('avax_chain_height')}[$__rate_interval])`, '{{target}} {{chain}}')).unit('short').min(0))
      .withPanel(metricSeries([8, 12], 'Chain height', q, 'avax_chain_height', '{{target}} {{chain}}').unit('none'))
      .withPanel(
        series(
          [8, 12],
          'Index lag',
          'Age of the last container accepted into each block index (only with --index-enabled). X/tx and X/vtx are not shown: they stopped growing in 2023.',
          range(`time() - ${q.sel('avax_index_last_accepted_timestamp_seconds', 'kind="block"')}`, '{{target}} {{chain}}/{{kind}}'),
        )
          .unit('s')
          .min(0),
      )
      .withPanel(series([8, 12], 'P-Chain time lag', 'Wall clock minus platform.getTimestamp.', range(`time() - ${q.sel('avax_pchain_timestamp_seconds')}`, '{{target}}')).unit('s'))
      .withPanel(cchainHeights(ctx, [8, 12]))
      .withPanel(cchainExecutionQueue(ctx, [8, 12]))
      // ------------------------------------------------------------ Peers
      .withRow(row('Peers'))
      .withPanel(series([8, 8], 'Peers', undefined, range(q.sel('avax_peers'), '{{target}} peers'), range(q.sel('avax_peers_silent'), '{{target}} silent')).min(0))
      .withPanel(
        place(ofMetric(timeseriesPanel('Peers by version'), 'avax_peers_by_version'), [8, 8], [range(`sum by (target, version) (${q.sel('avax_peers_by_version')})`, '{{target}} {{version}}')])
          .stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal).group('A'))
          .fillOpacity(30)
          .min(0),
      )
      .withPanel(metricSeries([8, 8], 'Benched peers', q, 'avax_peers_benched', '{{target}} {{chain}}').min(0))
      // ------------------------------------------------------------ Network upgrades and versions
      .withRow(row('Network upgrades and versions'))
      .withPanel(
        columnsTable([8, 12], 'Scheduled network upgrades', {
          sortBy: 'activates in',
          description: `Network upgrades in info.upgrades that are scheduled and still ahead. Unscheduled ones (year 9999 on the wire, +Inf here) and past ones are hidden, so the table is empty most of the time. AvalancheNetworkUpgradeNodeOutdated fires when one is less than ${durationWords(t.upgradeWindow)} away and most peers run a newer version.`,
          labels: ['target', 'upgrade'],
          columns: [
            {
              name: 'activates in',
              query: `${upgradeAt} - time() > 0 < Inf`,
              props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['orange', 86400], ['yellow', t.upgradeWindow], ['green', 30 * 86400])), prop.unit('dtdurations')],
            },
            { name: 'activation time', query: `(${upgradeAt} > time() < Inf) * 1000`, props: [prop.unit('dateTimeAsIso')] },
          ],
        }),
      )
      .withPanel(
        series(
          [8, 12],
          'Peers on a newer version',
          `Share of peers (with a parseable version) that run a newer avalanchego than this node, by semantic version. Above ${percent(t.newerVersionRatio)} % for ${durationWords(t.versionBehindFor, { article: true })}: AvalancheNodeVersionBehindPeers; with an upgrade less than ${durationWords(t.upgradeWindow)} away: AvalancheNetworkUpgradeNodeOutdated.`,
          range(q.sel('avax_peers_newer_version_ratio'), '{{target}}'),
        )
          .unit('percentunit')
          .thresholds(steps(['green', null], ['red', t.newerVersionRatio]))
          .min(0)
          .max(1)
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Line)),
      )
      .withPanel(
        columnsTable([8, 24], 'VM plugin protocol (RPCChainVM)', {
          sortBy: 'mismatch',
          desc: true,
          description:
            "Per chain: 1 when the chain could not be created because its VM plugin implements another RPCChainVM protocol than the node (its health check fails with avalanchego's mismatch error; AvalancheChainVmProtocolMismatch), beside the node's protocol (info.getNodeVersion rpcProtocolVersion). 0 for P, X, C and every chain of the watched subnets on a normal node. The plugin's protocol (avax_chain_vm_rpc_protocol_version, only during a mismatch) is in the alert's description and in Explore.",
          labels: ['target', 'chain'],
          columns: [
            { name: 'mismatch', query: q.sel('avax_chain_vm_protocol_mismatch'), props: [prop.cellBackground(), prop.mappings(valueText([0, 'no', 'green'], [1, 'MISMATCH', 'red']))] },
            { name: 'node protocol', query: `${q.sel('avax_chain_vm_protocol_mismatch')} * 0 + on(target) group_left ${q.sel('avax_node_rpc_protocol_version')}` },
          ],
        }),
      )
      .withPanel(
        timeline(
          [5, 24],
          'Future upgrade check',
          "The node's futureupgrade health check (avalanchego v1.14.1+): fails when most of the stake announces an upgrade time this version does not know (AvalancheFutureUpgradeUnknown). No data on nodes before v1.14.1 (v1.13.x has no such check): that is neither healthy nor failing.",
          valueText([0, 'UNKNOWN UPGRADE', 'red'], [1, 'ok', 'green']),
          range(q.sel('avax_health_check_healthy', 'check="futureupgrade"'), '{{target}}'),
        ),
      )
      // ------------------------------------------------------------ Exporter
      .withRow(row('Exporter'))
      .withPanel(metricTimeline([8, 12], 'Collector success', q, 'avax_collector_success', '{{target}} {{collector}}', okFailing()))
      .withPanel(metricSeries([8, 12], 'Collector duration', q, 'avax_collector_duration_seconds', '{{target}} {{collector}}').min(0))
      .withPanel(
        series(
          [8, 8],
          'RPC requests by result',
          'Requests to the node per second by result. normal_state is not an error: an answer the collector treats as a normal state of the node (index disabled or empty, not a validator, a method an older node lacks).',
          range(`sum by (target, result) (rate(${q.sel('avax_rpc_requests_total')}[$__rate_interval]))`, '{{target}} {{result}}'),
        )
          .unit('reqps')
          .min(0),
      )
      .withPanel(
        series(
          [8, 8],
          'RPC latency p95 by method',
          undefined,
          range(`histogram_quantile(0.95, sum by (target, method, le) (rate(${q.sel('avax_rpc_request_duration_seconds_bucket')}[$__rate_interval])))`, '{{target}} {{method}}'),
        )
          .unit('s')
          .min(0),
      )
      .withPanel(
        series(
          [8, 8],
          'Data age by collector',
          'Seconds since each collector last succeeded (AvalancheExporterDataStale fires above 3 intervals).',
          range(`time() - ${q.sel('avax_collector_last_success_timestamp_seconds')}`, '{{target}} {{collector}}'),
        )
          .unit('s')
          .min(0),
      ),
    ctx,
  );
}
