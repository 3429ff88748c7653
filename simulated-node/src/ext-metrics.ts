// GET /ext/metrics of the simulated node: avalanchego's own Prometheus registry in the text format,
// in the v1.14.2 shape (component namespace + `chain` label, as in a real v1.14.2 node's capture) or
// its version's (versions.ts `metrics`: v1.12.2's poll reasons, v1.11.7's naming, as captured),
// moving with the clock (blocks accepted, polls, messages, database, process), and in the naming of
// older releases (the scenario's `extMetrics.naming`: metrics-v1.11.6, chain alias back in the name;
// metrics-v1.10, ops and methods in the name too). At mainnet scale (>= 100 peers) every op/method vector is
// touched and coreth's full meter set is there, several times the 3,600 lines of an idle local node.
// Counters integrate the scenario's rates over time (never decrease while the process runs). On a node whose
// C-Chain switched to SAE (1.15.0 after Helicon) Coreth's avalanche_evm_eth_* stay exported but frozen and the
// TransitionVM's avalanche_evm_transition_* families follow SAE's execution (sae-metrics.ts); the text format and
// the older namings are in prometheus-text.ts and metrics-naming.ts.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { hf } from './deterministic-random.js';
import { rename, type MetricsNaming } from './metrics-naming.js';
import { render, type Line } from './prometheus-text.js';
import { saeActive, type SaeModel } from './sae-execution.js';
import { saeMetricLines } from './sae-metrics.js';
import type { Scenario } from './scenarios/scenario.js';
import { stuckBlocks } from './stuck-consensus.js';
import type { MetricsShape } from './versions.js';

/** What the metrics need of the node model (NodeModel satisfies it structurally). */
export interface ExtMetricsModel extends SaeModel {
  readonly seed: number;
  readonly t0: number;
  now(): number;
  /** the active scenario (`extMetrics.degraded`, `extMetrics.dbCallNs`, `node.chainProgress`) */
  readonly active: Scenario;
  /** when the active scenario started (ms) */
  readonly scenarioSinceMs: number;
  /** what the node's version registers (versions.ts) */
  readonly profile: { readonly metrics: MetricsShape; readonly diskPercentage: boolean; readonly saeFromUnix: number | null };
  readonly bootstrapped: boolean;
  height(chain: 'P' | 'X' | 'C'): number;
  peers(): readonly unknown[];
  networking(): { percentConnected: number };
  uptime(): { rewarding: number; weighted: number } | null;
  ownRegistration(nowS: number): { end: number } | null;
  availableDisk(): { bytes: number; percent: number };
  /** When the node's process (re)started, ms. */
  readonly processStartMs: number;
  /** The L1 chain the node runs (its own series under chain="<blockchain ID>", as real nodes), or undefined. */
  l1Running(): { id: string; height: number } | undefined;
  /** when block `h` of a chain was accepted (ms) */
  acceptedAtMs(chain: 'C' | 'L1', h: number): number;
  l1Networking(): { percentConnected: number };
}


const CHAINS = ['P', 'X', 'C'] as const;
const NET_OPS = ['handshake', 'ping', 'pong', 'get_peerlist', 'peerlist', 'get_accepted_frontier', 'accepted_frontier', 'get_accepted', 'accepted', 'get_ancestors', 'ancestors', 'get', 'put', 'push_query', 'pull_query', 'chits', 'app_request', 'app_response', 'app_gossip', 'app_error'];
const HANDLER_OPS = [...NET_OPS.filter((o) => !['handshake', 'ping', 'pong', 'get_peerlist', 'peerlist'].includes(o)), 'connected', 'disconnected', 'gossip_request', 'query_failed', 'get_failed'];
const DB_METHODS = ['get', 'has', 'put', 'delete', 'new_batch', 'batch_put', 'batch_delete', 'batch_write', 'batch_reset', 'batch_size', 'new_iterator', 'iterator_next', 'iterator_key', 'iterator_value', 'iterator_release', 'iterator_error', 'compact', 'health_check'];

