// Avalanche / Node internals (uid avax-node-internals): consensus per chain, network, chain handlers,
// database, C-Chain, process, from the node's own /ext/metrics (collector node-metrics) under the
// exporter's stable avax_node_* names, so that the dashboard works on every avalanchego release
// (the official dashboards break whenever avalanchego renames a metric).
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords, percent } from '../duration.js';
import { avalancheDashboard, ofMetric, range, refs, row, stateTimelinePanel, steps, timeseriesPanel, valueText, redGreen, type DashboardContext } from './kit.js';

export function nodeInternalsDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const rate = (metric: string, ...m: string[]) => `rate(${q.sel(metric, ...m)}[$__rate_interval])`;
  const green = () => steps(['green', null]);
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
        timeseriesPanel('Blocks accepted and rejected')
          .height(8)
          .span(8)
          .description('Blocks decided by consensus per second (bootstrapped blocks are not counted).')
          .targets(refs(range(rate('avax_node_blocks_accepted_total'), '{{target}} {{chain}} accepted'), range(rate('avax_node_blocks_rejected_total'), '{{target}} {{chain}} rejected')))
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Accept latency')
          .height(8)
          .span(8)
          .description('Mean time from issuance to acceptance of the blocks accepted in the interval, and the 90th percentile from the consensus latency histogram (avalanchego v1.14.2+).')
          .targets(
            refs(
              range(`${rate('avax_node_block_accept_latency_seconds_sum')} / ${rate('avax_node_block_accept_latency_seconds_count')}`, '{{target}} {{chain}} mean'),
              range(`histogram_quantile(0.9, sum by (target, chain, le) (${rate('avax_node_consensus_latency_seconds_bucket')}))`, '{{target}} {{chain}} p90'),
            ),
          )
          .unit('s')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Blocks processing'), 'avax_node_blocks_processing')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_node_blocks_processing'), '{{target}} {{chain}}').refId('A'))
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Poll success ratio')
          .height(8)
          .span(8)
          .description(`Share of the consensus polls that finished with enough answers. Below ${percent(1 - t.pollFailureRatio)} % for 10 minutes: AvalanchePollFailureRatioHigh.`)
          .withTarget(
            range(`${rate('avax_node_polls_successful_total')} / (${rate('avax_node_polls_successful_total')} + ${rate('avax_node_polls_failed_total')})`, '{{target}} {{chain}}').refId('A'),
          )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['red', null], ['green', 1 - t.pollFailureRatio])),
      )
      .withPanel(
        timeseriesPanel('Benched stake')
          .height(8)
          .span(8)
          .description(`Share of the chain's stake held by validators the node benched (stopped querying) for failing to answer. Above ${percent(t.benchedWeightRatio)} %: AvalancheBenchedWeightHigh.`)
          .withTarget(range(`${q.sel('avax_node_benched_weight')} / on(target, chain) ${q.sel('avax_node_stake_weight')}`, '{{target}} {{chain}}').refId('A'))
          .unit('percentunit')
          .min(0)
          .thresholds(steps(['green', null], ['red', t.benchedWeightRatio])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Benched validators'), 'avax_node_benched_peers')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_node_benched_peers'), '{{target}} {{chain}}').refId('A'))
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Last accepted block age')
          .height(8)
          .span(12)
          .description('Wall clock minus the timestamp of the last accepted block, per chain (P and X accept blocks irregularly).')
          .withTarget(range(`time() - ${q.sel('avax_node_last_accepted_timestamp_seconds')}`, '{{target}} {{chain}}').refId('A'))
          .unit('s')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        ofMetric(stateTimelinePanel('Bootstrap finished'), 'avax_node_bootstrap_finished')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_node_bootstrap_finished'), '{{target}} {{chain}}').refId('A'))
          .mappings(valueText([0, 'BOOTSTRAPPING', 'red'], [1, 'done', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Network
      .withRow(row('Network'))
      .withPanel(
        timeseriesPanel('Peers and connected stake')
          .height(8)
          .span(8)
          .description("Connected peers as the node counts them, and the share of each chain's stake it is connected to (right axis).")
          .targets(refs(range(q.sel('avax_node_peers'), '{{target}} peers'), range(q.sel('avax_node_stake_connected_ratio'), '{{target}} {{chain}} stake connected')))
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Messages in / out')
          .height(8)
          .span(8)
          .description('P2P messages per second, sent and received.')
          .withTarget(range(`sum by (target, direction) (${rate('avax_node_network_messages_total')})`, '{{target}} {{direction}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Bytes in / out')
          .height(8)
          .span(8)
          .withTarget(range(`sum by (target, direction) (${rate('avax_node_network_message_bytes_total')})`, '{{target}} {{direction}}').refId('A'))
          .unit('Bps')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Send failures and throttling')
          .height(8)
          .span(12)
          .description('Outbound messages that could not be sent or were dropped by the outbound throttler, and inbound connections refused by the rate limiter, per second.')
          .targets(
            refs(
              range(rate('avax_node_network_send_failures_total'), '{{target}} send failures'),
              range(rate('avax_node_outbound_throttle_failures_total'), '{{target}} outbound throttled'),
              range(rate('avax_node_inbound_conn_rate_limited_total'), '{{target}} inbound connections refused'),
            ),
          )
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Waiting: throttlers and requests')
          .height(8)
          .span(12)
          .description("Inbound messages waiting for the node's throttlers, consensus requests awaiting an answer, and the average network latency (right).")
          .targets(
            refs(
              range(q.sel('avax_node_inbound_throttler_waiting_messages'), '{{target}} throttled inbound'),
              range(q.sel('avax_node_requests_outstanding'), '{{target}} requests outstanding'),
              range(q.sel('avax_node_request_latency_average_seconds'), '{{target}} request latency (s)'),
            ),
          )
          .min(0)
          .thresholds(green()),
      )
      // ------------------------------------------------------------ Chain handlers
      .withRow(row('Chain handlers'))
      .withPanel(
        timeseriesPanel('Messages handled')
          .height(8)
          .span(8)
          .withTarget(range(rate('avax_node_handler_messages_total'), '{{target}} {{chain}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Handler queues'), 'avax_node_handler_unprocessed_messages')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_node_handler_unprocessed_messages'), '{{target}} {{chain}} {{queue}}').refId('A'))
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Expired messages')
          .height(8)
          .span(8)
          .description(`Inbound messages dropped per second because their deadline passed before handling (the series exists only once one expired). Above ${t.handlerExpiredPerSecond}/s for 10 minutes: AvalancheHandlerMessagesExpiring.`)
          .withTarget(range(rate('avax_node_handler_expired_messages_total'), '{{target}} {{chain}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(steps(['green', null], ['red', t.handlerExpiredPerSecond])),
      )
      // ------------------------------------------------------------ Database
      .withRow(row('Database'))
      .withPanel(
        ofMetric(timeseriesPanel('Database size'), 'avax_node_db_size_bytes')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_node_db_size_bytes'), '{{target}}').refId('A'))
          .unit('bytes')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Database read / write latency')
          .height(8)
          .span(8)
          .description(`Mean latency of database reads (get, has, iterator_next) and writes (put, delete, batch_write), per chain (all = the node database). Above ${t.dbLatency} s for 15 minutes: AvalancheDatabaseLatencyHigh.`)
          .withTarget(range(`${rate('avax_node_db_operation_seconds_total')} / on(target, chain, op) ${rate('avax_node_db_operations_total')}`, '{{target}} {{chain}} {{op}}').refId('A'))
          .unit('s')
          .min(0)
          .thresholds(steps(['green', null], ['red', t.dbLatency])),
      )
      .withPanel(
        timeseriesPanel('Database operations')
          .height(8)
          .span(8)
          .withTarget(range(rate('avax_node_db_operations_total'), '{{target}} {{chain}} {{op}}').refId('A'))
          .unit('ops')
          .min(0)
          .thresholds(green()),
      )
      // ------------------------------------------------------------ C-Chain
      .withRow(row('C-Chain'))
      .withPanel(
        timeseriesPanel('Gas per second')
          .height(8)
          .span(12)
          .description('Gas used by accepted C-Chain blocks, per second.')
          .withTarget(range(rate('avax_node_cchain_gas_used_accepted_total'), '{{target}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Transaction pool')
          .height(8)
          .span(12)
          .targets(refs(range(q.sel('avax_node_cchain_txpool_pending'), '{{target}} pending'), range(q.sel('avax_node_cchain_txpool_queued'), '{{target}} queued')))
          .min(0)
          .thresholds(green()),
      )
      // ------------------------------------------------------------ Process and resources
      .withRow(row('Process and resources'))
      .withPanel(
        ofMetric(timeseriesPanel('CPU'), 'avax_node_cpu_usage_cores')
          .height(8)
          .span(6)
          .withTarget(range(q.sel('avax_node_cpu_usage_cores'), '{{target}}').refId('A'))
          .unit('short')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Memory (RSS)'), 'avax_node_resident_memory_bytes')
          .height(8)
          .span(6)
          .withTarget(range(q.sel('avax_node_resident_memory_bytes'), '{{target}}').refId('A'))
          .unit('bytes')
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('File descriptors and goroutines')
          .height(8)
          .span(6)
          .targets(refs(range(q.sel('avax_node_open_fds'), '{{target}} open fds'), range(q.sel('avax_node_max_fds'), '{{target}} fd limit'), range(q.sel('avax_node_goroutines'), '{{target}} goroutines')))
          .min(0)
          .thresholds(green()),
      )
      .withPanel(
        timeseriesPanel('Disk')
          .height(8)
          .span(6)
          .description('Free space on the database volume, and the read and write rates the resource tracker sees.')
          .targets(
            refs(
              range(q.sel('avax_node_disk_available_bytes'), '{{target}} free'),
              range(q.sel('avax_node_disk_read_bytes_per_second'), '{{target}} read/s'),
              range(q.sel('avax_node_disk_write_bytes_per_second'), '{{target}} write/s'),
            ),
          )
          .unit('bytes')
          .min(0)
          .thresholds(green()),
      )
      // ------------------------------------------------------------ Validation
      .withRow(row('Validation'))
      .withPanel(
        timeseriesPanel('Time until unstake')
          .height(8)
          .span(12)
          .description(
            `The node's own view of when it leaves the Primary Network validator set (from its P-Chain health check; 0 when not a validator or before that check ran). Under ${durationWords(t.unstakeSoon)} for a watched validator: AvalancheNodeUnstakeSoon.`,
          )
          .withTarget(range(q.sel('avax_node_time_until_unstake_seconds'), '{{target}}').refId('A'))
          .unit('s')
          .min(0)
          .thresholds(steps(['red', null], ['green', t.unstakeSoon])),
      )
      .withPanel(
        timeseriesPanel('Uptime as peers see it')
          .height(8)
          .span(12)
          .description("Stake-weighted uptime the node's peers report for it, and the share of the stake that would vote to reward it.")
          .targets(refs(range(q.sel('avax_node_uptime_weighted_average_ratio'), '{{target}} weighted uptime'), range(q.sel('avax_node_uptime_rewarding_stake_ratio'), '{{target}} rewarding stake')))
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(green()),
      )
      .withPanel(
        ofMetric(stateTimelinePanel('Metrics API and naming scheme'), 'avax_node_metrics_scheme')
          .height(5)
          .span(24)
          .withTarget(range(`${q.sel('avax_node_metrics_scheme')} or (${q.sel('avax_node_metrics_available')} == 0)`, '{{target}} {{scheme}}').refId('A'))
          .mappings(valueText([0, 'METRICS API DISABLED', 'red'], [1, 'read', 'green']))
          .thresholds(redGreen()),
      )
  );
}
