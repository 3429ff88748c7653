// The C-Chain's SAE families in GET /ext/metrics of the simulated node (avalanchego v1.15.0 once the C-Chain runs
// SAE): the TransitionVM's `transition` registry, avalanche_evm_transition_sae_* (vms/saevm/saexec/metrics.go,
// sae/metrics.go, txgossip), avalanche_evm_transition_cchain_* (the C-Chain's atomic-tx gossip, ACP-226's
// minimum block delay) and avalanche_evm_transition_p2p_*, with the recorded v1.15.0 node's names, types, labels
// and HELP texts. Their values follow the C-Chain's execution (sae-execution.ts): executed and settled heights,
// the queue, the gas charged, one histogram observation per block executed since the process started; the gap
// between gas time and wall time is MaxInt64 ns before the first block executed since the start (the last
// executed block restored at start has no execution wall time), as on the recorded node.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { h32 } from './deterministic-random.js';
import type { Line } from './prometheus-text.js';
import {
  BASE_FEE_WEI,
  GAS_TARGET,
  blockTimeMs,
  chargedGas,
  executeMs,
  histogram,
  queueMs,
  saeState,
  worstCaseGas,
  type SaeModel,
} from './sae-execution.js';

const C = { chain: 'C' };
/** prometheus.ExponentialBuckets(start, 2, n), multiplied as Go does (the labels' shortest spelling is Go's). */
function exponentialBuckets(start: number, n: number): number[] {
  const out: number[] = [];
  for (let b = start, i = 0; i < n; i++, b *= 2) out.push(b);
  return out;
}
/** saexec/metrics.go: 500 µs … 16.384 s (execution), 1 ms … 16.384 s (queue). */
const EXECUTE_BUCKETS = exponentialBuckets(0.0005, 16);
const QUEUE_BUCKETS = exponentialBuckets(0.001, 15);
/** math.MaxInt64 ns in seconds: time.Time{}.Sub saturates (the recorded 9.223372036854776e+09). */
const MAX_GAP_SECONDS = 9223372036.854775807;
/** ACP-226's minimum block delay of the simulated C-Chain's blocks (minDelayExcess 0x799d4c: e^(excess/2^20) ms). */
const MIN_BLOCK_DELAY_SECONDS = 2;

function histogramLines(name: string, help: string, bounds: readonly number[], h: { buckets: number[]; sum: number; count: number }): Line[] {
  const out: Line[] = bounds.map((le, i) => ({ name: `${name}_bucket`, labels: { ...C, le: String(le) }, value: h.buckets[i]!, type: 'histogram', help }));
  out.push({ name: `${name}_bucket`, labels: { ...C, le: '+Inf' }, value: h.count, type: 'histogram', help });
  out.push({ name: `${name}_sum`, labels: C, value: h.sum, type: 'histogram', help });
  out.push({ name: `${name}_count`, labels: C, value: h.count, type: 'histogram', help });
  return out;
}

/**
 * The families of a gossip component (`<prefix>_gossip*`, utils/gossip metrics) and of its bloom filter (`bloom`):
 * pull gossip only (a validator without RPC clients pushes nothing), nothing gossiped yet, as recorded.
 */
function gossipLines(prefix: string, bloom: string): Line[] {
  const g = (name: string, help: string, type: string, value: number, labels: Record<string, string> = {}): Line => ({ name: `${prefix}_${name}`, labels: { ...C, ...labels }, value, type, help });
  const b = (name: string, help: string, type: string, value: number): Line => ({ name: `${bloom}_${name}`, labels: C, value, type, help });
  const out: Line[] = [
    b('count', 'Number of additions that have been performed to the bloom', 'gauge', 0),
    b('entries', 'Number of bytes allocated to slots in the bloom', 'gauge', 1199),
    b('hashes', 'Number of hashes in the bloom', 'gauge', 7),
    b('max_count', 'Maximum number of additions that should be performed to the bloom before resetting', 'gauge', 1446),
    b('reset_count', 'Number times the bloom has been reset', 'counter', 1),
    ...histogramLines(`${prefix}_gossip_bloomfilter_hit_rate`, 'Hit rate (%) of the bloom filter sent by pull gossip', [0, 25, 50, 75], { buckets: [0, 0, 0, 0], sum: 0, count: 0 }),
  ];
  for (const io of ['received', 'sent']) out.push(g('gossip_bytes', 'amount of gossip (bytes)', 'counter', 0, { io, type: 'pull' }));
  for (const io of ['received', 'sent']) out.push(g('gossip_count', 'amount of gossip (n)', 'counter', 0, { io, type: 'pull' }));
  out.push(g('gossip_throttle_limit', 'maximum number of requests per peer for a single throttling period', 'gauge', 816));
  for (const type of ['sent', 'unsent']) out.push(g('gossip_tracking', 'number of gossipables being tracked', 'gauge', 0, { type }));
  out.push(g('gossip_tracking_lifetime_average', 'average duration a gossipable has been tracked (ns)', 'gauge', 0));
  return out;
}

