// Each shipped alert's expression, evaluated by the real Prometheus over the backfilled series at the
// group's evaluation interval (query_range, in slices of at most 10,000 steps: Prometheus refuses more
// than 11,000 points per series), turned into the evaluations at which each label set was returned.
import type { PromServer } from './prometheus.js';
import type { AlertRule } from './rules.js';
import { labelKey, toRuns, type ActiveSeries, type EvalGrid } from './state-machine.js';

export const MAX_STEPS_PER_QUERY = 10_000;

/** The alert's labels for a result series, as Prometheus builds them (rule labels win; alertname last). */
export function alertLabels(metric: Readonly<Record<string, string>>, rule: Pick<AlertRule, 'alert' | 'labels'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metric)) if (k !== '__name__') out[k] = v;
  for (const [k, v] of Object.entries(rule.labels)) out[k] = v;
  out['alertname'] = rule.alert;
  return out;
}

/** The evaluation grid of [startMs, endMs] at `stepMs` (the first evaluation at startMs). */
export function gridOf(startMs: number, endMs: number, stepMs: number): EvalGrid {
  return { startMs, stepMs, steps: Math.floor((endMs - startMs) / stepMs) + 1 };
}

export interface RuleResult {
  readonly rule: AlertRule;
  readonly series: readonly ActiveSeries[];
  readonly queries: number;
  readonly wallMs: number;
}

/** Evaluates one rule over the grid. */
export async function evaluateRule(prom: PromServer, rule: AlertRule, grid: EvalGrid): Promise<RuleResult> {
  const started = performance.now();
  const steps = new Map<string, { labels: Record<string, string>; steps: number[] }>();
  let queries = 0;
  for (let i0 = 0; i0 < grid.steps; i0 += MAX_STEPS_PER_QUERY) {
    const i1 = Math.min(grid.steps - 1, i0 + MAX_STEPS_PER_QUERY - 1);
    const result = await prom.queryRange(rule.expr, grid.startMs + i0 * grid.stepMs, grid.startMs + i1 * grid.stepMs, grid.stepMs);
    queries++;
    for (const s of result) {
      const labels = alertLabels(s.metric, rule);
      const key = labelKey(labels);
      let e = steps.get(key);
      if (!e) steps.set(key, (e = { labels, steps: [] }));
      for (const p of s.values) {
        const k = Math.round((p.t - grid.startMs) / grid.stepMs);
        if (k < i0 || k > i1 || grid.startMs + k * grid.stepMs !== p.t) throw new Error(`${rule.id}: a point at ${p.t} is not an evaluation of the slice`);
        e.steps.push(k);
      }
    }
  }
  const series = [...steps.entries()].map(([key, e]) => ({ key, labels: e.labels, runs: toRuns(e.steps.sort((a, b) => a - b)) }));
  series.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { rule, series, queries, wallMs: performance.now() - started };
}

/** Evaluates every rule, `concurrency` queries at a time. */
export async function evaluateRules(prom: PromServer, rules: readonly AlertRule[], grid: (r: AlertRule) => EvalGrid, concurrency = 2): Promise<RuleResult[]> {
  const out: RuleResult[] = new Array(rules.length);
  let next = 0;
  const worker = async () => {
    while (next < rules.length) {
      const i = next++;
      out[i] = await evaluateRule(prom, rules[i]!, grid(rules[i]!));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return out;
}
