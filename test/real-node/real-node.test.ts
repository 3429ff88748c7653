/**
 * The exporter against the answers recorded from a real avalanchego v1.14.2 validator
 * (test/fixtures/real-node-v1.14.2/, replayed by test/helpers/recorded-node.ts): every collector
 * succeeds with the recorded values, and each point of the real-node semantics issue (stale values
 * while the node is down, recovery, pending health checks, non-validator uptime, normal states in
 * the request counters, observed-uptime quantiles) is checked on those answers, as they are or with
 * the one field changed that the point is about.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { matchesCall } from '../../src/collectors/define.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import { find, parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { promtoolCheck } from '../helpers/promtool.js';
import { memoryLogger } from '../helpers/log.js';
import { REAL_NODE_ID, recordedExchange, replayedRequests, startRecordedNode, type RecordedNode } from '../helpers/recorded-node.js';
import { RUNNER_METRICS } from '../../src/metrics/descriptors.js';

const NOW = Date.parse('2026-11-23T08:47:20Z'); // six seconds after the recording
const PRIMARY = '11111111111111111111111111111111LpoYY';
/** Collectors every one of whose declared calls the replay answers (recorded-node.ts replayedRequests). */
const RECORDED = (() => {
  const asked = replayedRequests();
  return new Set(COLLECTORS.filter((c) => c.calls.every((call) => asked.some((r) => matchesCall([call], r)))).map((c) => c.name));
})();
/** The collectors on by default whose calls were recorded: each must succeed on the recorded answers. */
const ALL_COLLECTORS = COLLECTORS.filter((c) => c.enabled && RECORDED.has(c.name)).map((c) => c.name);
/** What stays while a target does not answer (the issue's stale-value rule). */
/** The runner's own families (status, request counters, skipped ticks, build info): all a down node leaves. */
const EXPORTER_FAMILIES = new RegExp(`^(${RUNNER_METRICS.map((d) => d.name).join('|')})$`);

/**
 * Collectors with a call of which no answer was recorded (the recording predates issue 14's methods:
 * platform.getCurrentSupply, getTotalStake, getMinStake, getFeeState, getBalance, getRewardUTXOs,
 * getBlockchains, info.getNodeIP, ...): off here, tested on hand-built answers (test/fixtures) and
 * against the simulated node (test/scenarios).
 */
const NOT_RECORDED = COLLECTORS.filter((c) => !RECORDED.has(c.name)).map((c) => c.name);

async function exporterFor(node: RecordedNode, extraYaml = ''): Promise<Exporter> {
  const yaml = `web: { disableExporterMetrics: true }
node: { timeout: 2s }
collectors: {${NOT_RECORDED.map((c) => ` ${c}: { enabled: false }`).join(',')} }
targets:
  - { name: real, url: "${node.url}"${extraYaml} }
`;
  const { config } = loadConfig({ argv: ['--config.file', 'real.yaml'], env: {}, readFile: () => yaml });
  return startExporter({ config, logger: memoryLogger('silent').logger, now: () => NOW, listen: false, schedule: false });
}

async function cycle(e: Exporter): Promise<ParsedExposition> {
  await e.collectOnce();
  return parseExposition(e.current().text.toString('utf8'));
}

const success = (p: ParsedExposition, c: string) => value(p, 'avax_collector_success', { target: 'real', collector: c });
const rpc = (p: ParsedExposition, method: string, result: string) => value(p, 'avax_rpc_requests_total', { target: 'real', method, result });

