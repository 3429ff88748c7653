// The figures as text: per alert (pages per simulated node-week on the healthy baseline, false
// pages, flaps, time from fault to firing against the deadline), per fault (notifications after
// inhibition), the false pages and flaps with what was going on, the cross-checks, and the summary
// line. Pure: the same analyses give the same text.
import { formatDurationMs } from './duration.js';
import type { TimelineAnalysis } from './pipeline.js';
import type { RunMeta } from './simulate.js';
import type { AlertRule } from './rules.js';
import { REPLAY_POINTS } from './vmalert.js';

export interface Summary {
  readonly nodeWeeks: number;
  /** node-days outside the faults' windows: the false-page budget's exposure */
  readonly healthyNodeDays: number;
  readonly falsePages: number;
  readonly flaps: number;
  readonly faults: number;
  readonly paged: number;
  readonly late: number;
  readonly storms: number;
  /** rules over their severity's false-page budget (budget.ts) */
  readonly overBudget: number;
}

/** More notifications than this for one fault is a storm. */
export const STORM_ABOVE = 2;

/** The figures summed over the timelines; `overBudget`: the rules budget.ts found OVER (0 when not judged). */
export function summarize(all: readonly TimelineAnalysis[], overBudget = 0): Summary {
  const faults = all.flatMap((a) => a.figures.faults);
  return {
    nodeWeeks: all.reduce((n, a) => n + a.figures.nodeWeeks, 0),
    healthyNodeDays: all.reduce((n, a) => n + a.figures.healthyNodeDays, 0),
    falsePages: all.reduce((n, a) => n + a.figures.falsePages.length, 0),
    flaps: all.reduce((n, a) => n + a.figures.flaps.length, 0),
    faults: faults.length,
    paged: faults.filter((f) => f.paged_ok).length,
    late: faults.filter((f) => f.late).length,
    storms: faults.filter((f) => f.pages.length > STORM_ABOVE).length,
    overBudget,
  };
}

export function summaryLine(s: Summary): string {
  return `backtest: ${s.nodeWeeks.toFixed(1)} node-weeks, false pages ${s.falsePages}, flaps ${s.flaps}, faults paged ${s.paged}/${s.faults}, late ${s.late}, storms ${s.storms}, over budget ${s.overBudget}`;
}

const dur = (ms: number | undefined) => (ms === undefined ? '–' : formatDurationMs(Math.round(ms / 1000) * 1000));
const at = (ms: number, start: number) => `+${formatDurationMs(Math.round((ms - start) / 60_000) * 60_000)}`;

