import type { MetricType } from '../model.js';
import { DB_METHOD_KIND, DB_METHODS, HANDLER_OPS, NETWORK_OPS, POLL_REASON } from './node-metrics-ops.js';

/**
 * The curated node-internal signals of `GET /ext/metrics` (avalanchego's own Prometheus registry),
 * under stable names of ours, with every native name each avalanchego naming scheme gives them.
 * Source: avalanchego's registration code at v1.10.0 … v1.14.2 and captures of real v1.11.7, v1.12.2 and
 * v1.14.2 nodes (test/fixtures/real-node-v1.*); the project's NODE-METRICS reference numbers the signals
 * (the `#` comments below).
 *
 * Naming schemes, named after the first avalanchego version that uses them:
 * - `v1.10.0` (v1.10.0–v1.11.5): chain alias in the name (`avalanche_C_blks_accepted_count`), one
 *   name per message op or DB method (`avalanche_network_pull_query_sent`, `avalanche_db_get_count`);
 * - `v1.11.6` (v1.11.6–v1.11.7): alias still in the name, ops and methods in labels;
 * - `v1.11.8` (v1.11.8–v1.14.2 and later): component namespace + `chain` label
 *   (`avalanche_snowman_blks_accepted_count{chain="C"}`).
 */
export type NamingScheme = 'v1.10.0' | 'v1.11.6' | 'v1.11.8';
export const NAMING_SCHEMES: readonly NamingScheme[] = ['v1.10.0', 'v1.11.6', 'v1.11.8'];
const ALL: readonly NamingScheme[] = NAMING_SCHEMES;
const A: readonly NamingScheme[] = ['v1.10.0'];
const B: readonly NamingScheme[] = ['v1.11.6'];
const AB: readonly NamingScheme[] = ['v1.10.0', 'v1.11.6'];
const BC: readonly NamingScheme[] = ['v1.11.6', 'v1.11.8'];
const C: readonly NamingScheme[] = ['v1.11.8'];

/** The naming scheme a version string (`avalanchego/1.14.2`, `1.11.7`) implies; undefined when unknown. */
export function schemeOfVersion(version: string | undefined): NamingScheme | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return undefined;
  const [maj, min, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (maj !== 1 || min < 10) return maj > 1 ? 'v1.11.8' : undefined;
  if (min > 11 || (min === 11 && patch >= 8)) return 'v1.11.8';
  if (min === 11 && patch >= 6) return 'v1.11.6';
  return 'v1.10.0';
}

/**
 * One native name of a signal. `name` may hold `<a>` (the chain alias inside the name, schemes before
 * v1.11.8) and `<op>` (one name per message op / DB method, scheme v1.10.0; expanded from `opList`).
 */
export interface NativeName {
  readonly schemes: readonly NamingScheme[];
  readonly name: string;
  /** Only this chain (label `chain` or `<a>`), e.g. P for time_until_unstake; kept as the chain. */
  readonly onlyChain?: string;
  /** For a signal with a `chain` label: the chain when the native name has none (node-wide DB = `all`). */
  readonly chain?: string;
  /** Native label equality filters; '' = the label must be absent. */
  readonly where?: Readonly<Record<string, string>>;
  /** A native label that must be present (avalanche_db_size{level} vs the v1.11.6 meterdb byte counter {method}). */
  readonly requires?: string;
  /** The stable extra label's value from a native label, or fixed. */
  readonly extra?: { readonly from?: string; readonly value?: string };
  /** Summary/histogram part this name feeds: `_sum`, `_count`, `_bucket` (default: the value itself). */
  readonly part?: '_sum' | '_count' | '_bucket';
  /** Divisor of this name when it differs from the signal's (a `_count` of a nanosecond averager: 1). */
  readonly divide?: number;
  readonly opList?: readonly string[];
}

/**
 * A stable signal: our name, type, help, labels besides `target` (`chain` and at most one more,
 * `extra`), the divisor from native units (ns → s: 1e9, 0–100 % → ratio: 100), and its native names.
 * Every native label not kept is summed away. Label values come from bounded sets only: `chain` from
 * P, X, C, the watched chains (and `all` where `chain` is set); `extra` from `extraValues`.
 */
