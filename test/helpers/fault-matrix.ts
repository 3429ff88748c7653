/**
 * The fault matrix: one row per (collector, fault), and the runner of a row (a good cycle, three
 * faulty ones, recovery), checking /metrics, success, the `result` of every request and the logs.
 */
import { expect } from 'vitest';
import { COLLECTOR_BY_NAME, COLLECTORS } from '../../src/collectors/index.js';
import { HttpError, normalStateOf } from '../../src/node-client/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { familyName, find, parseExposition, value, type ParsedExposition } from './exposition-parser.js';
import { startFaultNode, type FaultHandler, type FaultNode, type RequestInfo } from './fault-node.js';
import { FAULTS, MARKER, ROUTES, type FaultDef, type FaultName } from './fault-table.js';
import { startFixtureNode } from './fixture-node.js';
import { memoryLogger } from './log.js';
import { promtoolCheck } from './promtool.js';

export interface Row {
  readonly collector: string;
  readonly fault: FaultName;
  /** Shown in the test name. */
  readonly label: string;
  /** The `result` the faulted requests must be counted under ('ok': not a fault after all). */
  readonly result: FaultDef['result'] | 'ok';
  /** Per-method exceptions to `result` (e.g. node-info's getNodeID 404 is a normal state: a public server). */
  readonly resultByMethod?: Readonly<Record<string, FaultDef['result']>>;
  /** avax_collector_success of the collector while the fault lasts (1 = tolerated). */
  readonly success: 0 | 1;
  /** Narrower than the collector's route (e.g. info.getNodeID only). */
  readonly match?: (r: RequestInfo) => boolean;
  /** Replaces the fault's handler (exception rows with a specific body). */
  readonly handler?: FaultHandler;
  /**
   * Checks on /metrics while the fault lasts. Default: none of the collector's own families
   * (nothing from a bad answer, nothing stale).
   */
  readonly during?: (p: ParsedExposition, cycle: number) => void;
}

export const COLLECTOR_NAMES = COLLECTORS.map((c) => c.name);

/** Fixture cases of the node behind the fault proxy: open ACPs, so that info-acps has series to lose. */
const FAULT_FIXTURES: Readonly<Record<string, string>> = {
  'info.acps': 'open',
  // Chains still bootstrapping: info-is-bootstrapped asks them every cycle (a bootstrapped chain is
  // asked again only after the node restarts), so its faults are met.
  'info.isBootstrapped': 'not-bootstrapped',
};

/** The node of the fault matrix: the fault proxy in front of a fixture node (FAULT_FIXTURES); close() closes both. */
export async function startMatrixNode(): Promise<FaultNode> {
  const fixture = await startFixtureNode(FAULT_FIXTURES);
  const node = await startFaultNode(fixture.url);
  return {
    ...node,
    async close() {
      await node.close();
      await fixture.close();
    },
  };
}

/** Families a collector produces (from the descriptor table). */
export function familiesOf(collector: string): string[] {
  return DESCRIPTORS.filter((d) => d.collector === collector).map((d) => d.name);
}

/**
 * One row per (collector, fault). The exceptions, explicitly:
 * - connection refused is node-wide (a TCP port refuses every request, not one method): every
 *   collector fails and avax_up is 0; the per-route variant is the reset row (RST on the
 *   collector's requests only), where the other collectors stay at 1;
 * - a collector whose calls are all GETs (declared `healthCall`/`textCall`: health, node-metrics)
 *   reads a JSON-RPC error body or an id-mismatched envelope as no health report nor the Prometheus
 *   text format: the fault's `resultOnGet` (invalid_response, not rpc_error);
 * - a 404 means what the calls declare (their normal states: an API that is off, a method an older
 *   node lacks, a public server): a collector whose every call declares it succeeds (success 1, none
 *   of its series, counted as normal_state: info-acps, info-upgrades, index-last-accepted (then
 *   avax_index_available 0 everywhere), node-metrics (then avax_node_metrics_available 0), ...); one
 *   whose calls declare it only in part counts those as normal_state and fails for the others
 *   (node-info: info.getNodeID absent on a public server);
 * - validator-rewards judges the validations platform-validators publishes: when that one fails, it
 *   fails too, without a request of its own (DEPENDENTS);
 * - node-metrics: a JSON or empty body has no sample line: invalid_response;
 * - node-ip exports no family of its own: during its faults the ip label of avax_node_info is empty
 *   (nothing stale).
 */