/** The primary network's stake as the node's validator set counts it (nAVAX, mainnet order). */
const STAKE_WEIGHT = 2.4e17;

interface Counters {
  at: number;
  /** the per-call time of the last slow-database stretch (ns) */
  slowNs?: number;
  heights: Record<string, number>;
  c: Map<string, number>;
}
const STATE = new WeakMap<object, Counters>();

/** Advances the counters of `m` to now at the current scenario's rates; returns them. */
function advance(m: ExtMetricsModel): { c: (k: string) => number; dt: number; slowNs?: number } {
  const now = m.now();
  let s = STATE.get(m);
  if (!s) {
    s = { at: now, heights: Object.fromEntries(CHAINS.map((ch) => [ch, m.height(ch)])), c: new Map() };
    STATE.set(m, s);
  }
  const dt = Math.max(0, (now - s.at) / 1000);
  // Coreth's counters move until the C-Chain switches to SAE (its registry stays exported, frozen).
  const corethEnd = (m.profile.saeFromUnix ?? Infinity) * 1000;
  const corethDt = Math.max(0, (Math.min(now, corethEnd) - Math.min(s.at, corethEnd)) / 1000);
  s.at = Math.max(s.at, now);
  const add = (k: string, v: number) => s!.c.set(k, (s!.c.get(k) ?? 0) + v);
  const peers = m.peers().length;
  const unhealthy = m.active.extMetrics?.degraded === true;
  const slowNs = m.active.extMetrics?.dbCallNs;
  if (slowNs !== undefined) s.slowNs = slowNs;
  for (const ch of CHAINS) {
    const h = m.height(ch);
    const blocks = m.bootstrapped ? Math.max(0, h - s.heights[ch]!) : 0;
    s.heights[ch] = Math.max(s.heights[ch]!, h);
    add(`accepted/${ch}`, blocks);
    add(`acceptedNs/${ch}`, blocks * (ch === 'C' ? 1.6e9 : 1.1e9));
    add(`rejected/${ch}`, unhealthy ? dt * 0.02 : 0);
    const polls = m.bootstrapped ? blocks * 4 + dt * 0.5 : 0;
    add(`pollsOk/${ch}`, Math.round(polls * (unhealthy ? 0.6 : 0.995)));
    add(`pollsFail/${ch}`, Math.round(polls * (unhealthy ? 0.4 : 0.005)));
    add(`pollNs/${ch}`, polls * 4e8);
    add(`expired/${ch}`, unhealthy ? dt * 2 : 0);
    add(`handled/${ch}`, dt * (20 + peers / 10));
    add(`dbRead/${ch}`, dt * 300);
    add(`dbWrite/${ch}`, dt * 40);
    // calls made while the database is slow (db-slow): they take dbCallNs each
    if (slowNs !== undefined) {
      add(`dbSlowRead/${ch}`, dt * 300);
      add(`dbSlowWrite/${ch}`, dt * 40);
    }
  }
  add('msgsSent', dt * peers * 1.5);
  add('msgsRecv', dt * peers * 1.8);
  add('sendFail', unhealthy ? dt * 3 : dt * 0.01);
  add('gas', m.bootstrapped ? corethDt * 1.2e6 : 0);
  add('badBlocks', (corethDt / 60) * (m.active.extMetrics?.badBlocksPerMinute ?? 0));
  // bootstrapping: blocks fetched from peers (C 300/s, P and X 100/s), executed at half that pace
  for (const ch of CHAINS) {
    const fetch = m.bootstrapped ? 0 : dt * (ch === 'C' ? 300 : 100);
    add(`bsFetched/${ch}`, fetch);
    add(`bsExecuted/${ch}`, fetch / 2);
  }
  const c = (k: string) => Math.floor(s!.c.get(k) ?? 0);
  return { c, dt, slowNs: s.slowNs };
}