export interface NodeSignal {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly perChain: boolean;
  readonly extra?: string;
  readonly extraValues?: readonly string[];
  /** Native value → extra label value (DB method → read/write, poll reason → ours). */
  readonly extraMap?: Readonly<Record<string, string>>;
  /** `chain="all"` is a value of ours (the whole node database), not an unknown chain. */
  readonly chainAll?: boolean;
  /** Native unit → ours: the native value is divided by it (1e9 for nanoseconds, 100 for percent). */
  readonly divide?: number;
  /** A native value that is a placeholder, not a figure (checked before `divide`): such a sample gives no series. */
  readonly sentinel?: (native: number) => boolean;
  /**
   * The C-Chain VM whose registry holds it. Helicon (avalanchego v1.15.0) moved the C-Chain from Coreth to SAE
   * (ACP-194); Coreth's registry stays exported, frozen, so a `coreth` signal is left out of a body that holds any
   * `sae` one (the node-metrics picker), and a `sae` one exists only there.
   */
  readonly cchainVm?: 'coreth' | 'sae';
  /** The avalanchego releases that have it, when not every one (docs/metrics.md). */
  readonly avalanchego?: string;
  readonly native: readonly NativeName[];
}

/** Nanoseconds → seconds. */
const NS = 1e9;
/** Percent (0–100) → ratio (0–1). */
const PCT = 100;
const CHAIN = 'Per chain (label chain: P, X, C or a watched blockchain ID). ';

/** `avalanche_snowman_<m>{chain}` since v1.11.8, `avalanche_<a>_<m>` before. */
function snowman(m: string, extra: Partial<NativeName> = {}): NativeName[] {
  return [{ schemes: C, name: `avalanche_snowman_${m}`, ...extra }, { schemes: AB, name: `avalanche_<a>_${m}`, ...extra }];
}
/** A node-level name unchanged in every scheme. */
function same(name: string): NativeName[] {
  return [{ schemes: ALL, name }];
}
/** An averager pair `<m>_sum` (ns) and `<m>_count` as a summary without quantiles. */
function averager(c: string, ab: string): NativeName[] {
  return [
    { schemes: C, name: `${c}_sum`, part: '_sum' },
    { schemes: C, name: `${c}_count`, part: '_count', divide: 1 },
    { schemes: AB, name: `${ab}_sum`, part: '_sum' },
    { schemes: AB, name: `${ab}_count`, part: '_count', divide: 1 },
  ];
}

/**
 * The P2P message meter of each release: `msgs<suffix>` (messages; `_bytes`: their bytes) per io
 * (sent, received); v1.10.x had a series per message op and direction instead.
 */
function networkMessages(suffix: '' | '_bytes'): NativeName[] {
  return [
    { schemes: BC, name: `avalanche_network_msgs${suffix}`, extra: { from: 'io' } },
    { schemes: A, name: `avalanche_network_<op>_sent${suffix}`, opList: NETWORK_OPS, extra: { value: 'sent' } },
    { schemes: A, name: `avalanche_network_<op>_received${suffix}`, opList: NETWORK_OPS, extra: { value: 'received' } },
  ];
}

/**
 * The database meter (meterdb) of each release: `<metric>` (calls, duration) per method, per chain and
 * for the whole node (chain all); v1.10.x had a series per method instead, `<op>_<legacy>` (count, sum).
 */
function meterdb(metric: string, legacy: string): NativeName[] {
  return [
    { schemes: C, name: `avalanche_meterdb_${metric}`, extra: { from: 'method' } },
    // v1.13.1–v1.14.0: the whole-node meter was registered at the top level, without prefix.
    { schemes: C, name: `all_${metric}`, chain: 'all', extra: { from: 'method' } },
    { schemes: B, name: `avalanche_db_${metric}`, chain: 'all', extra: { from: 'method' } },
    { schemes: B, name: `avalanche_<a>_db_${metric}`, extra: { from: 'method' } },
    { schemes: A, name: `avalanche_db_<op>_${legacy}`, chain: 'all', opList: DB_METHODS, extra: { from: '<op>' } },
    { schemes: A, name: `avalanche_<a>_db_<op>_${legacy}`, opList: DB_METHODS, extra: { from: '<op>' } },
  ];
}

/**
 * Go's time.Duration saturates at ±MaxInt64 nanoseconds (about 292 years): SAE's gas-time gap reads
 * 9223372036.854776 s before the first executed block (real v1.15.0 node). Such a value is no measurement.
 */
export const SATURATED_DURATION_SECONDS = 9223372036.854775807;
const saturatedDuration = (seconds: number): boolean => Math.abs(seconds) >= SATURATED_DURATION_SECONDS;

const CORETH_RELEASES = 'v1.10.0 to v1.14.x, and v1.15.0 before Helicon activated (C-Chain on Coreth); absent under SAE';
const SAE_RELEASES = 'v1.15.0+, once Helicon activated (C-Chain on SAE)';
type CchainSignal = Pick<NodeSignal, 'name' | 'type' | 'help' | 'sentinel'> & { readonly m: string };