/**
 * Collectors that fail, without a request, in the cycles where the collector they read fails. Not
 * derivable from a declaration: `reads` says which values a collector reads, not what it makes of a
 * failed run's value; validator-rewards judges the validations platform-validators publishes and fails
 * when that one's primary-network call failed in the cycle (`primaryFailed` in its value, checked in
 * its collect). Every other reader keeps its last value or goes on without it. The one list of this
 * behaviour: every matrix row checks it (each other collector stays at 1 unless listed here), and
 * test/faults/exceptions.test.ts checks that each dependent declares the read.
 */
export const DEPENDENTS: Readonly<Record<string, readonly string[]>> = { 'platform-validators': ['validator-rewards'] };

export function matrixRows(faults: readonly FaultName[]): Row[] {
  const rows: Row[] = [];
  for (const fault of faults) {
    for (const collector of COLLECTOR_NAMES) {
      const f: FaultDef = FAULTS[fault];
      let result: Row['result'] = f.result;
      let success: 0 | 1 = 0;
      let during: Row['during'];
      let resultByMethod: Row['resultByMethod'];
      const calls = COLLECTOR_BY_NAME.get(collector)!.calls;
      if (f.resultOnGet && calls.every((c) => c.kind !== 'rpc')) result = f.resultOnGet;
      if (collector === 'index-last-accepted' && fault === 'http404') during = indexUnavailable;
      if (fault === 'http404') {
        // What a 404 means comes from the calls' declared normal states (an API that is off, a method
        // an older node lacks): all of a collector's calls → success 1; some → those methods only.
        const absentOk = calls.filter((c) => normalStateOf(c, new HttpError(c.method, 404, '404 page not found\n')) !== undefined);
        if (absentOk.length === calls.length) {
          success = 1;
          result = 'normal_state';
        } else if (absentOk.length > 0) resultByMethod = Object.fromEntries(absentOk.map((c) => [c.method, 'normal_state' as const]));
        if (collector === 'node-metrics') during = metricsUnavailable;
      }
      // node-ip has no family of its own: what it published is the ip label of avax_node_info.
      if (collector === 'node-ip') during = ipLabelEmpty;
      rows.push({ collector, fault, label: f.name, result, success, during, resultByMethod });
    }
  }
  return rows;
}

/** GET /ext/metrics answered 404 (metrics API disabled): available 0, no node-internal series. */
export function metricsUnavailable(p: ParsedExposition): void {
  expect(find(p, 'avax_node_metrics_available').map((s) => s.value)).toEqual([0]);
  expect(find(p, 'avax_node_metrics_scheme')).toEqual([]);
  expect(find(p, 'avax_node_peers')).toEqual([]);
}

/**
 * node-ip failing or absent: avax_node_info keeps one series, with an empty ip label. node-info reads
 * node-ip's last value without waiting for it (readsLatest), so the first faulty cycle may still show
 * the address of the good one; from the second on it is empty.
 */
export function ipLabelEmpty(p: ParsedExposition, cycle: number): void {
  const ips = find(p, 'avax_node_info').map((s) => s.labels['ip']);
  // The node down (connection refused): no node series at all (the stale-value rule).
  if (value(p, 'avax_up', { target: TARGET }) === 0) return void expect(ips).toEqual([]);
  expect(ips).toHaveLength(1);
  if (cycle >= 2) expect(ips).toEqual(['']);
}

/** Index routes answered 404 or "empty": available 0 on every route, no index values. */
export function indexUnavailable(p: ParsedExposition): void {
  const avail = find(p, 'avax_index_available');
  expect(avail.map((s) => `${s.labels['chain']}/${s.labels['kind']}=${s.value}`).sort()).toEqual(['C/block=0', 'P/block=0', 'X/block=0']);
  expect(find(p, 'avax_index_last_accepted_index')).toEqual([]);
  expect(find(p, 'avax_index_last_accepted_timestamp_seconds')).toEqual([]);
}

export const TARGET = 'fault';

/**
 * Node deadline of the rows whose fault is a timeout. The other rows never wait for a deadline,
 * and use a longer one so that a loaded machine (CI, parallel test files) cannot make a good
 * answer late.
 */
export const SLOW_NODE_TIMEOUT = '200ms';
export const NODE_TIMEOUT = '2s';

/** Exporter flags of the matrix: node deadline, 1 s collector deadline, 64 KiB cap, every collector every cycle. */
export function matrixArgv(nodeUrl: string, extra: string[] = [], nodeTimeout = NODE_TIMEOUT): string[] {
  return [
    '--node.url', nodeUrl,
    '--node.name', TARGET,
    '--node.timeout', nodeTimeout,
    '--node.max-response-size', '64KiB',
    // Every default interval (15 s-5 m) rounds up to the 5 m base: every collector runs every cycle.
    '--collection.interval', '5m',
    '--collection.timeout', '1s',
    '--web.listen-address', '127.0.0.1:0',
    '--web.disable-exporter-metrics',
    // Every collector, also those off by default (admin-logger: the fixture node's Admin API answers).
    ...COLLECTORS.filter((c) => !c.enabled).map((c) => `--collector.${c.name}`),
    ...extra,
  ];
}

