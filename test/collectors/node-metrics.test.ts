import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeMetrics, pickFromText } from '../../src/collectors/node-metrics.js';
import type { Sample } from '../../src/model.js';
import { HttpError, InvalidResponseError, NetworkError } from '../../src/node-client/index.js';
import { toV1_10, toV1_11_6 } from '../helpers/metrics-scheme-rewrite.js';
import { assertContract, fakeClient, lines, makeCtx, testSlot, valueOf } from './fake.js';

/** The real v1.14.2 node's /ext/metrics (test/fixtures/real-node-v1.14.2/README.md). */
const CAPTURE = readFileSync(fileURLToPath(new URL('../fixtures/real-node-v1.14.2/ext-metrics-v1.14.2.txt', import.meta.url)), 'utf8');

/** A real v1.15.0 node with Helicon active, before any C-Chain transaction (test/fixtures/real-node-v1.15.0/README.md). */
const SAE_IDLE = readFileSync(fileURLToPath(new URL('../fixtures/real-node-v1.15.0/ext-metrics.txt', import.meta.url)), 'utf8');
/** A real v1.15.0-fuji-rc.4 node under SAE after three C-Chain transfers (test/fixtures/real-node-helicon/README.md). */
const SAE_AFTER_TXS = (JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/real-node-helicon/p6-final/n2.ext_metrics.json', import.meta.url)), 'utf8')) as { body: string }).body;
/** A native sample's value in a body (its name and labels as the node wrote them). */
const nativeIn = (body: string, series: string): number | undefined => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const CORETH_ONLY = ['avax_node_cchain_gas_used_accepted_total', 'avax_node_cchain_bad_blocks_total', 'avax_node_cchain_txpool_pending', 'avax_node_cchain_txpool_queued'];

/**
 * Vector series an idle single-node network never touches (0 peers, nothing expired), in their v1.14.2
 * names and labels (avalanchego source: network/metrics.go, snow/networking/handler/metrics.go), so that
 * the op-folding of the older schemes is exercised too.
 */
const BUSY = [
  'avalanche_network_msgs{compressed="false",io="sent",op="pull_query"} 10',
  'avalanche_network_msgs{compressed="true",io="sent",op="pull_query"} 5',
  'avalanche_network_msgs{compressed="false",io="received",op="chits"} 7',
  'avalanche_network_msgs_bytes{io="sent",op="pull_query"} 1500',
  'avalanche_network_msgs_bytes{io="received",op="chits"} 700',
  'avalanche_handler_expired{chain="C",op="pull_query"} 3',
  'avalanche_handler_expired{chain="C",op="chits"} 2',
  'avalanche_handler_async_unprocessed_msgs_count{chain="C",op="app_request"} 4',
  '',
].join('\n');

/** Families added after v1.11.8 (consensus_latencies v1.14.2, poll_count v1.11.9): absent in older schemes. */
const NEWER = ['avax_node_consensus_latency_seconds', 'avax_node_polls_terminated_total'];
const olderView = (s: readonly Sample[]) => lines(s.filter((x) => !NEWER.some((n) => x.name.startsWith(n))));

describe('node-metrics: the real v1.14.2 capture', () => {
  const r = pickFromText(CAPTURE);
  it('default: scheme v1.11.8, every line read, every sample a declared family', () => {
    expect(r.scheme).toBe('v1.11.8');
    expect(r.stats.malformed).toBe(0);
    expect(r.stats.lines).toBe(CAPTURE.split('\n').filter((l, i, a) => i < a.length - 1 || l !== '').length);
    assertContract('node-metrics', r.samples);
  });
  it('default: the node\'s own values, in our units', () => {
    const s = r.samples;
    expect(['P', 'X', 'C'].map((c) => valueOf(s, 'avax_node_last_accepted_height', { chain: c }))).toEqual([2, 1, 1]);
    expect(valueOf(s, 'avax_node_bootstrap_finished', { chain: 'C' })).toBe(1);
    expect(valueOf(s, 'avax_node_handler_messages_total', { chain: 'P' })).toBe(460);
    expect(valueOf(s, 'avax_node_health_checks_failing', { check: 'health' })).toBe(4);
    expect(valueOf(s, 'avax_node_health_checks_failing', { check: 'readiness' })).toBe(1);
    expect(valueOf(s, 'avax_node_db_size_bytes')).toBe(16910);
    // get 110 + has 16 + iterator_next 16; put 6 + delete 2 + batch_write 9
    expect(valueOf(s, 'avax_node_db_operations_total', { chain: 'all', op: 'read' })).toBe(142);
    expect(valueOf(s, 'avax_node_db_operations_total', { chain: 'all', op: 'write' })).toBe(17);
    // ns → s: 1.176444e+06 + 411418 + 161736
    expect(valueOf(s, 'avax_node_db_operation_seconds_total', { chain: 'all', op: 'read' })).toBe(0.001749598);
    expect(valueOf(s, 'avax_node_stake_connected_ratio', { chain: 'P' })).toBe(1);
    expect(valueOf(s, 'avax_node_resident_memory_bytes')).toBe(80777216);
    expect(valueOf(s, 'avax_node_goroutines')).toBe(100);
    expect(valueOf(s, 'avax_node_open_fds')).toBe(24);
    expect(valueOf(s, 'avax_node_disk_available_bytes')).toBe(81445638144);
    // avalanche_resource_tracker_disk_available_percentage 30 (v1.14.1+): a whole percent → ratio
    expect(valueOf(s, 'avax_node_disk_available_ratio')).toBe(0.3);
    expect(valueOf(s, 'avax_node_time_until_unstake_seconds')).toBe(0);
    expect(valueOf(s, 'avax_node_consensus_latency_seconds_bucket', { chain: 'C', le: '1' })).toBe(0);
    expect(valueOf(s, 'avax_node_consensus_latency_seconds_bucket', { chain: 'C', le: '+Inf' })).toBe(0);
  });
  it('behavior: a vector nothing touched is absent, never 0 (handler_expired, network msgs)', () => {
    expect(r.samples.some((x) => x.name === 'avax_node_handler_expired_messages_total')).toBe(false);
    expect(r.samples.some((x) => x.name === 'avax_node_network_messages_total')).toBe(false);
    expect(valueOf(r.samples, 'avax_node_handler_unprocessed_messages', { chain: 'C', queue: 'async' })).toBeUndefined();
  });
  it('behavior: evm_eth_chain_head_block (reads 0 on real nodes) is not exported; the C height comes from snowman', () => {
    expect(r.samples.some((x) => /head_block/.test(x.name))).toBe(false);
  });
  it('behavior: only P, X, C (and all for the database); labels summed away', () => {
    const chains = new Set(r.samples.flatMap((x) => (x.labels['chain'] === undefined ? [] : [x.labels['chain']])));
    expect([...chains].sort()).toEqual(['C', 'P', 'X', 'all']);
    expect(r.samples.every((x) => x.labels['chain'] !== 'all' || x.name.startsWith('avax_node_db_'))).toBe(true);
    expect(r.samples.some((x) => 'op' in x.labels && x.labels['op'] !== 'read' && x.labels['op'] !== 'write')).toBe(false);
  });
});

describe('node-metrics: the same values from every naming scheme', () => {
  const c = pickFromText(CAPTURE + BUSY);
  it('default: v1.11.6–v1.11.7 names give the same stable series', () => {
    const b = pickFromText(toV1_11_6(CAPTURE + BUSY));
    expect(b.scheme).toBe('v1.11.6');
    assertContract('node-metrics', b.samples);
    expect(olderView(b.samples)).toEqual(olderView(c.samples));
  });
  it('default: v1.10.x names (ops and methods in names) give the same stable series', () => {
    const a = pickFromText(toV1_10(CAPTURE + BUSY));
    expect(a.scheme).toBe('v1.10.0');
    assertContract('node-metrics', a.samples);
    expect(olderView(a.samples)).toEqual(olderView(c.samples));
  });
  it('default: the busy vectors are summed as documented', () => {
    expect(valueOf(c.samples, 'avax_node_network_messages_total', { direction: 'sent' })).toBe(15);
    expect(valueOf(c.samples, 'avax_node_network_messages_total', { direction: 'received' })).toBe(7);
    expect(valueOf(c.samples, 'avax_node_network_message_bytes_total', { direction: 'sent' })).toBe(1500);
    expect(valueOf(c.samples, 'avax_node_handler_expired_messages_total', { chain: 'C' })).toBe(5);
    expect(valueOf(c.samples, 'avax_node_handler_unprocessed_messages', { chain: 'C', queue: 'async' })).toBe(4);
  });
  it('behavior: the rewrite really changed the names (no v1.11.8 name left in the older bodies)', () => {
    for (const body of [toV1_11_6(CAPTURE), toV1_10(CAPTURE)]) {
      expect(body).not.toMatch(/^avalanche_(snowman|meterdb|meterchainvm|handler|benchlist|platformvm|evm|stake_percent)_/m);
      expect(body).not.toMatch(/^avalanche_process_(process|go)_/m);
    }
    expect(toV1_10(CAPTURE)).toMatch(/^avalanche_db_get_count /m);
    expect(toV1_10(CAPTURE)).toMatch(/^avalanche_C_handler_chits_count /m);
  });
});

describe('node-metrics: units, traps and bounds', () => {
  it('behavior: nanoseconds → seconds, 0–100 percent → 0–1 ratio', () => {
    const r = pickFromText(
      ['avalanche_platformvm_time_until_unstake{chain="P"} 8.64e+13', 'avalanche_network_node_uptime_weighted_average 99.5', 'avalanche_network_node_uptime_rewarding_stake 80', 'avalanche_requests_average_latency 2.5e+08', 'avalanche_snowman_blks_processing{chain="C"} 1'].join('\n'),
    );
    expect(valueOf(r.samples, 'avax_node_time_until_unstake_seconds')).toBe(86400);
    expect(valueOf(r.samples, 'avax_node_uptime_weighted_average_ratio')).toBe(0.995);
    expect(valueOf(r.samples, 'avax_node_uptime_rewarding_stake_ratio')).toBe(0.8);
    expect(valueOf(r.samples, 'avax_node_request_latency_average_seconds')).toBe(0.25);
  });
  it('behavior: v1.11.6 avalanche_db_size{method} (meterdb bytes) is not the database size', () => {
    const r = pickFromText('avalanche_C_blks_processing 0\navalanche_db_calls{method="get"} 1\navalanche_db_size{method="get"} 999\navalanche_db_internal_size{level="0"} 5\navalanche_db_internal_size{level="1"} 7\n');
    expect(r.scheme).toBe('v1.11.6');
    expect(valueOf(r.samples, 'avax_node_db_size_bytes')).toBe(12);
  });
  it('behavior: the whole-node DB meter of v1.13.1–v1.14.0 (all_calls, no prefix) is chain="all"', () => {
    const r = pickFromText('avalanche_snowman_blks_processing{chain="C"} 0\nall_calls{method="get"} 4\nall_calls{method="put"} 2\nall_duration{method="get"} 4000\n');
    expect(valueOf(r.samples, 'avax_node_db_operations_total', { chain: 'all', op: 'read' })).toBe(4);
    expect(valueOf(r.samples, 'avax_node_db_operation_seconds_total', { chain: 'all', op: 'read' })).toBe(0.000004);
  });
  it('behavior: health failing counts only tag="all" (not application, not per subnet)', () => {
    const r = pickFromText('avalanche_health_checks_failing{check="health",tag="all"} 2\navalanche_health_checks_failing{check="health",tag="application"} 9\n');
    expect(lines(r.samples)).toEqual(['avax_node_health_checks_failing{check="health"} 2']);
  });
  it('behavior: chains: P/X/C blockchain IDs become aliases, a watched chain is kept, any other dropped', () => {
    const L1 = '2Y3yGzJ9nB1DxuUgWL87W3HuXpM3AHcWqiUVsJkWNFvqRgDj5n';
    const body = [
      'avalanche_snowman_last_accepted_height{chain="2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CmH8ttsqiv6Rcb7oQaT"} 10',
      `avalanche_snowman_last_accepted_height{chain="${L1}"} 20`,
      'avalanche_snowman_last_accepted_height{chain="somethingElse"} 30',
    ].join('\n');
    expect(lines(pickFromText(body).samples)).toEqual(['avax_node_last_accepted_height{chain="C"} 10']);
    expect(lines(pickFromText(body, [L1]).samples)).toEqual([`avax_node_last_accepted_height{chain="${L1}"} 20`, 'avax_node_last_accepted_height{chain="C"} 10']);
    expect(lines(pickFromText(`avalanche_${L1}_last_accepted_height 5\navalanche_X_last_accepted_height 6\n`, [L1]).samples)).toEqual([
      `avax_node_last_accepted_height{chain="${L1}"} 5`,
      'avax_node_last_accepted_height{chain="X"} 6',
    ]);
  });
  it('behavior: a histogram is kept only whole and consistent (+Inf, _sum, _count, non-decreasing buckets)', () => {
    const h = (b1: number, inf: number, count: number, withSum = true) =>
      [
        `avalanche_snowman_consensus_latencies_bucket{chain="C",le="1e+09"} ${b1}`,
        `avalanche_snowman_consensus_latencies_bucket{chain="C",le="+Inf"} ${inf}`,
        ...(withSum ? ['avalanche_snowman_consensus_latencies_sum{chain="C"} 3e+09'] : []),
        `avalanche_snowman_consensus_latencies_count{chain="C"} ${count}`,
      ].join('\n');
    const names = (text: string) => pickFromText(text).samples.map((x) => `${x.name}${x.labels['le'] ? `{le=${x.labels['le']}}` : ''} ${x.value}`);
    expect(names(h(2, 3, 3))).toEqual([
      'avax_node_consensus_latency_seconds_bucket{le=1} 2',
      'avax_node_consensus_latency_seconds_bucket{le=+Inf} 3',
      'avax_node_consensus_latency_seconds_sum 3',
      'avax_node_consensus_latency_seconds_count 3',
    ]);
    expect(names(h(2, 3, 4))).toEqual([]);
    expect(names(h(5, 3, 3))).toEqual([]);
    expect(names(h(2, 3, 3, false))).toEqual([]);
    expect(names('avalanche_snowman_consensus_latencies_bucket{chain="C",le="7e+09"} 0')).toEqual([]);
  });
  it('behavior: only generic names (same in every version) → scheme unknown, values still read', () => {
    const r = pickFromText('avalanche_network_peers 12\n');
    expect(r.scheme).toBeUndefined();
    expect(lines(r.samples)).toEqual(['avax_node_peers 12']);
  });
  it('behavior: a tie between v1.10.0 and v1.11.6 goes to the scheme of the node version', () => {
    const body = 'avalanche_C_blks_processing 3\n';
    expect(pickFromText(body).scheme).toBe('v1.11.6');
    expect(pickFromText(body, [], 'v1.10.0').scheme).toBe('v1.10.0');
  });
});

describe('node-metrics: the C-Chain under SAE (real v1.15.0 nodes)', () => {
  const idle = pickFromText(SAE_IDLE);
  const busy = pickFromText(SAE_AFTER_TXS);
  it('default: scheme v1.11.8, C-Chain VM sae, every line read, every sample a declared family', () => {
    for (const r of [idle, busy]) {
      expect(r.scheme).toBe('v1.11.8');
      expect(r.cchainVm).toBe('sae');
      expect(r.stats.malformed).toBe(0);
      assertContract('node-metrics', r.samples);
    }
  });
  it("behavior: Coreth's registry, exported frozen beside SAE's, gives no series (absent, not 0)", () => {
    for (const body of [SAE_IDLE, SAE_AFTER_TXS]) {
      expect(nativeIn(body, 'avalanche_evm_eth_chain_block_gas_used_accepted{chain="C"}')).toBe(0);
      expect(nativeIn(body, 'avalanche_evm_eth_txpool_pending{chain="C"}')).toBe(0);
    }
    for (const n of CORETH_ONLY) for (const r of [idle, busy]) expect(r.samples.filter((x) => x.name === n), n).toEqual([]);
  });
  it("default: after three transfers: the node's executed, settled and accepted heights and gas, in our units", () => {
    const s = busy.samples;
    expect(valueOf(s, 'avax_node_last_accepted_height', { chain: 'C' })).toBe(3);
    expect(valueOf(s, 'avax_node_cchain_last_executed_height')).toBe(3);
    expect(valueOf(s, 'avax_node_cchain_last_settled_height')).toBe(0);
    expect(valueOf(s, 'avax_node_cchain_executed_gas_charged_total')).toBe(63000); // 3 × 21,000
    expect(valueOf(s, 'avax_node_cchain_executed_gas_limit_total')).toBe(6e7);
    expect(valueOf(s, 'avax_node_cchain_accepted_gas_limit_total')).toBe(6e7);
    expect(valueOf(s, 'avax_node_cchain_execution_queue_blocks')).toBe(0);
    expect(valueOf(s, 'avax_node_cchain_execution_queue_gas_limit')).toBe(0);
    expect(valueOf(s, 'avax_node_cchain_gas_time_wall_time_gap_seconds')).toBe(-0.517589298);
    expect(valueOf(s, 'avax_node_cchain_min_block_delay_seconds')).toBe(2);
    expect(valueOf(s, 'avax_node_cchain_gas_target_per_second')).toBe(1e6);
    expect(valueOf(s, 'avax_node_cchain_executed_base_fee_wei')).toBe(1);
    expect(valueOf(s, 'avax_node_cchain_execution_queue_duration_seconds_count')).toBe(3);
    expect(valueOf(s, 'avax_node_cchain_execution_queue_duration_seconds_sum')).toBe(0.075723852);
    expect(valueOf(s, 'avax_node_cchain_execute_block_duration_seconds_bucket', { le: '+Inf' })).toBe(3);
    expect(s.filter((x) => x.name === 'avax_node_cchain_execute_block_duration_seconds_bucket').map((x) => x.labels['le'])).toEqual([
      '0.0005', '0.001', '0.002', '0.004', '0.008', '0.016', '0.032', '0.064', '0.128', '0.256', '0.512', '1.024', '2.048', '4.096', '8.192', '16.384', '+Inf',
    ]);
  });
  it('behavior: before the first executed block the gas-time gap is MaxInt64 ns: no series (and -MaxInt64 neither); a real gap is kept', () => {
    expect(nativeIn(SAE_IDLE, 'avalanche_evm_transition_sae_gas_time_wall_time_gap_seconds{chain="C"}')).toBe(9223372036.854776);
    expect(idle.samples.filter((x) => x.name === 'avax_node_cchain_gas_time_wall_time_gap_seconds')).toEqual([]);
    const gap = (v: string) => pickFromText(`avalanche_evm_transition_sae_gas_time_wall_time_gap_seconds{chain="C"} ${v}\n`).samples.map((x) => x.value);
    expect(gap('-9.223372036854776e+09')).toEqual([]);
    expect(gap('9.223372036854776e+09')).toEqual([]);
    expect(gap('3.5')).toEqual([3.5]);
    expect(gap('-86400')).toEqual([-86400]);
  });
  it('behavior: one SAE family in the body is enough to drop the Coreth series; without one they stay (Coreth)', () => {
    const coreth = 'avalanche_evm_eth_chain_block_gas_used_accepted{chain="C"} 5\navalanche_evm_eth_txpool_pending{chain="C"} 2\n';
    expect(pickFromText(coreth).cchainVm).toBe('coreth');
    expect(lines(pickFromText(coreth).samples)).toEqual(['avax_node_cchain_gas_used_accepted_total 5', 'avax_node_cchain_txpool_pending 2']);
    const both = pickFromText(`${coreth}avalanche_evm_transition_sae_last_settled_height{chain="C"} 7\n`);
    expect(both.cchainVm).toBe('sae');
    expect(lines(both.samples)).toEqual(['avax_node_cchain_last_settled_height 7']);
    // The real v1.14.2 node: Coreth, no SAE series.
    const real = pickFromText(CAPTURE);
    expect(real.cchainVm).toBe('coreth');
    expect(valueOf(real.samples, 'avax_node_cchain_gas_used_accepted_total')).toBe(0);
    expect(real.samples.some((x) => /_cchain_(last_executed|execution_|executed_)/.test(x.name))).toBe(false);
  });
  it("behavior: another chain's SAE-named family (an L1's) is neither read nor taken for the C-Chain's", () => {
    const L1 = '2Y3yGzJ9nB1DxuUgWL87W3HuXpM3AHcWqiUVsJkWNFvqRgDj5n';
    const r = pickFromText(`avalanche_evm_eth_txpool_pending{chain="C"} 2\navalanche_evm_transition_sae_last_executed_height{chain="${L1}"} 9\n`, [L1]);
    expect(r.cchainVm).toBe('coreth');
    expect(lines(r.samples)).toEqual(['avax_node_cchain_txpool_pending 2']);
  });
});

/** A client answering GET /ext/metrics with a body (streamed in `pieces`) or an error. */
const textClient = (answer: string | Error, pieces = 7) => fakeClient({}, {}, { '/ext/metrics': answer }, { pieces });

describe('node-metrics collect', () => {
  it('default: GET /ext/metrics streamed in pieces gives what the whole body gives, plus scheme and availability', async () => {
    const { client, calls } = textClient(CAPTURE, 13);
    const { ctx } = makeCtx(nodeMetrics, client, { values: { 'node-info': { version: { version: 'avalanchego/1.14.2' } as never } } });
    const r = await nodeMetrics.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.endpoint)).toEqual(['/ext/metrics']);
    expect(r.value).toMatchObject({ available: true, scheme: 'v1.11.8' });
    // The node's own connected-stake share per chain, for avax_subnet_connected_stake_ratio.
    expect([...(r.value?.stakeConnected?.keys() ?? [])].sort()).toEqual(['C', 'P', 'X']);
    assertContract('node-metrics', r.samples);
    expect(lines(r.samples.slice(0, 3))).toEqual(['avax_node_metrics_available 1', 'avax_node_metrics_scheme{scheme="v1.11.8"} 1', 'avax_node_cchain_vm{vm="coreth"} 1']);
    expect(lines(r.samples.slice(3))).toEqual(lines(pickFromText(CAPTURE).samples));
  });
  it("default: under SAE, the C-Chain's VM and its accepted and executed heights of the same body (for avax_cchain_execution_lag_blocks); none on Coreth", async () => {
    const sae = await nodeMetrics.collect(makeCtx(nodeMetrics, textClient(SAE_AFTER_TXS).client).ctx);
    expect(lines(sae.samples.slice(0, 3))).toEqual(['avax_node_metrics_available 1', 'avax_node_metrics_scheme{scheme="v1.11.8"} 1', 'avax_node_cchain_vm{vm="sae"} 1']);
    expect(sae.value?.cchainExecution).toEqual({ accepted: 3, executed: 3 });
    const coreth = await nodeMetrics.collect(makeCtx(nodeMetrics, textClient(CAPTURE).client).ctx);
    expect(lines(coreth.samples).filter((l) => l.startsWith('avax_node_cchain_vm'))).toEqual(['avax_node_cchain_vm{vm="coreth"} 1']);
    expect(coreth.value?.cchainExecution).toBeUndefined();
  });
  it('behavior (memory): targets watching the same chains share one name index; other chains get their own', async () => {
    const indexOf = async (chains: string[]) => {
      const slot = testSlot(nodeMetrics);
      const { ctx } = makeCtx(nodeMetrics, textClient(CAPTURE).client, { slot, target: { chains } });
      await nodeMetrics.collect(ctx);
      return (slot.memory as { index?: { index: unknown } }).index?.index;
    };
    const a = await indexOf([]);
    expect(a).toBeDefined();
    expect(await indexOf([])).toBe(a);
    const l1 = await indexOf(['2XDnKyAEr1RhhWpTpMXqPjyu7Sr16YSyhoEbeVvnjdDHVKnrh']);
    expect(l1).not.toBe(a);
    expect(await indexOf(['2XDnKyAEr1RhhWpTpMXqPjyu7Sr16YSyhoEbeVvnjdDHVKnrh'])).toBe(l1);
  });
  it('behavior: 404 (metrics API disabled) is a normal state: available 0, no other series, no failure', async () => {
    const err = new HttpError('GET /ext/metrics', 404, '404 page not found');
    const { client, calls } = textClient(err);
    const { ctx, lines: logged } = makeCtx(nodeMetrics, client);
    const r = await nodeMetrics.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples)).toEqual(['avax_node_metrics_available 0']);
    expect(calls[0]!.normal?.(err)).toBe(true);
    expect(logged.filter((l) => l.level === 'info')).toHaveLength(1);
    await nodeMetrics.collect(ctx);
    expect(logged.filter((l) => l.level === 'info')).toHaveLength(1);
  });
  it('error: any other failure fails the collector with no series (no stale value)', async () => {
    for (const err of [new HttpError('GET /ext/metrics', 500, 'boom'), new NetworkError('GET /ext/metrics', 'ECONNRESET')]) {
      const { client, calls } = textClient(err);
      const { ctx } = makeCtx(nodeMetrics, client);
      const r = await nodeMetrics.collect(ctx);
      expect(r.errors).toEqual([err]);
      expect(r.samples).toEqual([]);
      expect(calls[0]!.normal?.(err)).toBe(false);
    }
  });
  it('behavior: a body with nothing we know → scheme unknown, available 1', async () => {
    const { client } = textClient('# HELP x y\nsomething_else 1\n');
    const { ctx } = makeCtx(nodeMetrics, client);
    const r = await nodeMetrics.collect(ctx);
    expect(lines(r.samples)).toEqual(['avax_node_metrics_available 1', 'avax_node_metrics_scheme{scheme="unknown"} 1']);
  });
  it('error: a body without one sample line (JSON, empty) is not the text format: invalid response, no series', async () => {
    for (const [body, why] of [['{"jsonrpc":"2.0","result":{"healthy":true}}', 'no sample line'], ['', 'empty body']] as const) {
      const { client } = textClient(body);
      const { ctx } = makeCtx(nodeMetrics, client);
      const r = await nodeMetrics.collect(ctx);
      expect(r.samples).toEqual([]);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toBeInstanceOf(InvalidResponseError);
      expect(r.errors[0]!.message).toContain(why);
    }
  });
  it('default: the fixture served by the test nodes reads like the whole capture plus the busy vectors', () => {
    const served = readFileSync(fileURLToPath(new URL('../fixtures/ext-metrics/default.txt', import.meta.url)), 'utf8');
    const [subset, extra] = served.split(/^# Not in the capture.*$/m) as [string, string];
    expect(lines(pickFromText(subset).samples)).toEqual(lines(pickFromText(CAPTURE).samples));
    expect(extra.trim()).toBe(BUSY.trim());
    expect(lines(pickFromText(served).samples)).toEqual(lines(pickFromText(CAPTURE + BUSY).samples));
  });
  it('behavior: watched chains of the target are kept', async () => {
    const L1 = '2Y3yGzJ9nB1DxuUgWL87W3HuXpM3AHcWqiUVsJkWNFvqRgDj5n';
    const { client } = textClient(`avalanche_snowman_blks_processing{chain="${L1}"} 2\n`);
    const { ctx } = makeCtx(nodeMetrics, client, { target: { chains: [L1] } });
    const r = await nodeMetrics.collect(ctx);
    expect(valueOf(r.samples, 'avax_node_blocks_processing', { chain: L1 })).toBe(2);
  });
});