/** The C-Chain's SAE families now (call only while the C-Chain runs SAE: sae-execution.ts saeActive). */
export function saeMetricLines(m: SaeModel): Line[] {
  const s = saeState(m);
  const executedSince = s.executed > s.executedAtStart;
  const sae = (name: string, help: string, value: number, type = 'gauge'): Line => ({ name: `avalanche_evm_transition_sae_${name}`, labels: C, value, type, help });
  const gasTimeMs = blockTimeMs(m, s.executed) + chargedGas(s.executed) / ((2 * GAS_TARGET) / 1000);
  const executedWallMs = m.acceptedAtMs('C', s.executed) + queueMs(m.seed, s.executed);
  // The gas excess realised by the last executed block and the worst case consensus allowed for it.
  const excess = 2_000_000_000 + (h32(m.seed, 283) % 300_000_000);
  // Requests of the C-Chain's p2p handlers (0: state sync summaries, 1: gossip), from the process start.
  const upS = Math.max(0, (m.now() - m.processStartMs) / 1000);
  const p2p: Line[] = [];
  for (const handlerID of ['0', '1']) {
    for (const op of ['app_request', 'app_response']) {
      const n = Math.floor(upS * (handlerID === '0' ? 0.38 : 0.39) * (op === 'app_request' ? 1.03 : 1));
      p2p.push({ name: 'avalanche_evm_transition_p2p_network_msg_count', labels: { ...C, handlerID, op }, value: n, type: 'counter', help: 'message count (n)' });
      p2p.push({ name: 'avalanche_evm_transition_p2p_network_msg_time', labels: { ...C, handlerID, op }, value: n * 310_000, type: 'gauge', help: 'message handling time (ns)' });
    }
  }
  const tracker = (name: string, help: string): Line => ({ name: `avalanche_evm_transition_p2p_peer_tracker_${name}`, labels: C, value: 0, type: 'gauge', help });
  return [
    ...gossipLines('avalanche_evm_transition_cchain', 'avalanche_evm_transition_cchain_gossip_bloom'),
    { name: 'avalanche_evm_transition_cchain_min_block_delay_seconds', labels: C, value: executedSince ? MIN_BLOCK_DELAY_SECONDS : 0, type: 'gauge', help: 'ACP-226 minimum block delay, in seconds.' },
    ...p2p,
    tracker('average_bandwidth', 'average sync bandwidth used by peers'),
    tracker('num_responsive_peers', 'number of responsive peers'),
    tracker('num_tracked_peers', 'number of tracked peers'),
    sae('accepted_gas_limit_total', 'Cumulative worst-case gas of blocks accepted into the execution queue.', s.acceptedGasLimit, 'counter'),
    ...histogramLines(
      'avalanche_evm_transition_sae_execute_block_duration_seconds',
      'Wall-clock time to execute a single block, including the state commit and post-execution work.',
      EXECUTE_BUCKETS,
      histogram(s.executedAtStart, s.executed, EXECUTE_BUCKETS, (h) => executeMs(m.seed, h) / 1000),
    ),
    sae('executed_base_fee', 'Base fee realized by execution of the latest executed block.', BASE_FEE_WEI),
    sae('executed_gas_charged_total', 'Cumulative gas charged by executed blocks, transaction gas used plus end-of-block operation gas.', s.gasCharged, 'counter'),
    sae('executed_gas_excess', 'Gas excess realized by execution of the latest executed block.', excess),
    sae('executed_gas_limit_total', 'Cumulative worst-case gas of executed blocks, transaction gas limits plus end-of-block operation gas.', s.executedGasLimit, 'counter'),
    sae('execution_queue_blocks', 'Number of accepted blocks that have not yet completed execution.', s.accepted - s.executed),
    ...histogramLines(
      'avalanche_evm_transition_sae_execution_queue_duration_seconds',
      "Time from a block's acceptance until its execution completes.",
      QUEUE_BUCKETS,
      histogram(s.executedAtStart, s.executed, QUEUE_BUCKETS, (h) => queueMs(m.seed, h) / 1000),
    ),
    sae('execution_queue_gas_limit', 'Worst-case gas of accepted blocks that have not yet completed execution.', s.queueGasLimit),
    sae('gas_target', 'ACP-176 gas target in force as of the latest executed block.', GAS_TARGET),
    sae(
      'gas_time_wall_time_gap_seconds',
      'Gas time minus wall time, observed when the latest block finished executing; negative when gas time lags the wall clock.',
      executedSince ? (gasTimeMs - executedWallMs) / 1000 : MAX_GAP_SECONDS,
    ),
    ...gossipLines('avalanche_evm_transition_sae', 'avalanche_evm_transition_sae_mempool'),
    sae('in_memory_blocks', 'Number of SAE blocks still live in memory (created but not yet garbage collected).', s.accepted - s.settled + 2),
    sae('last_executed_gas_time_seconds', 'Gas time reached by the latest executed block, as a Unix timestamp.', gasTimeMs / 1000),
    sae('last_executed_height', 'Height of the latest block that completed async execution.', s.executed),
    sae('last_settled_height', 'Height of the latest block that has settled.', s.settled),
    sae('worst_case_base_fee', 'Worst-case base fee admitted by consensus for the latest executed block.', BASE_FEE_WEI),
    sae('worst_case_gas_excess', 'Worst-case gas excess simulated for the latest executed block.', excess + worstCaseGas(s.executed) - chargedGas(s.executed)),
  ];
}