/** Coreth's geth-registry C-Chain signals: `avalanche_evm_eth_<m>{chain="C"}` since v1.11.8, `avalanche_C_vm_eth_<m>` before. */
function coreth(list: readonly CchainSignal[]): NodeSignal[] {
  return list.map(({ m, ...s }) => ({ ...s, perChain: false, cchainVm: 'coreth', avalanchego: CORETH_RELEASES, native: [{ schemes: C, name: `avalanche_evm_eth_${m}`, onlyChain: 'C' }, { schemes: AB, name: `avalanche_C_vm_eth_${m}` }] }));
}

/** The C-Chain's SAE signals: `avalanche_evm_transition_<m>{chain="C"}` (in seconds already; a histogram's three parts). */
function sae(list: readonly CchainSignal[]): NodeSignal[] {
  return list.map(({ m, ...s }) => {
    const name = `avalanche_evm_transition_${m}`;
    const native: NativeName[] =
      s.type === 'histogram'
        ? [{ schemes: C, name: `${name}_bucket`, part: '_bucket', onlyChain: 'C' }, { schemes: C, name: `${name}_sum`, part: '_sum', onlyChain: 'C' }, { schemes: C, name: `${name}_count`, part: '_count', onlyChain: 'C' }]
        : [{ schemes: C, name, onlyChain: 'C' }];
    return { ...s, perChain: false, cchainVm: 'sae', avalanchego: SAE_RELEASES, native };
  });
}