export interface Scraped extends ParsedExposition {
  readonly text: string;
}

export async function scrapeParsed(baseUrl: string): Promise<Scraped> {
  const r = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  const text = await r.text();
  return { text, ...parseExposition(text) };
}

type Counts = Map<string, Map<string, number>>;

export function rpcCounts(p: ParsedExposition): Counts {
  const out: Counts = new Map();
  for (const s of find(p, 'avax_rpc_requests_total', { target: TARGET })) {
    const m = s.labels['method']!;
    if (!out.has(m)) out.set(m, new Map());
    out.get(m)!.set(s.labels['result']!, s.value);
  }
  return out;
}

function delta(after: Counts, before: Counts, method: string, result?: string): number {
  const sum = (c: Counts) => {
    const m = c.get(method);
    if (!m) return 0;
    if (result) return m.get(result) ?? 0;
    let n = 0;
    for (const v of m.values()) n += v;
    return n;
  };
  return sum(after) - sum(before);
}

/** No label value and no collector value anywhere in /metrics carries the marker of a bad answer. */
export function expectNoMarker(p: ParsedExposition): void {
  const runner = new Set(DESCRIPTORS.filter((d) => d.collector === 'runner').map((d) => d.name));
  const leaks = p.samples.filter((s) => {
    const fam = familyName(s.name, p.families);
    return Object.values(s.labels).some((v) => v.includes(MARKER)) || (!runner.has(fam) && String(s.value).includes(MARKER));
  });
  expect(leaks.map((s) => `${s.name} ${JSON.stringify(s.labels)} ${s.value}`)).toEqual([]);
}

async function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(t);
  }
}

/** One cycle (optionally with a scrape while it runs: the server answers from the last snapshot), then a scrape after it. */
async function cycle(exp: Exporter, scrapeWhileRunning = false): Promise<Scraped> {
  const running = exp.collectOnce();
  if (scrapeWhileRunning) await scrapeParsed(exp.url);
  await bounded(running, 5_000, 'collection cycle');
  const p = await scrapeParsed(exp.url);
  expectNoMarker(p);
  return p;
}

function successOf(p: ParsedExposition): Record<string, number | undefined> {
  return Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, value(p, 'avax_collector_success', { target: TARGET, collector: c })]));
}

/** The collector_failed lines, for assertion messages. */
function failures(lines: Record<string, unknown>[]): string {
  return events(lines, 'collector_failed')
    .map((l) => `${String(l['collector'])}: ${String(l['err'])}`)
    .join('\n');
}

function events(lines: Record<string, unknown>[], event: string): Record<string, unknown>[] {
  return lines.filter((l) => l['event'] === event);
}

/**
 * Runs one matrix row against a fresh exporter: a good cycle, three cycles with the fault, one
 * good cycle again. Checks /metrics (served and valid in every cycle, promtool once), success
 * per collector, the `result` of every faulted request, one log line per state change, recovery,
 * and that nothing of the bad answers is exported.
 */