/** The v1.11.8+ samples of the node now, and how many constant timers follow them (timerSamples). */
function samples(m: ExtMetricsModel): { lines: Line[]; timers: number } {
  const { c, slowNs } = advance(m);
  const out: Line[] = [];
  const g = (name: string, labels: Record<string, string>, value: number, type = 'gauge') => out.push({ name, labels, value, type });
  const nowS = m.now() / 1000;
  const mainnet = m.peers().length >= 100;
  const peers = m.peers().length;
  const unhealthy = m.active.extMetrics?.degraded === true;
  const waveAt = (k: number, period: number, tS: number) => 0.5 + 0.5 * Math.sin((tS / period) * 2 * Math.PI + hf(m.seed, k) * 6.283);
  const wave = (k: number, period: number) => waveAt(k, period, nowS);
  // A chain that accepts nothing (consensus stuck): blocks keep arriving and wait, one more every 20 s (unless
  // they fail verification: `dropped`, execution-stalled).
  const stuck = (ch: 'P' | 'X' | 'C' | 'L1') => stuckBlocks(m.active, ch, m.now(), m.scenarioSinceMs);
  const shape = m.profile.metrics;

  for (const ch of CHAINS) {
    const L = { chain: ch };
    const acc = c(`accepted/${ch}`);
    g('avalanche_snowman_blks_accepted_count', L, acc, 'counter');
    g('avalanche_snowman_blks_accepted_sum', L, c(`acceptedNs/${ch}`));
    g('avalanche_snowman_blks_rejected_count', L, c(`rejected/${ch}`), 'counter');
    g('avalanche_snowman_blks_rejected_sum', L, c(`rejected/${ch}`) * 2e9);
    g('avalanche_snowman_blks_processing', L, !m.bootstrapped ? 0 : m.active.extMetrics?.blocksProcessing ?? (stuck(ch)?.processing ?? (unhealthy ? 3 + Math.floor(wave(1, 60) * 4) : Math.floor(wave(2, 30) * 2))));
    // consensus_latencies histogram (v1.14.2): 1 s … 8 s buckets
    if (shape.consensusLatencies) {
      const lat = [0.55, 0.85, 0.95, 0.98, 0.99, 0.995, 0.998, 1];
      lat.forEach((f, i) => g('avalanche_snowman_consensus_latencies_bucket', { ...L, le: `${i + 1}e+09` }, Math.floor(acc * f), 'histogram'));
      g('avalanche_snowman_consensus_latencies_bucket', { ...L, le: '+Inf' }, acc, 'histogram');
      g('avalanche_snowman_consensus_latencies_sum', L, c(`acceptedNs/${ch}`), 'histogram');
      g('avalanche_snowman_consensus_latencies_count', L, acc, 'histogram');
    }
    g('avalanche_snowman_polls_successful', L, c(`pollsOk/${ch}`), 'counter');
    g('avalanche_snowman_polls_failed', L, c(`pollsFail/${ch}`), 'counter');
    g('avalanche_snowman_polls', L, m.bootstrapped ? 1 + Math.floor(wave(3, 20) * 3) : 0);
    g('avalanche_snowman_poll_duration_count', L, c(`pollsOk/${ch}`) + c(`pollsFail/${ch}`), 'counter');
    g('avalanche_snowman_poll_duration_sum', L, c(`pollNs/${ch}`));
    // Terminated polls by reason: the successful ones end early on alpha (before v1.14.2 split into
    // confidence, 9 in 10, and preference), the failed ones early on failure.
    const ok = c(`pollsOk/${ch}`);
    const byReason: Record<string, number> = { early_alpha: ok, early_alpha_conf: ok - Math.floor(ok / 10), early_alpha_pref: Math.floor(ok / 10), early_fail: c(`pollsFail/${ch}`), exhausted: 0 };
    for (const reason of shape.pollReasons) g('avalanche_snowman_poll_count', { ...L, reason }, byReason[reason] ?? 0, 'counter');
    g('avalanche_snowman_last_accepted_height', L, m.height(ch));
    g('avalanche_snowman_last_accepted_timestamp', L, Math.floor(nowS) - (ch === 'C' ? 2 : 5));
    g('avalanche_snowman_bootstrap_finished', L, m.bootstrapped ? 1 : 0);
    g('avalanche_snowman_bs_fetched', L, c(`bsFetched/${ch}`), 'counter');
    g('avalanche_snowman_bs_accepted', L, c(`bsExecuted/${ch}`), 'counter');
    g('avalanche_snowman_blks_built', L, Math.floor(acc / 50), 'counter');
    g('avalanche_snowman_blks_build_accept_latency', L, 1.2e9);
    g('avalanche_handler_sync_unprocessed_msgs_count', { ...L, op: 'chits' }, unhealthy ? 40 : Math.floor(wave(4, 15) * 3));
    g('avalanche_handler_async_unprocessed_msgs_count', { ...L, op: 'app_request' }, Math.floor(wave(5, 15) * 2));
    const handled = c(`handled/${ch}`);
    HANDLER_OPS.forEach((op, i) => {
      if (!mainnet && i > 6) return;
      g('avalanche_handler_messages', { ...L, op }, Math.floor(handled / (i + 2)), 'counter');
      g('avalanche_handler_message_handling_time', { ...L, op }, Math.floor(handled / (i + 2)) * 150_000);
    });
    if (c(`expired/${ch}`) > 0) g('avalanche_handler_expired', { ...L, op: 'pull_query' }, c(`expired/${ch}`), 'counter');
    g('avalanche_benchlist_benched_num', L, unhealthy ? 4 : 0);
    // unhealthy-network: 4 validators with 22 % of the stake benched
    g('avalanche_benchlist_benched_weight', L, unhealthy ? 0.22 * STAKE_WEIGHT : 0);
    g('avalanche_stake_percent_connected', L, m.networking().percentConnected);
    g('avalanche_stake_total_weight', L, STAKE_WEIGHT);
    g('avalanche_meterchainvm_build_block_count', L, Math.floor(acc / 50), 'counter');
    g('avalanche_meterchainvm_build_block_sum', L, Math.floor(acc / 50) * 3e7);
    g('avalanche_meterchainvm_accept_count', L, acc, 'counter');
    g('avalanche_meterchainvm_accept_sum', L, acc * 2e6);
  }
  const reg = m.ownRegistration(Math.floor(nowS));
  g('avalanche_platformvm_time_until_unstake', { chain: 'P' }, reg ? Math.max(0, reg.end - Math.floor(nowS)) * 1e9 : 0);
  const up = m.uptime();
  g('avalanche_network_node_uptime_weighted_average', {}, up ? up.weighted : 0);
  g('avalanche_network_node_uptime_rewarding_stake', {}, up ? up.rewarding : 0);
  g('avalanche_network_peers', {}, peers);
  const sent = c('msgsSent');
  const recv = c('msgsRecv');
  NET_OPS.forEach((op, i) => {
    if (peers === 0 || (!mainnet && i > 4)) return;
    const share = 1 / (i + 2);
    for (const compressed of ['false', 'true']) {
      g('avalanche_network_msgs', { compressed, io: 'received', op }, Math.floor((recv * share) / 2), 'counter');
      g('avalanche_network_msgs', { compressed, io: 'sent', op }, Math.floor((sent * share) / 2), 'counter');
    }
    g('avalanche_network_msgs_bytes', { io: 'received', op }, Math.floor(recv * share) * 180, 'counter');
    g('avalanche_network_msgs_bytes', { io: 'sent', op }, Math.floor(sent * share) * 150, 'counter');
    g('avalanche_network_msgs_failed_to_send', { op }, Math.floor(c('sendFail') * share), 'counter');
  });
  for (const t of ['byte', 'bandwidth', 'buffer']) g(`avalanche_network_${t}_throttler_inbound_awaiting_acquire`, {}, unhealthy ? 5 : 0);
  g('avalanche_network_cpu_throttler_awaiting_acquire', {}, 0);
  g('avalanche_network_disk_throttler_awaiting_acquire', {}, 0);
  g('avalanche_network_inbound_conn_throttler_rate_limited', {}, Math.floor(c('msgsRecv') / 1e5), 'counter');
  g('avalanche_network_throttler_outbound_acquire_failures', {}, unhealthy ? c('sendFail') : 0, 'counter');
  g('avalanche_requests_outstanding', {}, m.bootstrapped ? Math.floor(wave(6, 20) * 30) : 0);
  g('avalanche_requests_average_latency', {}, (unhealthy ? 9e8 : 1.2e8) + wave(7, 120) * 5e7);
  for (const check of ['health', 'readiness', 'liveness']) g('avalanche_health_checks_failing', { check, tag: 'all' }, check === 'health' && (unhealthy || !m.bootstrapped) ? 2 : 0);
  g('avalanche_health_checks_failing', { check: 'health', tag: 'application' }, 0);
  const hours = (m.now() - m.t0) / 3.6e6;
  for (let level = 0; level < (mainnet ? 6 : 2); level++) g('avalanche_db_size', { level: String(level) }, Math.floor((level + 1) * 4e10 + hours * 1.5e8));
  for (const ch of ['all', ...CHAINS]) {
    const sum = (k: string) => (ch === 'all' ? CHAINS.reduce((s, x) => s + c(`${k}/${x}`), 0) : c(`${k}/${ch}`));
    const reads = sum('dbRead');
    const writes = sum('dbWrite');
    const slowReads = sum('dbSlowRead');
    const slowWrites = sum('dbSlowWrite');
    DB_METHODS.forEach((method, i) => {
      if (!mainnet && i > 5) return;
      const calls = (r: number, w: number) => (method === 'get' ? r : method === 'put' || method === 'batch_write' ? w : Math.floor(r / (i + 3)));
      const n = calls(reads, writes);
      const base = method === 'batch_write' ? 80_000 : 9_000;
      g('avalanche_meterdb_calls', { chain: ch, method }, n, 'counter');
      // the calls made while the database was slow took slowNs each (a counter: it never decreases)
      g('avalanche_meterdb_duration', { chain: ch, method }, n * base + calls(slowReads, slowWrites) * Math.max(0, (slowNs ?? base) - base));
      g('avalanche_meterdb_size', { chain: ch, method }, n * 120, 'counter');
    });
  }
  g('avalanche_resource_tracker_cpu_usage', {}, 1.5 + wave(8, 300) * 2);
  g('avalanche_resource_tracker_disk_reads', {}, 2e6 + wave(9, 60) * 1e6);
  g('avalanche_resource_tracker_disk_writes', {}, 4e6 + wave(10, 60) * 2e6);
  g('avalanche_resource_tracker_disk_available_space', {}, m.availableDisk().bytes);
  // v1.14.1+ (the same whole percent as the diskspace check's availableDiskPercentage)
  if (m.profile.diskPercentage) g('avalanche_resource_tracker_disk_available_percentage', {}, m.availableDisk().percent);
  g('avalanche_process_process_resident_memory_bytes', {}, Math.floor(6e9 + wave(11, 600) * 1e9));
  g('avalanche_process_process_open_fds', {}, Math.floor(2500 + peers + wave(12, 120) * 100));
  g('avalanche_process_process_max_fds', {}, 32768);
  // The L1 chain the node runs: its consensus series under its blockchain ID (a real v1.14.2 node
  // validating an L1 shows ~290 of them; the ones the exporter reads).
  const l1 = m.l1Running();
  if (l1) {
    const L = { chain: l1.id };
    g('avalanche_snowman_last_accepted_height', L, l1.height);
    // the time of the chain's last accepted block: it stays while the chain makes none (idle or stalled)
    g('avalanche_snowman_last_accepted_timestamp', L, Math.floor(Math.min(m.acceptedAtMs('L1', l1.height), m.now()) / 1000));
    g('avalanche_snowman_bootstrap_finished', L, m.bootstrapped ? 1 : 0);
    g('avalanche_snowman_blks_processing', L, m.bootstrapped ? (stuck('L1')?.processing ?? 0) : 0);
    // the share of the L1's stake the node is connected to, as the chain's health check reports it
    g('avalanche_stake_percent_connected', L, m.l1Networking().percentConnected);
  }
  // client_golang's process collector: 10 ms precision, as a real node shows it (1.79542435907e+09).
  g('avalanche_process_process_start_time_seconds', {}, Math.round(m.processStartMs / 10) / 100);
  g('avalanche_process_go_goroutines', {}, Math.floor(4000 + peers * 6 + wave(13, 60) * 200));
  const C = { chain: 'C' };
  g('avalanche_evm_eth_chain_block_gas_used_accepted', C, c('gas'), 'counter');
  g('avalanche_evm_eth_chain_block_bad_count', C, c('badBlocks'), 'counter');
  if (shape.ethChainHead) g('avalanche_evm_eth_chain_head_block', C, 0);
  // Coreth's tx pool: as it was at the switch to SAE, empty in a process started after it.
  const corethEndS = m.profile.saeFromUnix ?? Infinity;
  const pool = (k: number, max: number) => (m.processStartMs >= corethEndS * 1000 ? 0 : Math.floor(waveAt(k, 40, Math.min(nowS, corethEndS)) * max));
  g('avalanche_evm_eth_txpool_pending', C, pool(14, 800));
  g('avalanche_evm_eth_txpool_queued', C, pool(15, 60));
  // The C-Chain on SAE (v1.15.0 after Helicon): the TransitionVM's registry.
  if (saeActive(m)) out.push(...saeMetricLines(m));
  return { lines: out, timers: mainnet ? 1540 : 40 };
}