/** `{chain=C,target=node-1}`: the labels that tell alerts of one rule apart. */
function labelText(labels: Readonly<Record<string, string>>): string {
  const rest = Object.entries(labels).filter(([k]) => k !== 'alertname' && k !== 'severity');
  return rest.length ? `{${rest.map(([k, v]) => `${k}=${v}`).join(',')}}` : '';
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

/** Per alert: severity, for, pages per node-week and false pages on the baseline, flaps, worst time to fire over its faults. */
export function alertTable(rules: readonly AlertRule[], all: readonly TimelineAnalysis[], nodeWeeks: number): string {
  const rows = rules.map((r) => {
    let falsePages = 0;
    let flaps = 0;
    for (const a of all) {
      const s = a.figures.perRule.get(r.id);
      falsePages += s?.falsePages ?? 0;
      flaps += s?.flaps ?? 0;
    }
    const exps = all.flatMap((a) => a.figures.faults.flatMap((f) => f.expectations.filter((e) => e.alert === r.alert && (e.labels['severity'] === undefined || e.labels['severity'] === r.labels['severity']))));
    const worst = exps.reduce<(typeof exps)[number] | undefined>((w, e) => (e.firedAfterMs === undefined ? (w && w.firedAfterMs === undefined ? w : e) : !w || (w.firedAfterMs !== undefined && e.firedAfterMs > w.firedAfterMs) ? e : w), undefined);
    const ttp = !worst ? 'no fault' : worst.firedAfterMs === undefined ? 'NOT FIRED' : `${dur(worst.firedAfterMs)} / ${dur(worst.deadlineMs)}${worst.late ? ' LATE' : ''}${worst.notified ? '' : ' (not notified)'}`;
    return [r.id, r.labels['severity'] ?? '', dur(r.forMs), nodeWeeks > 0 ? (falsePages / nodeWeeks).toFixed(3) : '–', String(falsePages), String(flaps), ttp];
  });
  return table(['alert', 'severity', 'for', 'pages / node-week (healthy)', 'false pages', 'flaps', 'fault → firing / deadline (worst)'], rows);
}

export function faultTable(all: readonly TimelineAnalysis[]): string {
  const rows = all.flatMap((a) =>
    a.figures.faults.map((f) => {
      const exp = f.expectations
        .map((e) => `${e.alert}${e.labels['severity'] ? `/${e.labels['severity']}` : ''}: ${e.firedAfterMs === undefined ? 'not fired' : `${dur(e.firedAfterMs)} / ${dur(e.deadlineMs)}${e.late ? ' LATE' : ''}`}${e.firedAfterMs !== undefined && !e.notified ? ` muted by ${e.mutedBy ?? '?'}` : ''}`)
        .join('; ');
      const others = f.paged.filter((id) => !f.expectations.some((e) => id === e.alert || id.startsWith(`${e.alert}/`)));
      const verdict = !f.paged_ok ? 'MISSED' : f.late ? 'LATE' : f.pages.length > STORM_ABOVE ? 'STORM' : 'ok';
      return [f.timeline, f.what, exp, String(f.pages.length), others.join(', ') || '–', verdict];
    }),
  );
  return table(['timeline', 'fault', 'expected: fired after / deadline', 'notifications', 'also paged', 'verdict'], rows);
}

export function falsePageList(all: readonly TimelineAnalysis[], starts: ReadonlyMap<string, number>): string {
  const lines = all.flatMap((a) =>
    a.figures.falsePages.map((p) => {
      const start = starts.get(p.timeline) ?? 0;
      const what = p.alerts.map((x) => `${x.rule.id}${labelText(x.episode.labels)}`).join(' + ');
      return `- ${p.timeline} ${at(p.page.atMs, start)}: ${what}${p.near ? ` (near ${p.near})` : ''}`;
    }),
  );
  return lines.length ? lines.join('\n') : '- none';
}

export function flapList(all: readonly TimelineAnalysis[], starts: ReadonlyMap<string, number>): string {
  const lines = all.flatMap((a) =>
    a.figures.flaps.map((f) => {
      const start = starts.get(a.figures.timeline) ?? 0;
      return `- ${a.figures.timeline} ${f.rule.id}${labelText(f.first.labels)}: fired ${at(f.first.firedAtMs!, start)}, resolved ${at(f.first.endAtMs!, start)}, fired again ${at(f.again.firedAtMs!, start)}`;
    }),
  );
  return lines.length ? lines.join('\n') : '- none';
}

export function crossCheckLines(all: readonly TimelineAnalysis[], routing?: { labelSets: number; failures: readonly string[] }): string {
  const vm = all.flatMap((a) => (a.vmalert ? [{ t: a.figures.timeline, v: a.vmalert }] : []));
  const pt = all.flatMap((a) => a.promtool);
  const lines: string[] = [];
  if (vm.length > 0) {
    const sets = vm.reduce((n, x) => n + x.v.labelSets, 0);
    const evals = vm.reduce((n, x) => n + x.v.evaluations, 0);
    const bad = vm.flatMap((x) => x.v.mismatches.map((m) => `${x.t}: ${m.key} (vmalert only ${m.onlyVmalert}, backtest only ${m.onlyBacktest})`));
    const restarts = vm.flatMap((x) => (x.v.requestBoundaryRestarts ?? []).map((m) => `${x.t}: ${m.key} (backtest only ${m.onlyBacktest}, from a request boundary)`));
    lines.push(`vmalert -replay: ${vm.length} timelines, ${sets} alert label sets, ${evals} firing evaluations, ${bad.length} disagreements${bad.length ? `:\n  ${bad.slice(0, 20).join('\n  ')}` : ''}`);
    if (restarts.length > 0) lines.push(`vmalert -replay: ${restarts.length} alerts back to pending at one of its request boundaries (every ${REPLAY_POINTS} evaluations; vmalert does not carry state across them), not counted:\n  ${restarts.slice(0, 20).join('\n  ')}`);
  } else lines.push('vmalert -replay: not run');
  if (pt.length > 0) {
    const failed = pt.filter((p) => !p.ok);
    lines.push(`promtool test rules: ${pt.length - failed.length}/${pt.length} fault cases agree (${pt.reduce((n, p) => n + p.checks, 0)} checks)${failed.length ? `:\n  ${failed.map((f) => `${f.name}: ${f.output.split('\n').slice(0, 12).join('\n    ')}`).join('\n  ')}` : ''}`);
  } else lines.push('promtool test rules: not run');
  if (routing) lines.push(`amtool config routes test: ${routing.labelSets - routing.failures.length}/${routing.labelSets} distinct routings agree${routing.failures.length ? `:\n  ${routing.failures.join('\n  ')}` : ''}`);
  return lines.join('\n');
}

const countText = (m: ReadonlyMap<string, number>): string => [...m].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';

/**
 * What the timelines put the alerts through (issue 43): the noise episodes drawn, by cause; the moments of the
 * nodes' lives that took effect (runner.ts `moments`: a re-stake does nothing on an auto-renewed validator); and
 * the exporter's stops at which an alert was firing.
 */
export function noiseLines(metas: readonly RunMeta[], all: readonly TimelineAnalysis[]): string[] {
  const drawn = new Map<string, number>();
  for (const m of metas) for (const n of m.plan.noise) drawn.set(n.cause, (drawn.get(n.cause) ?? 0) + 1);
  const took = new Map<string, number>();
  for (const m of metas) for (const [k, n] of Object.entries(m.moments ?? {})) took.set(k, (took.get(k) ?? 0) + n);
  const stops = all.reduce((n, a) => n + a.figures.exporterStops.total, 0);
  const firing = all.reduce((n, a) => n + a.figures.exporterStops.whileFiring, 0);
  return [
    `- noise drawn: ${countText(drawn)}`,
    `- in effect: ${countText(took)}`,
    `- exporter stops (restarts and outages): ${stops}, ${firing} of them while an alert was firing`,
  ];
}
