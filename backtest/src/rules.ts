// The shipped alerting rules, read from the generated files (alerts/*.rules.yaml: the artifact
// operators load), with what the backtest needs of each: its expression, `for`, `keep_firing_for`,
// labels, the metric names it selects and its longest range window.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { cadenceMs } from './cadence.js';
import { parseDurationMs, rangeWindowsMs } from './duration.js';

export interface AlertRule {
  /** `AvalancheValidationEndingSoon/critical`: alertname, and severity when several rules share the name */
  readonly id: string;
  readonly alert: string;
  readonly group: string;
  readonly file: string;
  /** the group's evaluation interval (its `interval:`, else the global one) */
  readonly intervalMs: number;
  readonly expr: string;
  readonly forMs: number;
  readonly keepFiringForMs: number;
  readonly labels: Readonly<Record<string, string>>;
  /** metric names the expression selects */
  readonly metrics: readonly string[];
  /** the longest range window of the expression (0 without one) */
  readonly windowMs: number;
  /** the slowest refresh period of the exporter's metrics it selects (cadence.ts; 0 without one) */
  readonly cadenceMs: number;
}

interface RawRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  keep_firing_for?: string;
  labels?: Record<string, string>;
}

/** PromQL words that look like metric names but are functions, keywords or aggregations. */
const NOT_METRICS = new Set([
  'and', 'or', 'unless', 'on', 'ignoring', 'group_left', 'group_right', 'by', 'without', 'bool', 'offset',
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group',
  'time', 'absent', 'absent_over_time', 'delta', 'rate', 'irate', 'increase', 'changes', 'resets', 'deriv',
  'max_over_time', 'min_over_time', 'avg_over_time', 'sum_over_time', 'count_over_time', 'last_over_time',
  'present_over_time', 'label_replace', 'label_join', 'vector', 'scalar', 'abs', 'clamp_min', 'clamp_max',
  'round', 'floor', 'ceil', 'timestamp', 'predict_linear', 'histogram_quantile', 'sort', 'sort_desc', 'inf', 'nan',
]);

/**
 * Metric names an expression selects: identifiers outside strings and label matchers that are not
 * PromQL words. A superset is harmless (a kept family no rule reads); test/backtest checks with the
 * PromQL parser that no selected name is missed.
 */
export function metricNames(expr: string): string[] {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  const noMatchers = noStrings.replace(/\{[^}]*\}/g, '{}').replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const noWindows = noMatchers.replace(/\[[^\]]*\]/g, '[]');
  const names = new Set<string>();
  for (const m of noWindows.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\w(])/g)) {
    const w = m[1]!;
    if (!NOT_METRICS.has(w.toLowerCase()) && !/^\d/.test(w)) names.add(w);
  }
  return [...names].sort();
}

/** Reads every `*.rules.yaml` of `dir` (sorted by file name), alerting rules only. */
export function loadRules(dir: string, globalIntervalMs: number): AlertRule[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.rules.yaml')).sort();
  if (files.length === 0) throw new Error(`no *.rules.yaml in ${dir}`);
  const rules: Omit<AlertRule, 'id'>[] = [];
  for (const file of files) {
    const doc = parseYaml(readFileSync(join(dir, file), 'utf8')) as { groups?: { name: string; interval?: string; rules: RawRule[] }[] };
    for (const g of doc.groups ?? []) {
      const intervalMs = g.interval ? parseDurationMs(g.interval) : globalIntervalMs;
      if (intervalMs === undefined) throw new Error(`${file}: group ${g.name}: bad interval ${g.interval}`);
      for (const r of g.rules) {
        if (!r.alert) continue;
        const forMs = r.for ? parseDurationMs(r.for) : 0;
        const keepMs = r.keep_firing_for ? parseDurationMs(r.keep_firing_for) : 0;
        if (forMs === undefined || keepMs === undefined) throw new Error(`${file}: ${r.alert}: bad duration`);
        rules.push({
          alert: r.alert,
          group: g.name,
          file,
          intervalMs,
          expr: r.expr.trim(),
          forMs,
          keepFiringForMs: keepMs,
          labels: { ...(r.labels ?? {}) },
          metrics: metricNames(r.expr),
          windowMs: Math.max(0, ...rangeWindowsMs(r.expr)),
          cadenceMs: cadenceMs(metricNames(r.expr)),
        });
      }
    }
  }
  const count = new Map<string, number>();
  for (const r of rules) count.set(r.alert, (count.get(r.alert) ?? 0) + 1);
  return rules.map((r) => ({ ...r, id: (count.get(r.alert) ?? 0) > 1 ? `${r.alert}/${r.labels['severity'] ?? rules.indexOf(r)}` : r.alert }));
}

/** Every metric name any rule selects: what the OpenMetrics files keep. */
export function ruleMetrics(rules: readonly AlertRule[]): Set<string> {
  return new Set(rules.flatMap((r) => r.metrics));
}

/**
 * A copy of the rule files without annotations, for the cross-checks: vmalert's replay cannot run the
 * `query` templates of the annotations, and promtool compares annotations too. Expressions, `for`,
 * `keep_firing_for` and labels are the shipped ones. With `only`, one file holding that rule alone;
 * `rewrite` changes its expression (promtool's clock starts at 0: time() is shifted, see promtool-check.ts);
 * `withoutKeepFiringFor` leaves `keep_firing_for` out (Debian's vmalert 1.79 refuses the field).
 */
export function writeRulesWithoutAnnotations(dir: string, outDir: string, only?: AlertRule, rewrite?: (expr: string) => string, withoutKeepFiringFor = false): string[] {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.rules.yaml') && (!only || f === only.file)).sort();
  for (const file of files) {
    const doc = parseYaml(readFileSync(join(dir, file), 'utf8')) as { groups: { name: string; rules: (RawRule & { annotations?: unknown })[] }[] };
    for (const g of doc.groups) {
      g.rules = g.rules.filter((r) => !only || (r.alert === only.alert && r.expr.trim() === only.expr && JSON.stringify(r.labels ?? {}) === JSON.stringify(only.labels)));
      for (const r of g.rules) {
        delete r.annotations;
        if (withoutKeepFiringFor) delete r.keep_firing_for;
        if (rewrite) r.expr = rewrite(r.expr);
      }
    }
    doc.groups = doc.groups.filter((g) => g.rules.length > 0);
    const out = join(outDir, only ? `${only.id.replace(/\W+/g, '-')}.rules.yaml` : file);
    writeFileSync(out, `# ${file} without annotations (backtest cross-check)\n${stringifyYaml(doc, { lineWidth: 0 })}`);
    written.push(out);
  }
  return written;
}