export async function runFaultRow(node: FaultNode, row: Row, extraArgv: string[] = []): Promise<void> {
  const f: FaultDef = FAULTS[row.fault];
  const nodeWide = !!f.nodeWide;
  const dependents = nodeWide ? [] : (DEPENDENTS[row.collector] ?? []);
  const log = memoryLogger('info');
  const { config } = loadConfig({ argv: matrixArgv(node.url, extraArgv, f.slow ? SLOW_NODE_TIMEOUT : NODE_TIMEOUT), env: {} });
  const exp = await startExporter({ config, logger: log.logger, schedule: false });
  node.clearFault();
  try {
    // Good cycle: every collector succeeds and exports its series.
    const base = await cycle(exp);
    expect(successOf(base), failures(log.lines())).toEqual(Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, 1])));
    const own = familiesOf(row.collector);
    const baseFamilies = own.filter((n) => base.families.has(n)).sort();
    // A collector without a family of its own (node-ip) is checked through `during`.
    if (own.length > 0) expect(baseFamilies.length, `baseline exports ${row.collector} series`).toBeGreaterThan(0);
    else expect(row.during, `${row.collector} has no family: its row needs a during check`).toBeDefined();
    const before = rpcCounts(base);

    // Fault.
    node.faulted.clear();
    if (nodeWide) await node.stop();
    else node.setFault(row.match ?? ROUTES[row.collector]!, (row.handler ?? f.handler)!);
    let linesAfterFirst = 0;
    let last: Scraped | undefined;
    for (let i = 1; i <= 3; i++) {
      const p = await cycle(exp, i === 1);
      last = p;
      const success = successOf(p);
      expect(success[row.collector], `cycle ${i}: success of ${row.collector}`).toBe(row.success);
      if (nodeWide) {
        expect(Object.values(success).every((v) => v === 0), `cycle ${i}: node-wide fault fails every collector`).toBe(true);
        expect(value(p, 'avax_up', { target: TARGET })).toBe(0);
      } else {
        for (const c of COLLECTOR_NAMES) if (c !== row.collector) expect(success[c], `cycle ${i}: ${c} is affected only through what it reads; ${failures(log.lines())}`).toBe(dependents.includes(c) ? row.success : 1);
        expect(value(p, 'avax_up', { target: TARGET })).toBe(1);
      }
      if (row.during) row.during(p, i);
      else for (const fam of own) expect(p.families.has(fam), `cycle ${i}: ${fam} is not exported during the fault`).toBe(false);
      const mine = log.lines().filter((l) => l['collector'] === row.collector);
      if (i === 1) linesAfterFirst = mine.length;
      else expect(mine.length, `cycle ${i}: no new log line of ${row.collector} (one per state change)`).toBe(linesAfterFirst);
    }
    expect(promtoolCheck(last!.text)).toMatch(/ok|skipped/);

    // Counted under the right result.
    const after = rpcCounts(last!);
    if (nodeWide) {
      let total = 0;
      for (const m of after.keys()) {
        const d = delta(after, before, m);
        total += d;
        expect(delta(after, before, m, f.result), `${m}: every request is ${f.result}`).toBe(d);
      }
      // A cycle ends after the first wave whose requests got no answer (the next would only wait for
      // their deadlines): at least one request per cycle.
      expect(total).toBeGreaterThanOrEqual(3);
    } else {
      expect(node.faulted.size, 'the fault was served').toBeGreaterThan(0);
      const resultOf = (m: string) => row.resultByMethod?.[m] ?? row.result;
      for (const [m, n] of node.faulted) {
        expect(n).toBeGreaterThanOrEqual(3);
        expect(delta(after, before, m, resultOf(m)), `${m}: ${n} faulted requests counted as ${resultOf(m)}`).toBe(n);
      }
      // Everything else answered ok.
      for (const m of after.keys()) {
        const failedHere = resultOf(m) === 'ok' ? 0 : (node.faulted.get(m) ?? 0);
        expect(delta(after, before, m) - delta(after, before, m, 'ok'), `${m}: no other failures`).toBe(failedHere);
      }
    }

    // One log line for the state change (none when tolerated), nothing for the others.
    const failed = events(log.lines(), 'collector_failed');
    // Every collector failed during a node-wide fault, and recovers.
    const expectedFailed = nodeWide ? COLLECTOR_NAMES : row.success === 0 ? [row.collector, ...dependents] : [];
    if (nodeWide) {
      // The collectors of the first wave log their failure; the others are marked unreachable with
      // the one target_down line. Never a line twice.
      const names = failed.map((l) => l['collector'] as string);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      expect(events(log.lines(), 'target_down')).toHaveLength(1);
    } else {
      expect(failed.map((l) => l['collector']).sort()).toEqual([...expectedFailed].sort());
    }
    if (!nodeWide && row.success === 0) expect(failed.find((l) => l['collector'] === row.collector)!['result']).toBe(row.result);

    // Recovery on the next good answer.
    node.clearFault();
    if (nodeWide) await node.start();
    const rec = await cycle(exp);
    expect(successOf(rec), failures(log.lines())).toEqual(Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, 1])));
    expect(own.filter((n) => rec.families.has(n)).sort()).toEqual(baseFamilies);
    const recovered = events(log.lines(), 'collector_recovered').map((l) => l['collector']);
    expect(recovered.sort()).toEqual([...expectedFailed].sort());
    if (row.collector === 'index-last-accepted') expect(find(rec, 'avax_index_available').every((s) => s.value === 1)).toBe(true);
  } finally {
    node.clearFault();
    if (nodeWide) await node.start().catch(() => {});
    await exp.stop();
  }
}

/** One throw-away cycle, so that the first row does not pay for module loading and JIT warm-up. */
export async function warmUp(nodeUrl: string): Promise<void> {
  const { config } = loadConfig({ argv: matrixArgv(nodeUrl, [], '5s'), env: {} });
  const exp = await startExporter({ config, logger: memoryLogger('silent').logger, schedule: false });
  await exp.collectOnce();
  await exp.stop();
}
