// Avalanche / Node internals (uid avax-node-internals): consensus per chain, network, chain handlers,
// database, C-Chain, process, from the node's own /ext/metrics (collector node-metrics) under the
// exporter's stable avax_node_* names, so that the dashboard works on every avalanchego release
// (the official dashboards break whenever avalanchego renames a metric).
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords, percent } from '../duration.js';
import { diskRunwayExpr } from '../rules/node-disk.js';
import { avalancheDashboard, range, row, steps, valueText, type DashboardContext } from './kit.js';
import { cchainExecutionQueue, cchainHeights } from './cchain-panels.js';
import { metricSeries, metricTimeline, series, type Size } from './panels.js';

export function nodeInternalsDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const rate = (metric: string, ...m: string[]) => `rate(${q.sel(metric, ...m)}[$__rate_interval])`;
  /** One range query per expression, legend `{{target}} <what>`. */
  const each = (list: readonly (readonly [expr: string, what: string])[]) => list.map(([expr, what]) => range(expr, `{{target}} ${what}`.trimEnd()));
  /** Several gauges, from 0. */
  const gauges = (size: Size, title: string, description: string | undefined, list: readonly (readonly [expr: string, what: string])[]) => series(size, title, description, ...each(list)).min(0);
  /** Events per second (counters as rates), from 0. */
  const perSecond = (size: Size, title: string, description: string | undefined, list: readonly (readonly [expr: string, what: string])[]) =>
    series(size, title, description, ...each(list))
      .unit('short')
      .min(0);
  return (
    avalancheDashboard(
      {
        uid: 'avax-node-internals',
        title: 'Avalanche / Node internals',
        description:
          "The node's own /ext/metrics (consensus, network, handlers, database, C-Chain, process) under the exporter's stable names: the same panels on every avalanchego release. Needs the metrics API (on by default).",
      },
      ctx,
    )
      // ------------------------------------------------------------ Consensus
      .withRow(row('Consensus (per chain)'))
      .withPanel(
        perSecond([8, 8], 'Blocks accepted and rejected', 'Blocks decided by consensus per second (bootstrapped blocks are not counted).', [
          [rate('avax_node_blocks_accepted_total'), '{{chain}} accepted'],
          [rate('avax_node_blocks_rejected_total'), '{{chain}} rejected'],
        ]),
      )
      .withPanel(
        series(
          [8, 8],
          'Accept latency',
          'Mean time from issuance to acceptance of the blocks accepted in the interval, and the 90th percentile from the consensus latency histogram (avalanchego v1.14.2+).',
          ...each([
            [`${rate('avax_node_block_accept_latency_seconds_sum')} / ${rate('avax_node_block_accept_latency_seconds_count')}`, '{{chain}} mean'],
            [`histogram_quantile(0.9, sum by (target, chain, le) (${rate('avax_node_consensus_latency_seconds_bucket')}))`, '{{chain}} p90'],
          ]),
        )
          .unit('s')
          .min(0),
      )
      .withPanel(
        metricSeries([8, 8], 'Blocks processing', q, 'avax_node_blocks_processing', '{{target}} {{chain}}')
          .description(`Blocks issued to consensus and not decided yet. Above ${t.blocksProcessingWarning} (warning) or ${t.blocksProcessingCritical} (critical) for 5 minutes: AvalancheBlocksProcessingHigh.`)
          .min(0)
          .thresholds(steps(['green', null], ['orange', t.blocksProcessingWarning + 1], ['red', t.blocksProcessingCritical + 1])),
      )
      .withPanel(
        series(
          [8, 8],
          'Poll success ratio',
          `Share of the consensus polls that finished with enough answers. Below ${percent(1 - t.pollFailureRatio)} % (warning) or ${percent(1 - t.pollFailureRatioCritical)} % (critical) for 10 minutes: AvalanchePollFailureRatioHigh.`,
          range(`${rate('avax_node_polls_successful_total')} / (${rate('avax_node_polls_successful_total')} + ${rate('avax_node_polls_failed_total')})`, '{{target}} {{chain}}'),
        )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['red', null], ['orange', 1 - t.pollFailureRatioCritical], ['green', 1 - t.pollFailureRatio])),
      )
      .withPanel(
        series(
          [8, 8],
          'Benched stake',
          `Share of the chain's stake held by validators the node benched (stopped querying) for failing to answer. Above ${percent(t.benchedWeightRatio)} %: AvalancheBenchedWeightHigh.`,
          range(`${q.sel('avax_node_benched_weight')} / on(target, chain) ${q.sel('avax_node_stake_weight')}`, '{{target}} {{chain}}'),
        )
          .unit('percentunit')
          .min(0)
          .thresholds(steps(['green', null], ['red', t.benchedWeightRatio])),
      )
      .withPanel(metricSeries([8, 8], 'Benched validators', q, 'avax_node_benched_peers', '{{target}} {{chain}}').min(0))
      .withPanel(
        series(
          [8, 12],
          'Last accepted block age',
          'Wall clock minus the timestamp of the last accepted block, per chain (P and X accept blocks irregularly).',
          range(`time() - ${q.sel('avax_node_last_accepted_timestamp_seconds')}`, '{{target}} {{chain}}'),
        )
          .unit('s')
          .min(0),
      )
      .withPanel(
        perSecond(
          [8, 12],
          'Bootstrap: blocks fetched and executed',
          'Blocks per second a bootstrapping chain fetches from peers and then executes (0 once bootstrapped). Fetching runs from the network tip back to the last accepted block, execution forward again.',
          [
            [rate('avax_node_bootstrap_fetched_blocks_total'), '{{chain}} fetched'],
            [rate('avax_node_bootstrap_executed_blocks_total'), '{{chain}} executed'],
          ],
        ),
      )
      .withPanel(metricTimeline([8, 12], 'Bootstrap finished', q, 'avax_node_bootstrap_finished', '{{target}} {{chain}}', valueText([0, 'BOOTSTRAPPING', 'red'], [1, 'done', 'green'])))
      // ------------------------------------------------------------ Network
      .withRow(row('Network'))
      .withPanel(
        gauges(
          [8, 8],
          'Peers and connected stake',
          "Connected peers as the node counts them, and the share of each chain's stake it is connected to (right axis).",
          [
            [q.sel('avax_node_peers'), 'peers'],
            [q.sel('avax_node_stake_connected_ratio'), '{{chain}} stake connected'],
          ],
        ),
      )
      .withPanel(
        series([8, 8], 'Messages in / out', 'P2P messages per second, sent and received.', range(`sum by (target, direction) (${rate('avax_node_network_messages_total')})`, '{{target}} {{direction}}'))
          .unit('short')
          .min(0),
      )
      .withPanel(series([8, 8], 'Bytes in / out', undefined, range(`sum by (target, direction) (${rate('avax_node_network_message_bytes_total')})`, '{{target}} {{direction}}')).unit('Bps').min(0))
      .withPanel(
        perSecond(
          [8, 12],
          'Send failures and throttling',
          'Outbound messages that could not be sent or were dropped by the outbound throttler, and inbound connections refused by the rate limiter, per second.',
          [
            [rate('avax_node_network_send_failures_total'), 'send failures'],
            [rate('avax_node_outbound_throttle_failures_total'), 'outbound throttled'],
            [rate('avax_node_inbound_conn_rate_limited_total'), 'inbound connections refused'],
          ],
        ),
      )
      .withPanel(
        gauges(
          [8, 12],
          'Waiting: throttlers and requests',
          "Inbound messages waiting for the node's throttlers, consensus requests awaiting an answer, and the average network latency (right).",
          [
            [q.sel('avax_node_inbound_throttler_waiting_messages'), 'throttled inbound'],
            [q.sel('avax_node_requests_outstanding'), 'requests outstanding'],
            [q.sel('avax_node_request_latency_average_seconds'), 'request latency (s)'],
          ],
        ),
      )
      // ------------------------------------------------------------ Chain handlers
      .withRow(row('Chain handlers'))
      .withPanel(perSecond([8, 8], 'Messages handled', undefined, [[rate('avax_node_handler_messages_total'), '{{chain}}']]))
      .withPanel(metricSeries([8, 8], 'Handler queues', q, 'avax_node_handler_unprocessed_messages', '{{target}} {{chain}} {{queue}}').min(0))
      .withPanel(
        perSecond(
          [8, 8],
          'Expired messages',
          `Inbound messages dropped per second because their deadline passed before handling (the series exists only once one expired). Above ${t.handlerExpiredPerSecond}/s for 10 minutes: AvalancheHandlerMessagesExpiring.`,
          [[rate('avax_node_handler_expired_messages_total'), '{{chain}}']],
        ).thresholds(steps(['green', null], ['red', t.handlerExpiredPerSecond])),
      )
      // ------------------------------------------------------------ Database
      .withRow(row('Database'))
      .withPanel(metricSeries([8, 8], 'Database size', q, 'avax_node_db_size_bytes', '{{target}}').unit('bytes').min(0))
      .withPanel(
        series(
          [8, 8],
          'Database read / write latency',
          `Mean latency of database reads (get, has, iterator_next) and writes (put, delete, batch_write), per chain (all = the node database). Above ${t.dbLatency} s for 15 minutes: AvalancheDatabaseLatencyHigh.`,
          range(`${rate('avax_node_db_operation_seconds_total')} / on(target, chain, op) ${rate('avax_node_db_operations_total')}`, '{{target}} {{chain}} {{op}}'),
        )
          .unit('s')
          .min(0)
          .thresholds(steps(['green', null], ['red', t.dbLatency])),
      )
      .withPanel(series([8, 8], 'Database operations', undefined, range(rate('avax_node_db_operations_total'), '{{target}} {{chain}} {{op}}')).unit('ops').min(0))
      // ------------------------------------------------------------ C-Chain
      .withRow(row('C-Chain'))
      .withPanel(cchainHeights(ctx, [8, 8]))
      .withPanel(cchainExecutionQueue(ctx, [8, 8]))
      .withPanel(
        series(
          [8, 8],
          'Execution time',
          'Under SAE: 90th percentile of the time a C-Chain block waited from its acceptance until its execution completed (a healthy node: milliseconds), and of the time executing one block took.',
          ...each([
            [`histogram_quantile(0.9, sum by (target, le) (${rate('avax_node_cchain_execution_queue_duration_seconds_bucket')}))`, 'accepted → executed p90'],
            [`histogram_quantile(0.9, sum by (target, le) (${rate('avax_node_cchain_execute_block_duration_seconds_bucket')}))`, 'execute block p90'],
          ]),
        )
          .unit('s')
          .min(0),
      )
      .withPanel(
        perSecond([8, 8], 'Gas per second', 'C-Chain gas per second: used by accepted blocks on Coreth, charged by executed blocks under SAE (avalanchego v1.15.0+ after Helicon), against the ACP-176 gas target.', [
          [rate('avax_node_cchain_gas_used_accepted_total'), 'used (Coreth)'],
          [rate('avax_node_cchain_executed_gas_charged_total'), 'charged (SAE)'],
          [q.sel('avax_node_cchain_gas_target_per_second'), 'target (SAE)'],
        ]),
      )
      .withPanel(
        series(
          [8, 8],
          'Gas time and block delay',
          'Under SAE: gas time minus wall time when the last block finished executing (negative: gas time lags the wall clock; none before the first executed block), and the ACP-226 minimum block delay in force.',
          ...each([
            [q.sel('avax_node_cchain_gas_time_wall_time_gap_seconds'), 'gas time - wall time'],
            [q.sel('avax_node_cchain_min_block_delay_seconds'), 'minimum block delay'],
          ]),
        ).unit('s'),
      )
      .withPanel(
        gauges([8, 8], 'Base fee', 'Under SAE: the base fee (wei per gas) execution realized for the last executed block, and the worst case consensus admitted for it.', [
          [q.sel('avax_node_cchain_executed_base_fee_wei'), 'executed'],
          [q.sel('avax_node_cchain_worst_case_base_fee_wei'), 'worst case'],
        ]).unit('short'),
      )
      .withPanel(
        perSecond(
          [8, 12],
          'Bad blocks',
          `C-Chain blocks that failed verification on this node, per second (Coreth only: empty on a C-Chain under SAE). More than ${t.badBlocks} in 5 minutes: AvalancheBadBlocks.`,
          [[rate('avax_node_cchain_bad_blocks_total'), '']],
        ),
      )
      .withPanel(
        gauges(
          [8, 12],
          'Transaction pool',
          'Executable (pending) and future-nonce (queued) transactions in the C-Chain pool (Coreth only: empty on a C-Chain under SAE).',
          [
            [q.sel('avax_node_cchain_txpool_pending'), 'pending'],
            [q.sel('avax_node_cchain_txpool_queued'), 'queued'],
          ],
        ),
      )
      // ------------------------------------------------------------ Process and resources
      .withRow(row('Process and resources'))
      .withPanel(metricSeries([8, 6], 'CPU', q, 'avax_node_cpu_usage_cores', '{{target}}').unit('short').min(0))
      .withPanel(metricSeries([8, 6], 'Memory (RSS)', q, 'avax_node_resident_memory_bytes', '{{target}}').unit('bytes').min(0))
      .withPanel(
        gauges(
          [8, 6],
          'File descriptors and goroutines',
          undefined,
          [
            [q.sel('avax_node_open_fds'), 'open fds'],
            [q.sel('avax_node_max_fds'), 'fd limit'],
            [q.sel('avax_node_goroutines'), 'goroutines'],
          ],
        ),
      )
      .withPanel(
        series(
          [8, 6],
          'Disk',
          'Free space on the database volume, and the read and write rates the resource tracker sees.',
          ...each([
            [q.sel('avax_node_disk_available_bytes'), 'free'],
            [q.sel('avax_node_disk_read_bytes_per_second'), 'read/s'],
            [q.sel('avax_node_disk_write_bytes_per_second'), 'write/s'],
          ]),
        )
          .unit('bytes')
          .min(0),
      )
      .withPanel(
        series(
          [8, 6],
          'Disk free share',
          `Free share of the database volume (avalanchego v1.14.1+, a whole percent; empty before). Below ${percent(t.diskFreeWarning)} % / ${percent(t.diskFreeCritical)} % for 10 minutes: AvalancheNodeDiskSpaceLow (the Builders Hub thresholds). The node turns unhealthy below ${percent(t.diskUnhealthyLevel)} % and shuts down below ${percent(t.diskShutdownLevel)} %.`,
          range(q.sel('avax_node_disk_available_ratio'), '{{target}}'),
        )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['red', null], ['orange', t.diskFreeCritical], ['green', t.diskFreeWarning])),
      )
      .withPanel(
        series(
          [8, 6],
          'Disk runway',
          `Time until the free share reaches ${percent(t.diskUnhealthyLevel)} % (unhealthy) and ${percent(t.diskShutdownLevel)} % (shutdown) at the slope of the free bytes over ${durationWords(t.diskGrowthWindow)}; empty while the free space does not shrink. Under ${durationWords(t.diskRunwayWarning)} to ${percent(t.diskUnhealthyLevel)} % or ${durationWords(t.diskRunwayCritical)} to ${percent(t.diskShutdownLevel)} %: AvalancheNodeDiskRunwayShort.`,
          ...each([
            [diskRunwayExpr({ t, q }, t.diskUnhealthyLevel), `to ${percent(t.diskUnhealthyLevel)} %`],
            [diskRunwayExpr({ t, q }, t.diskShutdownLevel), `to ${percent(t.diskShutdownLevel)} %`],
          ]),
        )
          .unit('s')
          .min(0)
          .thresholds(steps(['red', null], ['orange', t.diskRunwayCritical], ['green', t.diskRunwayWarning])),
      )
      // ------------------------------------------------------------ Validation
      .withRow(row('Validation'))
      .withPanel(
        series(
          [8, 12],
          'Time until unstake',
          `The node's own view of when it leaves the Primary Network validator set (from its P-Chain health check; 0 when not a validator or before that check ran). Under ${durationWords(t.unstakeSoon)} for a watched validator: AvalancheNodeUnstakeSoon.`,
          range(q.sel('avax_node_time_until_unstake_seconds'), '{{target}}'),
        )
          .unit('s')
          .min(0)
          .thresholds(steps(['red', null], ['green', t.unstakeSoon])),
      )
      .withPanel(
        series(
          [8, 12],
          'Uptime as peers see it',
          "Stake-weighted uptime the node's peers report for it, and the share of the stake that would vote to reward it.",
          ...each([
            [q.sel('avax_node_uptime_weighted_average_ratio'), 'weighted uptime'],
            [q.sel('avax_node_uptime_rewarding_stake_ratio'), 'rewarding stake'],
          ]),
        )
          .unit('percentunit')
          .min(0)
          .max(1),
      )
      .withPanel(
        metricTimeline(
          [5, 24],
          'Metrics API and naming scheme',
          q,
          'avax_node_metrics_scheme',
          '{{target}} {{scheme}}',
          valueText([0, 'METRICS API DISABLED', 'red'], [1, 'read', 'green']),
          `${q.sel('avax_node_metrics_scheme')} or (${q.sel('avax_node_metrics_available')} == 0)`,
        ),
      )
  );
}
