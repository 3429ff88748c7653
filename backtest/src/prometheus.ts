// The TSDB side: OpenMetrics files backfilled into blocks by promtool, a real Prometheus started on
// those blocks (loopback, no scrape, no rule: it only answers queries), and its HTTP query API.
// Retention is 100 years (Prometheus measures retention from the newest block, and the simulated
// weeks are in the past); blocks are not compacted further (a hidden flag keeps the largest block
// at 2 h), so the start costs nothing. Its lookback is one scrape interval (stalenessLookbackMs): the
// backfilled series go stale where a live scrape's would.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WrittenFile } from './openmetrics.js';
import { freePort, need, runProgram, startService, type Service } from './programs.js';

/** promtool's block duration for the backfill (and the OpenMetrics file window): 18 h (2 h × 3²). */
export const BLOCK_MS = 18 * 3_600_000;

/** Backfills OpenMetrics files into `dataDir` (one promtool run per file); removes each file after. */
export async function backfill(files: readonly WrittenFile[], dataDirIn: string, opts: { keepFiles?: boolean } = {}): Promise<{ wallMs: number; samples: number }> {
  const promtool = need('promtool', 'backfilling the simulated series');
  const dataDir = resolve(dataDirIn);
  mkdirSync(dataDir, { recursive: true });
  const started = performance.now();
  let samples = 0;
  for (const f of files) {
    const out = await runProgram(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', `--max-block-duration=${BLOCK_MS / 3_600_000}h`, f.path, dataDir], { timeoutMs: 10 * 60_000 });
    if (out.code !== 0) throw new Error(`promtool tsdb create-blocks-from openmetrics ${f.path} failed (${out.code}):\n${(out.stderr || out.stdout).slice(-3000)}`);
    samples += f.samples;
    if (!opts.keepFiles) rmSync(f.path, { force: true });
  }
  return { wallMs: performance.now() - started, samples };
}

export interface Sample {
  readonly t: number; // ms
  readonly v: number;
}
export interface Series {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: readonly Sample[];
}

export interface PromServer {
  readonly url: string;
  readonly service: Service;
  /** query_range (one call: at most 11,000 steps) */
  queryRange(expr: string, startMs: number, endMs: number, stepMs: number): Promise<Series[]>;
  /** an instant query returning a range vector's raw samples (`{…}[5m]` at `atMs`) */
  queryRaw(expr: string, atMs: number): Promise<Series[]>;
  stop(): Promise<void>;
}

const num = (s: string): number => (s === '+Inf' ? Infinity : s === '-Inf' ? -Infinity : Number(s));

async function api(base: string, path: string, params: Record<string, string>, timeoutMs: number): Promise<unknown> {
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await r.json()) as { status: string; data?: unknown; error?: string };
  if (body.status !== 'success') throw new Error(`${path} ${params['query']?.slice(0, 200)}: ${body.error ?? r.status}`);
  return body.data;
}

function matrix(data: unknown): Series[] {
  const d = data as { resultType: string; result: { metric: Record<string, string>; values?: [number, string][]; value?: [number, string] }[] };
  if (d.resultType === 'vector') return d.result.map((s) => ({ metric: s.metric, values: s.value ? [{ t: Math.round(s.value[0] * 1000), v: num(s.value[1]) }] : [] }));
  if (d.resultType !== 'matrix') throw new Error(`expected a matrix, got ${d.resultType}`);
  return d.result.map((s) => ({ metric: s.metric, values: (s.values ?? []).map(([t, v]) => ({ t: Math.round(t * 1000), v: num(v) })) }));
}

/**
 * The query lookback that makes the backfilled series go stale where a live Prometheus would mark them stale.
 * promtool's OpenMetrics backfill writes no staleness marker (OpenMetrics has no way to write one: a `NaN` is an
 * ordinary NaN), so with Prometheus' default lookback of 5 minutes a series whose scrapes stop (the exporter
 * stopped, a failed scrape, a series the exporter no longer renders) stays visible for 5 minutes after its last
 * sample: `absent()` turned true 5 minutes late. A live Prometheus writes a staleness marker for every series of
 * the previous scrape that the next scrape lacks, a failed scrape included (scrape.go: "a failed scrape is the
 * same as an empty scrape"), so the series is gone from that next scrape on. The backfilled scrapes lie on an
 * exact grid (every scrape interval from the timeline's start), so a lookback of one interval less 1 ms gives
 * every evaluation the sample of the last scrape slot at or before it, and nothing when that slot had none:
 * what the markers give. The promtool cross-check writes the same markers (`stale`, promtool-check.ts).
 */
export function stalenessLookbackMs(scrapeIntervalMs: number): number {
  return scrapeIntervalMs - 1;
}

/**
 * Starts Prometheus on `dataDir` (loopback, random port) with the lookback of a scrape every `scrapeIntervalMs`
 * (stalenessLookbackMs); waits for /-/ready (bounded).
 */
export async function startPrometheus(dataDirIn: string, workDirIn: string, evaluationIntervalMs: number, scrapeIntervalMs: number): Promise<PromServer> {
  const bin = need('prometheus', 'querying the backfilled series');
  const dataDir = resolve(dataDirIn);
  const workDir = resolve(workDirIn);
  mkdirSync(workDir, { recursive: true });
  const config = join(workDir, 'prometheus.yml');
  writeFileSync(config, `# backtest: no scrape, no rule; queries only\nglobal:\n  evaluation_interval: ${evaluationIntervalMs / 1000}s\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = await startService(
    'prometheus',
    bin,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${dataDir}`,
      '--storage.tsdb.retention.time=100y',
      '--storage.tsdb.min-block-duration=2h',
      '--storage.tsdb.max-block-duration=2h',
      `--web.listen-address=127.0.0.1:${port}`,
      '--query.timeout=10m',
      `--query.lookback-delta=${stalenessLookbackMs(scrapeIntervalMs)}ms`,
      '--log.level=warn',
    ],
    url,
    '/-/ready',
    { cwd: workDir, readyTimeoutMs: 60_000 },
  );
  return {
    url,
    service,
    async queryRange(expr, startMs, endMs, stepMs) {
      const data = await api(url, '/api/v1/query_range', { query: expr, start: String(startMs / 1000), end: String(endMs / 1000), step: `${stepMs / 1000}s` }, 10 * 60_000);
      return matrix(data);
    },
    async queryRaw(expr, atMs) {
      return matrix(await api(url, '/api/v1/query', { query: expr, time: String(atMs / 1000) }, 10 * 60_000));
    },
    stop: () => service.stop(),
  };
}
