// Node internals from the node's own /ext/metrics (collector node-metrics): consensus, the C-Chain's execution
// under SAE, handler queues, benchlist, database, and the time until the node leaves the validator set. The series are the
// exporter's stable avax_node_* names, the same whatever avalanchego release renamed its own.
import { durationWords, percent, promDuration, secondsExpr } from '../duration.js';
import { l1ChainStalled } from './l1-chain-stall.js';
import { nodeCchainExecutionRules } from './node-cchain-execution.js';
import { nodeConsensusRules } from './node-consensus.js';
import { nodeDiskRules } from './node-disk.js';
import { PRIMARY_NETWORK, type RuleGroupDef } from './types.js';

export const nodeInternalsRules: RuleGroupDef = {
  name: 'node-internals',
  group: 'avalanche-node-internals',
  header:
    "Node internals from the node's own /ext/metrics (collector node-metrics; needs the metrics API, on by default).\nThresholds operators tune are listed in alerts/README.md (monitoring.yaml `thresholds`).",
  rules: ({ t, q }) => {
    const w = promDuration(t.consensusStuckWindow);
    return [
      {
        alert: 'AvalancheConsensusStuck',
        comment: `Value: blocks processing. Per chain: blocks keep entering consensus (processing grew over ${w}) while none was accepted in
${w}, on a chain that finished bootstrapping (thresholds.consensusStuckWindow). A quiet chain (nothing
processing) does not fire.`,
        expr: `${q.sel('avax_node_blocks_processing')}
and on(target, chain) (increase(${q.sel('avax_node_blocks_accepted_total')}[${w}]) == 0)
and on(target, chain) (delta(${q.sel('avax_node_blocks_processing')}[${w}]) > 0)
and on(target, chain) (${q.sel('avax_node_bootstrap_finished')} == 1)
`,
        for: '2m',
        severity: 'critical',
        summary: '{{ $labels.target }}: consensus on chain {{ $labels.chain }} is stuck',
        description: `Chain {{ $labels.chain }} on {{ $labels.target }} accepted no block in ${durationWords(t.consensusStuckWindow)} while the blocks waiting in consensus grew to {{ $value }}. Polls are not reaching a decision: check peers, benched validators and the poll failure ratio.`,
      },
      l1ChainStalled({ t, q }),
      ...nodeConsensusRules({ t, q }),
      ...nodeCchainExecutionRules({ t, q }),
      {
        alert: 'AvalancheHandlerMessagesExpiring',
        comment: `Per chain: inbound messages dropped because their deadline passed before the chain handler got to them
(thresholds.handlerExpiredPerSecond). The series exists only once a message expired.`,
        expr: `rate(${q.sel('avax_node_handler_expired_messages_total')}[5m]) > ${t.handlerExpiredPerSecond}`,
        for: '10m',
        severity: 'warning',
        summary: '{{ $labels.target }}: chain {{ $labels.chain }} drops {{ $value | humanize }} expired messages per second',
        description: `The handler of chain {{ $labels.chain }} on {{ $labels.target }} dropped {{ $value | humanize }} inbound messages per second over 5 minutes because their deadline passed before it handled them (threshold ${t.handlerExpiredPerSecond}/s). The node cannot keep up: CPU, disk or a slow VM.`,
      },
      {
        alert: 'AvalancheBenchedWeightHigh',
        comment: `Per chain: share of the validator stake the node ignores (benched for failing to answer its queries),
thresholds.benchedWeightRatio.`,
        expr: `(${q.sel('avax_node_benched_weight')} / on(target, chain) (${q.sel('avax_node_stake_weight')} > 0)) > ${t.benchedWeightRatio}`,
        for: '10m',
        severity: 'warning',
        summary: '{{ $labels.target }}: {{ $value | humanizePercentage }} of the stake is benched on chain {{ $labels.chain }}',
        description: `{{ $labels.target }} has benched validators holding {{ $value | humanizePercentage }} of chain {{ $labels.chain }}'s stake for more than 10 minutes (threshold ${percent(t.benchedWeightRatio)} %): it stopped querying them because they failed to answer. Much benched stake slows consensus; look at the node's own connectivity first.`,
      },
      {
        alert: 'AvalancheDatabaseLatencyHigh',
        comment: `Per chain (all = the whole node database) and op (read: get, has, iterator_next; write: put, delete,
batch_write): mean call latency over 5m (thresholds.dbLatency, seconds).`,
        expr: `(
  rate(${q.sel('avax_node_db_operation_seconds_total')}[5m])
  / on(target, chain, op) (rate(${q.sel('avax_node_db_operations_total')}[5m]) > 0)
) > ${t.dbLatency}`,
        for: '15m',
        severity: 'warning',
        summary: '{{ $labels.target }}: database {{ $labels.op }}s take {{ $value | humanizeDuration }} on average ({{ $labels.chain }})',
        description: `Database {{ $labels.op }} calls of {{ $labels.chain }} on {{ $labels.target }} took {{ $value | humanizeDuration }} on average over 5 minutes, for 15 minutes (threshold ${t.dbLatency} s). A slow or full disk delays every chain; check the volume's latency and free space.`,
      },
      {
        alert: 'AvalancheNodeUnstakeSoon',
        comment: `The node's own view (avalanchego's P-Chain health check) of when it leaves the Primary Network validator
set, for a target that watches its own NodeID as an active validator (thresholds.unstakeSoon). A value
of 0 is left out: the node reports 0 when it is not a current validator and also before the P-Chain
health check set the value (seen on a real v1.14.2 validator). Not for an auto-renewed validator (ACP-236,
avalanchego master) that renews (avax_validator_next_period_seconds > 0): its end time is the end of its
cycle, where it is re-staked, not where it leaves.`,
        expr: `(${q.sel('avax_node_time_until_unstake_seconds')} > 0) < ${secondsExpr(t.unstakeSoon)}
and on(target) (
  (${q.sel('avax_validator_active', `subnet="${PRIMARY_NETWORK}"`)} == 1)
  and on(target, node_id) ${q.sel('avax_node_info')}
)
unless on(target) (
  (${q.sel('avax_validator_next_period_seconds', `subnet="${PRIMARY_NETWORK}"`)} > 0)
  and on(target, node_id) ${q.sel('avax_node_info')}
)`,
        for: '10m',
        severity: 'critical',
        summary: '{{ $labels.target }}: the node leaves the validator set in {{ $value | humanizeDuration }}',
        description: `avalanchego on {{ $labels.target }} reports {{ $value | humanizeDuration }} until it stops validating the Primary Network (less than ${durationWords(t.unstakeSoon)}). Re-stake before then, or the node drops out of the validator set and earns nothing.`,
      },
      ...nodeDiskRules({ t, q }),
    ];
  },
};