/**
 * coreth's geth registry: timers as summaries (6 quantiles + sum + count); hundreds at mainnet scale (12,320
 * of a mainnet node's 16,000 samples). Their values depend on nothing but their number, so each naming's text
 * is rendered once and kept: the benchmark's fleets ask a simulated node for /ext/metrics a thousand times
 * a cycle. They come last in the body, families of their own, as they did when rendered with the rest.
 */
function timerSamples(count: number): Line[] {
  const out: Line[] = [];
  const C = { chain: 'C' };
  for (let i = 0; i < count; i++) {
    const name = `avalanche_evm_eth_sim_timer_${i}`;
    for (const q of ['0.5', '0.75', '0.95', '0.99', '0.999', '0.9999']) out.push({ name, labels: { ...C, quantile: q }, value: Math.floor(1e6 * Number(q) * (1 + (i % 7))), type: 'summary' });
    out.push({ name: `${name}_sum`, labels: C, value: 1e9 * (i + 1), type: 'summary' });
    out.push({ name: `${name}_count`, labels: C, value: 1000 * (i + 1), type: 'summary' });
  }
  return out;
}

const TIMER_TEXT = new Map<string, string>();

/** The body of GET /ext/metrics in the given naming (default: the version's). */
export function extMetricsText(m: ExtMetricsModel, naming: MetricsNaming = m.profile.metrics.naming): string {
  const { lines, timers } = samples(m);
  const key = `${naming}/${timers}`;
  let timerText = TIMER_TEXT.get(key);
  if (timerText === undefined) TIMER_TEXT.set(key, (timerText = render(rename(timerSamples(timers), naming))));
  return render(rename(lines, naming)) + timerText;
}

