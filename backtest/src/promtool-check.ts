// Cross-check 2 of the alert state machine: for an injected fault, promtool's own alert engine
// (`promtool test rules`) runs the expected alert's rule over the backfilled samples of the series
// it selects, from the start of the timeline to two evaluations after the alert fired, and must find
// what the backtest found: nothing firing one evaluation before it fired, the exact label sets
// firing when it fired and at activeAt + `for` + 2 evaluations, and the ALERTS series firing for
// exactly as many evaluations as the state machine counted (it fired once).
// promtool runs a copy of the rule without annotations (it compares annotations too), with time()
// shifted to the window's start (its clock starts at 0), and a staleness marker where a series stopped, as
// the Prometheus of the backtest has them (prometheus.ts stalenessLookbackMs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { formatDurationMs } from './duration.js';
import { need, runProgram } from './programs.js';
import type { PromServer, Series } from './prometheus.js';
import { writeRulesWithoutAnnotations, type AlertRule } from './rules.js';
import type { AlertEpisode } from './state-machine.js';

export interface PromtoolCase {
  readonly name: string;
  readonly rule: AlertRule;
  /** every episode of the rule (all label sets), from the state machine */
  readonly episodes: readonly AlertEpisode[];
  /** the episode under test */
  readonly episode: AlertEpisode;
  /** the first evaluation and the first sample of the window (= the timeline's start) */
  readonly fromMs: number;
  readonly scrapeIntervalMs: number;
}

export interface PromtoolResult {
  readonly name: string;
  readonly ok: boolean;
  readonly checks: number;
  readonly output: string;
  readonly wallMs: number;
}

/**
 * promtool's test clock starts at 0 (1970), the samples' values (end times, last-success times) are
 * of the simulated weeks: time() is shifted by the window's start, so `x - time()` means what it means
 * over the real series. Nothing else in the expression changes.
 */
export function shiftTime(expr: string, fromMs: number): string {
  return expr.replace(/\btime\(\s*\)/g, `(time() + ${fromMs / 1000})`);
}

/** A number in promtool's series notation (no `+`: it would read as an expanding series). */
export function seriesValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Inf';
  if (v === -Infinity) return '-Inf';
  return String(v).replace('e+', 'e');
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** `name{a="b"}` of a series. */
export function seriesText(metric: Readonly<Record<string, string>>): string {
  const { __name__: name, ...labels } = metric;
  const inner = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k]!)}"`)
    .join(',');
  return `${name ?? ''}{${inner}}`;
}

/**
 * promtool's `values` of a series: index k is fromMs + k × interval; `stale` at the first scrape without a
 * sample after one with it (the staleness marker a live scrape writes there, which the backfill cannot:
 * prometheus.ts stalenessLookbackMs), `_` at the others without one.
 */
export function seriesValues(s: Series, fromMs: number, intervalMs: number, count: number): string {
  const out = new Array<string>(count).fill('_');
  for (const p of s.values) {
    const k = (p.t - fromMs) / intervalMs;
    if (!Number.isInteger(k)) throw new Error(`sample at ${p.t} is off the scrape grid of ${fromMs} + k×${intervalMs}`);
    if (k >= 0 && k < count) out[k] = seriesValue(p.v);
  }
  for (let k = count - 1; k > 0; k--) if (out[k] === '_' && out[k - 1] !== '_') out[k] = 'stale';
  return out.join(' ');
}

const firingAt = (episodes: readonly AlertEpisode[], t: number) => episodes.filter((e) => e.firedAtMs !== undefined && e.firedAtMs <= t && (e.endAtMs === undefined || t < e.endAtMs));

function expAlerts(episodes: readonly AlertEpisode[], t: number) {
  return firingAt(episodes, t)
    .map((e) => {
      const { alertname: _a, ...labels } = e.labels;
      return { exp_labels: labels };
    })
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** The promtool test file of one case (pure, given the raw series). */
export function promtoolTest(c: PromtoolCase, series: readonly Series[], rulesFile: string): { yaml: string; checks: number } {
  const step = c.rule.intervalMs;
  const fired = c.episode.firedAtMs!;
  const lastEval = fired + 2 * step;
  const count = Math.floor((lastEval - c.fromMs) / c.scrapeIntervalMs) + 1;
  const at = (t: number) => formatDurationMs(t - c.fromMs);
  const times = [...new Set([fired - step, fired, Math.min(lastEval, c.episode.activeAtMs + c.rule.forMs + 2 * step)])].filter((t) => t >= c.fromMs);
  // every firing evaluation of this label set up to lastEval (earlier episodes of it included)
  const firingEvals = c.episodes
    .filter((e) => e.key === c.episode.key && e.firedAtMs !== undefined && e.firedAtMs <= lastEval)
    .reduce((n, e) => n + Math.floor((Math.min(lastEval, (e.endAtMs ?? Infinity) - step) - e.firedAtMs!) / step) + 1, 0);
  const { alertname: _a, ...labels } = c.episode.labels;
  const selector = `ALERTS{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k]!)}"`)
    .join(',')}${Object.keys(labels).length ? ',' : ''}alertname="${c.rule.alert}",alertstate="firing"}`;
  const test = {
    rule_files: [rulesFile],
    evaluation_interval: formatDurationMs(step),
    tests: [
      {
        name: c.name,
        interval: formatDurationMs(c.scrapeIntervalMs),
        input_series: series.map((s) => ({ series: seriesText(s.metric), values: seriesValues(s, c.fromMs, c.scrapeIntervalMs, count) })),
        alert_rule_test: times.map((t) => ({ eval_time: at(t), alertname: c.rule.alert, exp_alerts: expAlerts(c.episodes, t) })),
        promql_expr_test: [
          {
            expr: `count_over_time(${selector}[${formatDurationMs(lastEval - c.fromMs + step)}])`,
            eval_time: at(lastEval),
            exp_samples: [{ labels: `{${Object.keys(labels)
              .sort()
              .map((k) => `${k}="${escapeLabel(labels[k]!)}"`)
              .concat([`alertname="${c.rule.alert}"`, 'alertstate="firing"'])
              .sort()
              .join(',')}}`, value: firingEvals }],
          },
        ],
      },
    ],
  };
  return { yaml: stringifyYaml(test, { lineWidth: 0 }), checks: times.length + 1 };
}

/** Runs one case: fetches the rule's series from Prometheus, writes the test, runs promtool. */
export async function runPromtoolCase(c: PromtoolCase, prom: PromServer, rulesDir: string, workDir: string): Promise<PromtoolResult> {
  const started = performance.now();
  const promtool = need('promtool', 'the promtool cross-check');
  const dir = join(workDir, 'promtool', c.name.replace(/\W+/g, '-'));
  mkdirSync(dir, { recursive: true });
  const [rulesFile] = writeRulesWithoutAnnotations(rulesDir, dir, c.rule, (e) => shiftTime(e, c.fromMs));
  const lastEval = c.episode.firedAtMs! + 2 * c.rule.intervalMs;
  const rangeS = Math.ceil((lastEval - c.fromMs) / 1000) + 1;
  const names = c.rule.metrics.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const series = await prom.queryRaw(`{__name__=~"${names}"}[${rangeS}s]`, lastEval);
  const { yaml, checks } = promtoolTest(c, series, rulesFile!);
  const file = join(dir, 'test.yaml');
  writeFileSync(file, yaml);
  const out = await runProgram(promtool, ['test', 'rules', file], { cwd: dir, timeoutMs: 10 * 60_000 });
  return { name: c.name, ok: out.code === 0, checks, output: (out.stdout + out.stderr).trim(), wallMs: performance.now() - started };
}