describe('real node v1.14.2 (recorded answers)', () => {
  let node: RecordedNode;
  let exporter: Exporter | undefined;
  beforeAll(async () => {
    node = await startRecordedNode();
  });
  afterEach(async () => {
    await exporter?.stop();
    exporter = undefined;
    for (const f of ['health.json', 'health-readiness.json', 'info.uptime.json', 'index.getLastAccepted-P-block.json', 'info.acps.json']) {
      node.replace(f, undefined);
      node.edit(f, undefined);
    }
  });
  afterAll(async () => {
    await node.close();
  });

  it('default: every collector succeeds with the recorded values, and the output passes promtool', async () => {
    exporter = await exporterFor(node);
    const p = await cycle(exporter);
    expect(node.unmatched).toEqual([]);
    // node-metrics reads the node's own /ext/metrics: its heights are the APIs' (P 2, X 1, C 1).
    for (const chain of ['P', 'X', 'C']) {
      expect(value(p, 'avax_node_last_accepted_height', { target: 'real', chain }), chain).toBe(value(p, 'avax_chain_height', { target: 'real', chain }));
    }
    expect(value(p, 'avax_node_metrics_scheme', { target: 'real', scheme: 'v1.11.8' })).toBe(1);
    for (const c of ALL_COLLECTORS) expect(success(p, c), c).toBe(1);
    expect(value(p, 'avax_up', { target: 'real' })).toBe(1);
    const info = find(p, 'avax_node_info')[0]!;
    expect(info.labels).toMatchObject({ node_id: REAL_NODE_ID, version: 'avalanchego/1.14.2', network_id: '12345', network_name: 'local', rpc_protocol_version: '45' });
    expect(value(p, 'avax_chain_height', { chain: 'P' })).toBe(2);
    expect(value(p, 'avax_chain_height', { chain: 'C' })).toBe(1);
    expect(value(p, 'avax_chain_height', { chain: 'X' })).toBe(1);
    expect(value(p, 'avax_validator_stake_avax', { subnet: PRIMARY, node_id: REAL_NODE_ID })).toBe(2_000_000);
    expect(value(p, 'avax_validator_end_timestamp_seconds', { node_id: REAL_NODE_ID })).toBe(1822536000);
    expect(value(p, 'avax_validator_bls_key_matches', { node_id: REAL_NODE_ID })).toBe(1);
    expect(value(p, 'avax_uptime_weighted_average_ratio')).toBe(1);
    expect(value(p, 'avax_node_healthy')).toBe(1);
    // 10 checks in the recorded /ext/health (C, P, X, bls, bootstrapped, database, diskspace,
    // futureupgrade, network, router), every one has run: none pending.
    expect(find(p, 'avax_health_check_pending').map((s) => s.value)).toEqual(new Array(10).fill(0));
    expect(find(p, 'avax_health_check_healthy').every((s) => s.value === 1)).toBe(true);
    // 15 upgrade times in v1.14.2's info.upgrades (apricotPhase1 … helicon); Helicon unscheduled.
    expect(find(p, 'avax_network_upgrade_timestamp_seconds')).toHaveLength(15);
    expect(value(p, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(Infinity);
    expect(value(p, 'avax_index_last_accepted_index', { chain: 'P', kind: 'block' })).toBeGreaterThanOrEqual(0);
    expect(value(p, 'avax_l1_validator_fee_price_navax_per_second')).toBeGreaterThan(0);
    // No peers on the recorded single-node network: no quantiles, and 0 counted.
    expect(value(p, 'avax_peers')).toBe(0);
    expect(find(p, 'avax_peers_observed_uptime_ratio')).toEqual([]);
    // Nothing counted as an error on a healthy node.
    for (const s of find(p, 'avax_rpc_requests_total')) if (s.labels['result'] !== 'ok') expect(s.value, JSON.stringify(s.labels)).toBe(0);
    promtoolCheck(exporter.current().text);
  });

  it('behavior: node down → only avax_up 0, collector status and request counters; back → every collector runs at once', async () => {
    exporter = await exporterFor(node);
    await cycle(exporter); // start-up: everything
    await cycle(exporter); // a normal cycle: the 15 s collectors only
    await node.stop();
    try {
      const down = await cycle(exporter);
      expect(value(down, 'avax_up', { target: 'real' })).toBe(0);
      const names = new Set(down.families.keys());
      expect([...names].filter((n) => !EXPORTER_FAMILIES.test(n))).toEqual([]);
      // Collectors not due in this cycle (node-info: 60 s, the full list: 5 min) are not current either.
      for (const c of ALL_COLLECTORS) expect(success(down, c), c).toBe(0);
      expect(value(down, 'avax_collector_last_success_timestamp_seconds', { collector: 'platform-validators-full' })).toBe(NOW / 1000);
    } finally {
      await node.start();
    }
    const before = node.requests.length;
    const back = await cycle(exporter);
    const asked = node.requests.slice(before);
    expect(value(back, 'avax_up', { target: 'real' })).toBe(1);
    for (const c of ALL_COLLECTORS) expect(success(back, c), c).toBe(1);
    // The 5-min collectors ran in the recovery cycle itself: the full list and info.upgrades were asked.
    expect(asked.some((r) => r.file === 'platform.getCurrentValidators-all.json')).toBe(true);
    expect(asked.some((r) => r.rpc === 'info.upgrades')).toBe(true);
    expect(value(back, 'avax_subnet_validators', { subnet: PRIMARY })).toBe(find(back, 'avax_subnet_validators')[0]!.value);
    expect(value(back, 'avax_node_info', { node_id: REAL_NODE_ID })).toBe(1);
    // Then back to the spread schedule: the next cycle does not ask for the full list again.
    const mark = node.requests.length;
    await cycle(exporter);
    expect(node.requests.slice(mark).some((r) => r.file === 'platform.getCurrentValidators-all.json')).toBe(false);
  });

  it('behavior: checks that have not yet run (after a restart) are pending, not failing; avax_node_healthy is the node\'s verdict', async () => {
    const notYetRun = (body: string) => {
      const report = JSON.parse(body) as { checks: Record<string, unknown>; healthy: boolean };
      for (const k of Object.keys(report.checks)) report.checks[k] = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
      report.healthy = false;
      return JSON.stringify(report);
    };
    node.replace('health.json', { status: 503, body: notYetRun(recordedExchange('health.json').body), contentType: 'application/json' });
    node.replace('health-readiness.json', { status: 503, body: notYetRun(recordedExchange('health-readiness.json').body), contentType: 'application/json' });
    exporter = await exporterFor(node);
    const p = await cycle(exporter);
    expect(success(p, 'health')).toBe(1);
    expect(value(p, 'avax_node_healthy')).toBe(0);
    expect(value(p, 'avax_node_ready')).toBe(0);
    expect(value(p, 'avax_health_check_pending', { check: 'C' })).toBe(1);
    expect(value(p, 'avax_health_check_pending', { check: 'bootstrapped' })).toBe(1);
    // Neither healthy nor failing: no avax_health_check_healthy series at all.
    expect(find(p, 'avax_health_check_healthy')).toEqual([]);
    expect(find(p, 'avax_health_check_contiguous_failures')).toEqual([]);
    expect(rpc(p, 'GET /ext/health', 'ok')).toBe(1);
  });

  it.each([
    ['sybil protection on (mainnet, Fuji)', "couldn't get node uptime: node is not a validator"],
    ['sybil protection off (local and test networks)', "couldn't get node uptime: error while fetching local validator start time not found"],
  ])('behavior: info.uptime on a non-validator, %s → no series, no failure, counted as normal_state', async (_name, message) => {
    node.replace('info.uptime.json', { status: 200, body: `{"jsonrpc":"2.0","error":{"code":-32000,"message":${JSON.stringify(message)},"data":null},"id":1}\n` });
    exporter = await exporterFor(node);
    const p = await cycle(exporter);
    expect(success(p, 'info-uptime')).toBe(1);
    expect(find(p, 'avax_uptime_weighted_average_ratio')).toEqual([]);
    expect(rpc(p, 'info.uptime', 'normal_state')).toBe(1);
    expect(rpc(p, 'info.uptime', 'rpc_error')).toBe(0);
  });

  it('behavior: another info.uptime error is a failure and counted as rpc_error', async () => {
    node.replace('info.uptime.json', { status: 200, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"couldn\'t get node uptime: database closed","data":null},"id":1}\n' });
    exporter = await exporterFor(node);
    const p = await cycle(exporter);
    expect(success(p, 'info-uptime')).toBe(0);
    expect(rpc(p, 'info.uptime', 'rpc_error')).toBe(1);
  });

  it('behavior: an empty index, a disabled index and a method an older node lacks are normal states in the request counters', async () => {
    node.replace('index.getLastAccepted-P-block.json', { status: 200, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"no containers have been accepted","data":null},"id":1}\n' });
    node.replace('info.acps.json', { status: 200, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can\'t find method \\"info.Acps\\"","data":null},"id":1}\n' });
    exporter = await exporterFor(node);
    let p = await cycle(exporter);
    expect(success(p, 'index-last-accepted')).toBe(1);
    expect(value(p, 'avax_index_available', { chain: 'P', kind: 'block' })).toBe(0);
    expect(rpc(p, 'index.getLastAccepted', 'normal_state')).toBe(1);
    expect(success(p, 'info-acps')).toBe(1);
    expect(rpc(p, 'info.acps', 'normal_state')).toBe(1);
    expect(rpc(p, 'info.acps', 'rpc_error')).toBe(0);
    // Index disabled: the recorded plain 404 of a missing route (err-unknown-path.json's body).
    node.replace('index.getLastAccepted-P-block.json', { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' });
    // index-last-accepted runs every 60 s, in the phase the runner gave it: at most 8 cycles.
    for (let i = 0; i < 8 && (rpc(p, 'index.getLastAccepted', 'normal_state') ?? 0) < 2; i++) p = await cycle(exporter);
    expect(value(p, 'avax_index_available', { chain: 'P', kind: 'block' })).toBe(0);
    expect(rpc(p, 'index.getLastAccepted', 'http_error')).toBe(0);
    expect(rpc(p, 'index.getLastAccepted', 'normal_state')).toBe(2);
  });
});