export const NODE_SIGNALS: readonly NodeSignal[] = [
  // #1–#13, #50: consensus (snowman engine of each chain)
  { name: 'avax_node_blocks_accepted_total', type: 'counter', perChain: true, help: `${CHAIN}Blocks accepted by consensus (not the bootstrapped ones), from /ext/metrics.`, native: snowman('blks_accepted_count') },
  { name: 'avax_node_block_accept_latency_seconds', type: 'summary', perChain: true, divide: NS, help: `${CHAIN}Time from issuance to acceptance of accepted blocks, in seconds (sum and count; mean = rate(_sum)/rate(_count)), from /ext/metrics.`, native: averager('avalanche_snowman_blks_accepted', 'avalanche_<a>_blks_accepted') },
  { name: 'avax_node_blocks_rejected_total', type: 'counter', perChain: true, help: `${CHAIN}Blocks rejected by consensus, from /ext/metrics.`, native: snowman('blks_rejected_count') },
  { name: 'avax_node_block_reject_latency_seconds', type: 'summary', perChain: true, divide: NS, help: `${CHAIN}Time from issuance to rejection of rejected blocks, in seconds (sum and count), from /ext/metrics.`, native: averager('avalanche_snowman_blks_rejected', 'avalanche_<a>_blks_rejected') },
  { name: 'avax_node_blocks_processing', type: 'gauge', perChain: true, help: `${CHAIN}Blocks issued to consensus and not yet decided (growing while nothing is accepted: stuck consensus), from /ext/metrics.`, native: snowman('blks_processing') },
  {
    name: 'avax_node_consensus_latency_seconds', type: 'histogram', perChain: true, avalanchego: 'v1.14.2+', divide: NS,
    help: `${CHAIN}Issuance-to-acceptance latency of blocks, in seconds (avalanchego v1.14.2+ only), from /ext/metrics.`,
    native: [
      // Bucket values are counts (only `le` is in nanoseconds, divided by the signal's divisor).
      { schemes: C, name: 'avalanche_snowman_consensus_latencies_bucket', part: '_bucket', divide: 1 },
      { schemes: C, name: 'avalanche_snowman_consensus_latencies_sum', part: '_sum' },
      { schemes: C, name: 'avalanche_snowman_consensus_latencies_count', part: '_count', divide: 1 },
    ],
  },
  { name: 'avax_node_polls_successful_total', type: 'counter', perChain: true, help: `${CHAIN}Consensus polls that finished with enough responses, from /ext/metrics.`, native: snowman('polls_successful') },
  { name: 'avax_node_polls_failed_total', type: 'counter', perChain: true, help: `${CHAIN}Consensus polls that failed, from /ext/metrics.`, native: snowman('polls_failed') },
  { name: 'avax_node_polls_pending', type: 'gauge', perChain: true, help: `${CHAIN}Consensus polls waiting for responses, from /ext/metrics.`, native: snowman('polls') },
  { name: 'avax_node_poll_duration_seconds', type: 'summary', perChain: true, divide: NS, help: `${CHAIN}Time consensus polls took, in seconds (sum and count of completed polls), from /ext/metrics.`, native: averager('avalanche_snowman_poll_duration', 'avalanche_<a>_poll_duration') },
  {
    name: 'avax_node_polls_terminated_total', type: 'counter', perChain: true, avalanchego: 'v1.11.9+', extra: 'reason', extraValues: ['early_alpha', 'early_fail', 'exhausted'], extraMap: POLL_REASON,
    help: `${CHAIN}Consensus polls terminated (avalanchego v1.11.9+), by reason: early_alpha (ended early on an alpha majority; older releases (v1.11.9 to at least v1.13.0) report it as early_alpha_pref and early_alpha_conf, summed here), early_fail (an alpha majority out of reach) or exhausted (every polled validator answered), from /ext/metrics.`,
    native: [{ schemes: C, name: 'avalanche_snowman_poll_count', extra: { from: 'reason' } }],
  },
  { name: 'avax_node_last_accepted_height', type: 'gauge', perChain: true, help: `${CHAIN}Height of the last accepted block, from /ext/metrics.`, native: snowman('last_accepted_height') },
  { name: 'avax_node_last_accepted_timestamp_seconds', type: 'gauge', perChain: true, help: `${CHAIN}Timestamp of the last accepted block (Unix seconds), from /ext/metrics.`, native: snowman('last_accepted_timestamp') },
  { name: 'avax_node_bootstrap_finished', type: 'gauge', perChain: true, help: `${CHAIN}1 once the chain finished bootstrapping, from /ext/metrics.`, native: snowman('bootstrap_finished') },
  // Bootstrap progress (snow/engine/snowman/bootstrap/metrics.go, every release; captures v1.11.7 to v1.14.2): counters since the process started.
  { name: 'avax_node_bootstrap_fetched_blocks_total', type: 'counter', perChain: true, help: `${CHAIN}Blocks fetched from peers while bootstrapping (since the node process started), from /ext/metrics.`, native: snowman('bs_fetched') },
  { name: 'avax_node_bootstrap_executed_blocks_total', type: 'counter', perChain: true, help: `${CHAIN}Fetched blocks executed and accepted while bootstrapping (since the node process started), from /ext/metrics.`, native: snowman('bs_accepted') },
  { name: 'avax_node_blocks_built_total', type: 'counter', perChain: true, help: `${CHAIN}Blocks built by this node, from /ext/metrics.`, native: snowman('blks_built') },
  { name: 'avax_node_block_build_accept_delay_seconds', type: 'gauge', perChain: true, divide: NS, help: `${CHAIN}Delay from the block timestamp to its acceptance, of the last accepted block, in seconds, from /ext/metrics.`, native: snowman('blks_build_accept_latency') },
  // #14–#16: chain handlers
  {
    name: 'avax_node_handler_unprocessed_messages', type: 'gauge', perChain: true, extra: 'queue', extraValues: ['sync', 'async'],
    help: `${CHAIN}Messages waiting in the chain handler's queue (sync: consensus, async: app messages), from /ext/metrics.`,
    native: [
      { schemes: C, name: 'avalanche_handler_sync_unprocessed_msgs_count', extra: { value: 'sync' } },
      { schemes: C, name: 'avalanche_handler_async_unprocessed_msgs_count', extra: { value: 'async' } },
      { schemes: B, name: 'avalanche_<a>_handler_unprocessed_msgs_count', extra: { value: 'sync' } },
      { schemes: B, name: 'avalanche_<a>_handler_async_unprocessed_msgs_count', extra: { value: 'async' } },
      { schemes: A, name: 'avalanche_<a>_handler_unprocessed_msgs_len', extra: { value: 'sync' } },
      { schemes: A, name: 'avalanche_<a>_handler_async_unprocessed_msgs_len', extra: { value: 'async' } },
    ],
  },
  {
    name: 'avax_node_handler_expired_messages_total', type: 'counter', perChain: true,
    help: `${CHAIN}Inbound messages dropped because their deadline passed before handling (absent until one expires), from /ext/metrics.`,
    native: [
      { schemes: C, name: 'avalanche_handler_expired' },
      { schemes: B, name: 'avalanche_<a>_handler_expired' },
      { schemes: A, name: 'avalanche_<a>_handler_expired' },
      { schemes: A, name: 'avalanche_<a>_handler_async_expired' },
    ],
  },
  {
    name: 'avax_node_handler_messages_total', type: 'counter', perChain: true, help: `${CHAIN}Messages handled by the chain handler, from /ext/metrics.`,
    native: [
      { schemes: C, name: 'avalanche_handler_messages' },
      { schemes: B, name: 'avalanche_<a>_handler_messages' },
      { schemes: A, name: 'avalanche_<a>_handler_<op>_count', opList: HANDLER_OPS },
    ],
  },
  // #17–#20: benchlist, stake, unstake
  { name: 'avax_node_benched_peers', type: 'gauge', perChain: true, help: `${CHAIN}Validators benched (ignored) for failing to answer queries, from /ext/metrics.`, native: [{ schemes: C, name: 'avalanche_benchlist_benched_num' }, { schemes: AB, name: 'avalanche_<a>_benchlist_benched_num' }] },
  { name: 'avax_node_benched_weight', type: 'gauge', perChain: true, help: `${CHAIN}Stake weight (nAVAX) of the benched validators, from /ext/metrics.`, native: [{ schemes: C, name: 'avalanche_benchlist_benched_weight' }, { schemes: AB, name: 'avalanche_<a>_benchlist_benched_weight' }] },
  {
    name: 'avax_node_stake_connected_ratio', type: 'gauge', perChain: true, help: `${CHAIN}Share (0-1) of the chain's validator stake this node is connected to, from /ext/metrics.`,
    native: [
      { schemes: C, name: 'avalanche_stake_percent_connected' },
      { schemes: AB, name: 'avalanche_<a>_percent_connected' },
      // v1.10.0–v1.10.2: only the P-Chain VM's figure.
      { schemes: A, name: 'avalanche_P_vm_percent_connected', onlyChain: 'P' },
    ],
  },
  {
    name: 'avax_node_stake_weight', type: 'gauge', perChain: true, avalanchego: 'v1.10.12+', help: `${CHAIN}Total stake weight of the chain's validators as the node sees it (the unit of avax_node_benched_weight), from /ext/metrics.`,
    // avalanchego v1.10.12+ (stake total_weight); absent before.
    native: [{ schemes: C, name: 'avalanche_stake_total_weight' }, { schemes: AB, name: 'avalanche_<a>_total_weight' }],
  },
  {
    name: 'avax_node_validators', type: 'gauge', perChain: true, avalanchego: 'v1.10.12+', help: `${CHAIN}Validators of the chain's subnet as the node sees them (AvalanchePollFailureRatioHigh scales its threshold on a chain of fewer than the consensus sample size), from /ext/metrics.`,
    // The same peers tracker as total_weight (snow/engine/common/tracker/peers.go, stake num_validators).
    native: [{ schemes: C, name: 'avalanche_stake_num_validators' }, { schemes: AB, name: 'avalanche_<a>_num_validators' }],
  },
  {
    name: 'avax_node_time_until_unstake_seconds', type: 'gauge', perChain: false, divide: NS,
    help: "Time until this node leaves the Primary Network validator set, in seconds (updated by the P-Chain health check; 0 when not a current validator), from /ext/metrics.",
    native: [{ schemes: C, name: 'avalanche_platformvm_time_until_unstake', onlyChain: 'P' }, { schemes: AB, name: 'avalanche_P_vm_time_until_unstake' }],
  },
  // #21–#31: network, throttling, requests (node-wide)
  { name: 'avax_node_uptime_weighted_average_ratio', type: 'gauge', perChain: false, divide: PCT, help: "This node's uptime as its peers see it, stake-weighted (0-1; 0 without peers), from /ext/metrics.", native: same('avalanche_network_node_uptime_weighted_average') },
  { name: 'avax_node_uptime_rewarding_stake_ratio', type: 'gauge', perChain: false, divide: PCT, help: 'Share (0-1) of the stake that would vote to reward this node, from /ext/metrics.', native: same('avalanche_network_node_uptime_rewarding_stake') },
  { name: 'avax_node_peers', type: 'gauge', perChain: false, help: 'Connected peers as the node counts them, from /ext/metrics.', native: same('avalanche_network_peers') },
  {
    name: 'avax_node_network_messages_total', type: 'counter', perChain: false, extra: 'direction', extraValues: ['sent', 'received'],
    help: 'P2P messages sent and received (absent until the first one), from /ext/metrics.',
    native: networkMessages(''),
  },
  {
    name: 'avax_node_network_message_bytes_total', type: 'counter', perChain: false, extra: 'direction', extraValues: ['sent', 'received'],
    help: 'Bytes of P2P messages sent and received (absent until the first one), from /ext/metrics.',
    native: networkMessages('_bytes'),
  },
  {
    name: 'avax_node_network_send_failures_total', type: 'counter', perChain: false, help: 'Outbound P2P messages that could not be queued or sent, from /ext/metrics.',
    native: [{ schemes: BC, name: 'avalanche_network_msgs_failed_to_send' }, { schemes: A, name: 'avalanche_network_<op>_failed', opList: NETWORK_OPS }],
  },
  {
    name: 'avax_node_inbound_throttler_waiting_messages', type: 'gauge', perChain: false,
    help: "Inbound messages waiting for the node's byte, bandwidth, buffer, CPU and disk throttlers, from /ext/metrics.",
    native: [
      ...same('avalanche_network_byte_throttler_inbound_awaiting_acquire'),
      ...same('avalanche_network_bandwidth_throttler_inbound_awaiting_acquire'),
      ...same('avalanche_network_buffer_throttler_inbound_awaiting_acquire'),
      ...same('avalanche_network_cpu_throttler_awaiting_acquire'),
      ...same('avalanche_network_disk_throttler_awaiting_acquire'),
    ],
  },
  { name: 'avax_node_inbound_conn_rate_limited_total', type: 'counter', perChain: false, help: "Inbound connections refused by the node's connection rate limiter, from /ext/metrics.", native: same('avalanche_network_inbound_conn_throttler_rate_limited') },
  { name: 'avax_node_outbound_throttle_failures_total', type: 'counter', perChain: false, help: "Outbound messages dropped by the node's outbound throttler, from /ext/metrics.", native: same('avalanche_network_throttler_outbound_acquire_failures') },
  { name: 'avax_node_requests_outstanding', type: 'gauge', perChain: false, help: 'Consensus requests waiting for a response, from /ext/metrics.', native: same('avalanche_requests_outstanding') },
  { name: 'avax_node_request_latency_average_seconds', type: 'gauge', perChain: false, divide: NS, help: "Average network latency of the node's requests (adaptive timeout manager), in seconds, from /ext/metrics.", native: same('avalanche_requests_average_latency') },
  // #32: health
  {
    name: 'avax_node_health_checks_failing', type: 'gauge', perChain: false, extra: 'check', extraValues: ['health', 'readiness', 'liveness'],
    help: 'Failing health checks as the node counts them (tag all), by kind: health, readiness, liveness, from /ext/metrics.',
    native: [
      // v1.11.9+: one name, label check. Before v1.11.8 the same name was the health kind (no check label).
      { schemes: C, name: 'avalanche_health_checks_failing', where: { tag: 'all' }, requires: 'check', extra: { from: 'check' } },
      { schemes: AB, name: 'avalanche_health_checks_failing', where: { tag: 'all', check: '' }, extra: { value: 'health' } },
      { schemes: A, name: 'avalanche_health_checks_failing', where: { tag: '', check: '' }, extra: { value: 'health' } },
      { schemes: AB, name: 'avalanche_readiness_checks_failing', where: { tag: 'all' }, extra: { value: 'readiness' } },
      { schemes: A, name: 'avalanche_readiness_checks_failing', where: { tag: '' }, extra: { value: 'readiness' } },
      { schemes: AB, name: 'avalanche_liveness_checks_failing', where: { tag: 'all' }, extra: { value: 'liveness' } },
      { schemes: A, name: 'avalanche_liveness_checks_failing', where: { tag: '' }, extra: { value: 'liveness' } },
      // v1.11.8 only.
      { schemes: C, name: 'avalanche_health_health_checks_failing', where: { tag: 'all' }, extra: { value: 'health' } },
      { schemes: C, name: 'avalanche_health_readiness_checks_failing', where: { tag: 'all' }, extra: { value: 'readiness' } },
      { schemes: C, name: 'avalanche_health_liveness_checks_failing', where: { tag: 'all' }, extra: { value: 'liveness' } },
    ],
  },
  // #33–#35: database
  {
    name: 'avax_node_db_size_bytes', type: 'gauge', perChain: false, help: "Bytes LevelDB allocated for the node's database (sum over levels; LevelDB only), from /ext/metrics.",
    // v1.11.6–v1.11.7 also have avalanche_db_size{method}: meterdb's bytes counter, not the size. Hence `requires`.
    native: [{ schemes: C, name: 'avalanche_db_size', requires: 'level' }, { schemes: AB, name: 'avalanche_db_internal_size', requires: 'level' }],
  },
  {
    name: 'avax_node_db_operations_total', type: 'counter', perChain: true, extra: 'op', extraValues: ['read', 'write'], extraMap: DB_METHOD_KIND, chainAll: true,
    help: 'Database calls, per chain (all: the whole node database) and op (read: get, has, iterator_next; write: put, delete, batch_write), from /ext/metrics.',
    native: meterdb('calls', 'count'),
  },
  {
    name: 'avax_node_db_operation_seconds_total', type: 'counter', perChain: true, extra: 'op', extraValues: ['read', 'write'], extraMap: DB_METHOD_KIND, chainAll: true, divide: NS,
    help: 'Time spent in database calls, in seconds, per chain and op as avax_node_db_operations_total (mean latency = rate of this / rate of that), from /ext/metrics.',
    native: meterdb('duration', 'sum'),
  },
  // #36–#42: resources and process
  { name: 'avax_node_cpu_usage_cores', type: 'gauge', perChain: false, help: "CPU the node uses as its resource tracker sees it, in cores, from /ext/metrics.", native: same('avalanche_resource_tracker_cpu_usage') },
  { name: 'avax_node_disk_read_bytes_per_second', type: 'gauge', perChain: false, help: "Disk read rate of the node (resource tracker; already a rate), from /ext/metrics.", native: same('avalanche_resource_tracker_disk_reads') },
  { name: 'avax_node_disk_write_bytes_per_second', type: 'gauge', perChain: false, help: "Disk write rate of the node (resource tracker; already a rate), from /ext/metrics.", native: same('avalanche_resource_tracker_disk_writes') },
  { name: 'avax_node_disk_available_bytes', type: 'gauge', perChain: false, help: "Free space on the node's database volume, from /ext/metrics.", native: same('avalanche_resource_tracker_disk_available_space') },
  // v1.14.1+, a whole percent (avalanchego floors it); the node turns unhealthy below 10 % and stops below 3 %.
  { name: 'avax_node_disk_available_ratio', type: 'gauge', perChain: false, avalanchego: 'v1.14.1+', divide: PCT, help: "Free share (0-1) of the node's database volume, a whole percent as the node floors it (v1.14.1+; absent before), from /ext/metrics. Runway: avax_node_disk_available_bytes * (1 - L / this) / -deriv(avax_node_disk_available_bytes[6h]) seconds to the level L.", native: same('avalanche_resource_tracker_disk_available_percentage') },
  { name: 'avax_node_resident_memory_bytes', type: 'gauge', perChain: false, help: 'Resident memory of the node process, from /ext/metrics.', native: [{ schemes: C, name: 'avalanche_process_process_resident_memory_bytes' }, { schemes: AB, name: 'avalanche_process_resident_memory_bytes' }] },
  { name: 'avax_node_open_fds', type: 'gauge', perChain: false, help: 'Open file descriptors of the node process, from /ext/metrics.', native: [{ schemes: C, name: 'avalanche_process_process_open_fds' }, { schemes: AB, name: 'avalanche_process_open_fds' }] },
  { name: 'avax_node_process_start_time_seconds', type: 'gauge', perChain: false, help: 'When the node process started, Unix seconds (a change: the node restarted), from /ext/metrics.', native: [{ schemes: C, name: 'avalanche_process_process_start_time_seconds' }, { schemes: AB, name: 'avalanche_process_start_time_seconds' }] },
  { name: 'avax_node_max_fds', type: 'gauge', perChain: false, help: 'File descriptor limit of the node process, from /ext/metrics.', native: [{ schemes: C, name: 'avalanche_process_process_max_fds' }, { schemes: AB, name: 'avalanche_process_max_fds' }] },
  { name: 'avax_node_goroutines', type: 'gauge', perChain: false, help: 'Goroutines of the node process, from /ext/metrics.', native: [{ schemes: C, name: 'avalanche_process_go_goroutines' }, { schemes: AB, name: 'avalanche_go_goroutines' }] },
  // #43–#45: C-Chain (coreth's geth registry under `eth`). #46 evm_eth_chain_head_block is left out on
  // purpose: coreth does not update it (reads 0); the C-Chain height is avax_node_last_accepted_height{chain="C"}.
  // Coreth only: absent under SAE, whose node still exports Coreth's registry, frozen (real v1.15.0 nodes).
  ...coreth([
    { name: 'avax_node_cchain_gas_used_accepted_total', type: 'counter', help: 'Gas used by accepted C-Chain blocks (Coreth; under SAE: avax_node_cchain_executed_gas_charged_total), from /ext/metrics.', m: 'chain_block_gas_used_accepted' },
    // coreth's geth `chain/block/bad/count`: blocks that failed verification (bad state root, invalid transactions).
    { name: 'avax_node_cchain_bad_blocks_total', type: 'counter', help: 'C-Chain blocks that failed verification (a rising count: this node diverges from the network; Coreth only, SAE has no such counter), from /ext/metrics.', m: 'chain_block_bad_count' },
    { name: 'avax_node_cchain_txpool_pending', type: 'gauge', help: 'Executable transactions in the C-Chain pool (Coreth only), from /ext/metrics.', m: 'txpool_pending' },
    { name: 'avax_node_cchain_txpool_queued', type: 'gauge', help: 'Non-executable (future nonce) transactions in the C-Chain pool (Coreth only), from /ext/metrics.', m: 'txpool_queued' },
  ]),
  // The C-Chain under SAE (ACP-194, avalanchego v1.15.0+ once Helicon activated; vms/saevm/saexec/metrics.go and
  // cchain/metrics.go, avalanchego RELEASES.md v1.15.0): blocks are accepted, then executed in order by a queue, then settled
  // when a later block commits their state root. Accepted: avax_node_last_accepted_height{chain="C"}.
  ...sae([
    { name: 'avax_node_cchain_last_executed_height', type: 'gauge', m: 'sae_last_executed_height', help: 'Height of the last C-Chain block whose execution completed (SAE executes accepted blocks asynchronously; eth_blockNumber and the `latest` block are this one), from /ext/metrics.' },
    { name: 'avax_node_cchain_last_settled_height', type: 'gauge', m: 'sae_last_settled_height', help: 'Height of the last settled C-Chain block (SAE: a later block committed its state root; the `safe` and `finalized` blocks are this one), from /ext/metrics.' },
    { name: 'avax_node_cchain_execution_queue_blocks', type: 'gauge', m: 'sae_execution_queue_blocks', help: 'Accepted C-Chain blocks not yet executed, the one executing included (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_execution_queue_gas_limit', type: 'gauge', m: 'sae_execution_queue_gas_limit', help: "Worst-case gas of the accepted C-Chain blocks not yet executed (their transactions' gas limits plus end-of-block operations; SAE), from /ext/metrics." },
    { name: 'avax_node_cchain_execution_queue_duration_seconds', type: 'histogram', m: 'sae_execution_queue_duration_seconds', help: "Time from a C-Chain block's acceptance into the execution queue until its execution completed, in seconds (SAE), from /ext/metrics." },
    { name: 'avax_node_cchain_execute_block_duration_seconds', type: 'histogram', m: 'sae_execute_block_duration_seconds', help: 'Time to execute one C-Chain block, state commit and post-execution work included, in seconds (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_executed_gas_charged_total', type: 'counter', m: 'sae_executed_gas_charged_total', help: "Gas charged by executed C-Chain blocks (transactions' gas used plus end-of-block operations; SAE: what avax_node_cchain_gas_used_accepted_total was under Coreth), from /ext/metrics." },
    { name: 'avax_node_cchain_executed_gas_limit_total', type: 'counter', m: 'sae_executed_gas_limit_total', help: 'Worst-case gas of executed C-Chain blocks (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_accepted_gas_limit_total', type: 'counter', m: 'sae_accepted_gas_limit_total', help: 'Worst-case gas of C-Chain blocks accepted into the execution queue (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_executed_base_fee_wei', type: 'gauge', m: 'sae_executed_base_fee', help: 'Base fee (wei per gas) that execution realized for the last executed C-Chain block (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_worst_case_base_fee_wei', type: 'gauge', m: 'sae_worst_case_base_fee', help: 'Worst-case base fee (wei per gas) consensus admitted for the last executed C-Chain block (SAE), from /ext/metrics.' },
    { name: 'avax_node_cchain_gas_target_per_second', type: 'gauge', m: 'sae_gas_target', help: 'ACP-176 gas target (gas per second) in force as of the last executed C-Chain block (SAE), from /ext/metrics.' },
    {
      name: 'avax_node_cchain_gas_time_wall_time_gap_seconds', type: 'gauge', m: 'sae_gas_time_wall_time_gap_seconds', sentinel: saturatedDuration,
      help: "C-Chain gas time minus wall time when the last block finished executing, in seconds (negative: gas time lags the wall clock; SAE); absent before the first executed block, where the node writes MaxInt64 nanoseconds, from /ext/metrics.",
    },
    { name: 'avax_node_cchain_min_block_delay_seconds', type: 'gauge', m: 'cchain_min_block_delay_seconds', help: 'ACP-226 minimum C-Chain block delay in force, from the last executed block, in seconds (SAE), from /ext/metrics.' },
  ]),
  // #47–#48: VM calls through the metervm wrapper (older names inferred from the registration code).
  { name: 'avax_node_vm_build_block_seconds', type: 'summary', perChain: true, divide: NS, help: `${CHAIN}Time the VM took to build blocks, in seconds (sum and count), from /ext/metrics.`, native: averager('avalanche_meterchainvm_build_block', 'avalanche_<a>_vm_metervm_build_block') },
  { name: 'avax_node_vm_accept_block_seconds', type: 'summary', perChain: true, divide: NS, help: `${CHAIN}Time the VM took to accept blocks, in seconds (sum and count), from /ext/metrics.`, native: averager('avalanche_meterchainvm_accept', 'avalanche_<a>_vm_metervm_accept') },
];
