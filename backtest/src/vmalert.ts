// Cross-check 1 of the alert state machine: vmalert's replay mode (another implementation of
// Prometheus' alerting rules) evaluates the same rules over the same backfilled blocks, through the
// same Prometheus, and writes its ALERTS series to a VictoriaMetrics started for it; every firing
// evaluation it wrote is compared with the ones the backtest's state machine found.
// vmalert runs a copy of the rules without annotations (it cannot run their `query` templates in
// replay mode); expressions, `for` and labels are the shipped ones.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, need, onPath, runProgram, startService } from './programs.js';
import { labelKey, type AlertEpisode, type EvalGrid } from './state-machine.js';

export const hasVmalert = (): boolean => onPath('vmalert') !== undefined && onPath('victoria-metrics') !== undefined;

export interface VmalertComparison {
  /** alert label sets either side saw firing */
  readonly labelSets: number;
  /** firing evaluations compared (the union of both sides) */
  readonly evaluations: number;
  /** firing evaluations on one side only */
  readonly mismatches: readonly Mismatch[];
  /**
   * The one difference that is vmalert's, not ours: `vmalert -replay` asks Prometheus in requests of
   * REPLAY_POINTS evaluations and does not carry an alert's state from one request to the next, so an alert
   * firing across a request boundary goes back to pending there and fires again `for` later (seen in
   * healthy-week-4: AvalancheL1ChainStalled pending again at +125h = 3 × 41h40m, 19 evaluations; the same
   * rule replayed alone over a 2-hour window around it agrees). A mismatch counts as such only when vmalert
   * has no evaluation of its own and the backtest's are one unbroken run starting at a boundary.
   */
  readonly requestBoundaryRestarts: readonly Mismatch[];
  readonly wallMs: number;
}

export interface Mismatch {
  readonly key: string;
  readonly onlyVmalert: number;
  readonly onlyBacktest: number;
  readonly first: number;
}

/** vmalert -replay's request size (-replay.maxDatapointsPerQuery): Prometheus refuses more than 11,000 points. */
export const REPLAY_POINTS = 10_000;

/** Firing evaluation times (ms) per alert label key, from the state machine's episodes. */
export function firingTimes(episodes: readonly AlertEpisode[], grid: EvalGrid): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const last = grid.startMs + (grid.steps - 1) * grid.stepMs;
  for (const e of episodes) {
    if (e.firedAtMs === undefined) continue;
    const list = out.get(e.key) ?? [];
    const end = e.endAtMs ?? last + grid.stepMs;
    for (let t = e.firedAtMs; t < end && t <= last; t += grid.stepMs) list.push(t);
    out.set(e.key, list);
  }
  return out;
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/** Runs vmalert -replay over [grid start, grid end] against `prometheusUrl`; returns firing times per label key. */
export async function replay(o: { rulesGlob: string; prometheusUrl: string; grid: EvalGrid; workDir: string }): Promise<{ firing: Map<string, number[]>; wallMs: number }> {
  const started = performance.now();
  const vmalert = need('vmalert', 'the vmalert cross-check');
  const vm = need('victoria-metrics', 'the vmalert cross-check');
  const dir = join(o.workDir, 'victoria-metrics');
  // a fresh store: ALERTS of an earlier run must not count
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const store = await startService('victoria-metrics', vm, [`-storageDataPath=${dir}`, `-httpListenAddr=127.0.0.1:${port}`, '-retentionPeriod=100y', '-search.latencyOffset=0s', '-loggerLevel=ERROR'], url, '/health', { readyTimeoutMs: 30_000 });
  try {
    const end = o.grid.startMs + (o.grid.steps - 1) * o.grid.stepMs;
    const interval = `${o.grid.stepMs / 1000}s`;
    const run = await runProgram(
      vmalert,
      [
        `-rule=${o.rulesGlob}`,
        `-datasource.url=${o.prometheusUrl}`,
        `-datasource.queryStep=${interval}`,
        `-remoteWrite.url=${url}`,
        '-remoteWrite.maxQueueSize=20000000',
        `-replay.timeFrom=${rfc3339(o.grid.startMs)}`,
        `-replay.timeTo=${rfc3339(end)}`,
        `-evaluationInterval=${interval}`,
        '-replay.disableProgressBar',
        '-replay.rulesDelay=0s',
        `-replay.maxDatapointsPerQuery=${REPLAY_POINTS}`,
        '-disableAlertgroupLabel',
        '-httpListenAddr=127.0.0.1:0',
        '-loggerLevel=ERROR',
      ],
      { timeoutMs: 30 * 60_000 },
    );
    if (run.code !== 0) throw new Error(`vmalert -replay failed (${run.code}):\n${(run.stderr || run.stdout).slice(-3000)}`);
    await fetch(`${url}/internal/force_flush`, { signal: AbortSignal.timeout(30_000) }).then((r) => r.arrayBuffer());
    const r = await fetch(`${url}/api/v1/export`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'match[]': 'ALERTS{alertstate="firing"}', start: String(o.grid.startMs / 1000), end: String(end / 1000 + 1) }).toString(),
      signal: AbortSignal.timeout(5 * 60_000),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`victoria-metrics export: HTTP ${r.status}: ${text.slice(0, 500)}`);
    const firing = new Map<string, number[]>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const s = JSON.parse(line) as { metric: Record<string, string>; timestamps: number[] };
      const { __name__: _n, alertstate: _s, ...labels } = s.metric;
      const key = labelKey(labels);
      firing.set(key, [...new Set([...(firing.get(key) ?? []), ...s.timestamps])].sort((a, b) => a - b));
    }
    return { firing, wallMs: performance.now() - started };
  } finally {
    await store.stop();
  }
}

/** Whether `times` (sorted) are one run of `grid` steps that starts within two steps after a replay request boundary. */
function restartsAtRequestBoundary(times: readonly number[], grid: EvalGrid): boolean {
  if (times.length === 0) return false;
  if (times.some((t, i) => i > 0 && t - times[i - 1]! !== grid.stepMs)) return false;
  const requestMs = REPLAY_POINTS * grid.stepMs;
  const sinceBoundary = (times[0]! - grid.startMs) % requestMs;
  return times[0]! - grid.startMs >= requestMs && sinceBoundary <= 2 * grid.stepMs;
}

/** Compares two maps of firing evaluation times on the replay's evaluation grid. */
export function compareFiring(vm: ReadonlyMap<string, readonly number[]>, ours: ReadonlyMap<string, readonly number[]>, wallMs: number, grid?: EvalGrid): VmalertComparison {
  const keys = new Set([...vm.keys(), ...ours.keys()]);
  let evaluations = 0;
  const mismatches: Mismatch[] = [];
  const requestBoundaryRestarts: Mismatch[] = [];
  for (const key of [...keys].sort()) {
    const a = new Set(vm.get(key) ?? []);
    const b = new Set(ours.get(key) ?? []);
    const onlyA = [...a].filter((t) => !b.has(t));
    const onlyB = [...b].filter((t) => !a.has(t)).sort((x, y) => x - y);
    evaluations += new Set([...a, ...b]).size;
    if (onlyA.length + onlyB.length === 0) continue;
    const m = { key, onlyVmalert: onlyA.length, onlyBacktest: onlyB.length, first: Math.min(...onlyA, ...onlyB) };
    if (grid && onlyA.length === 0 && restartsAtRequestBoundary(onlyB, grid)) requestBoundaryRestarts.push(m);
    else mismatches.push(m);
  }
  return { labelSets: keys.size, evaluations, mismatches, requestBoundaryRestarts, wallMs };
}
