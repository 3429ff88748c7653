// The figures of one timeline, from the alert episodes and the pages: which pages an injected fault
// caused (an alert that turned pending between the fault and the end of its window), which are
// false (every other page, with the noise that explains it when one is near), flaps, and for each
// expected alert the time from the fault to firing against its deadline. Pure.
import type { Page, AlertOutcome } from './notifications.js';
import { eventSpanMs, type Episode } from './plan.js';
import type { AlertRule } from './rules.js';
import type { AlertEpisode, Flap } from './state-machine.js';
import type { Timeline, TimelineEvent } from './timeline.js';

/** Fired, resolved and fired again within this: a flap. */
export const FLAP_WINDOW_MS = 3_600_000;
/** An alert that turns pending this long after a fault's effect ended still counts as the fault's. */
export const FAULT_TAIL_MS = 3_600_000;

export interface RuleEpisodes {
  readonly rule: AlertRule;
  readonly episodes: readonly AlertEpisode[];
}

export interface FiredRef {
  readonly ref: string;
  readonly rule: AlertRule;
  readonly episode: AlertEpisode;
}

export interface ExpectationResult {
  readonly alert: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly deadlineMs: number;
  /** the explicit `within` of the timeline, with its reason */
  readonly explicit: boolean;
  readonly why?: string;
  /** from the fault to firing */
  readonly firedAfterMs?: number;
  readonly notified: boolean;
  readonly mutedBy?: string;
  readonly late: boolean;
}

export interface FaultResult {
  readonly timeline: string;
  readonly event: number;
  readonly what: string;
  readonly atMs: number;
  readonly windowEndMs: number;
  readonly expectations: readonly ExpectationResult[];
  /** pages attributed to this fault */
  readonly pages: readonly Page[];
  /** the alerts those pages announced */
  readonly paged: readonly string[];
  readonly paged_ok: boolean;
  readonly late: boolean;
}

export interface FalsePage {
  readonly timeline: string;
  readonly page: Page;
  readonly alerts: readonly FiredRef[];
  /** the noise episode near it, e.g. `upgrade of node-3` */
  readonly near?: string;
}

/** A flap (state-machine.ts) and the rule of the alert. */
export interface RuleFlap extends Flap {
  readonly rule: AlertRule;
}

export interface TimelineFigures {
  readonly timeline: string;
  readonly nodeWeeks: number;
  /** node-days outside the faults' windows (healthyNodeDays): the time in which every page is a false page */
  readonly healthyNodeDays: number;
  readonly faults: readonly FaultResult[];
  readonly falsePages: readonly FalsePage[];
  readonly flaps: readonly RuleFlap[];
  /** per rule id: pages, false pages, flaps */
  readonly perRule: ReadonlyMap<string, { pages: number; falsePages: number; flaps: number }>;
  /** the exporter's stops (restarts and outages, noise and events), and those at which an alert was firing (Watchdog aside) */
  readonly exporterStops: { readonly total: number; readonly whileFiring: number };
}

export function describeEvent(e: TimelineEvent): string {
  const where = e.node !== undefined ? ` node-${e.node}` : e.do.startsWith('exporter') || e.do === 'missed-scrapes' ? '' : ' all nodes';
  const what = e.do === 'scenario' ? e.scenario : e.do === 'timeouts' ? `timeouts ${e.rate}` : e.do;
  return `${what}${where}${e.for !== undefined ? ` for ${Math.round(e.for / 60_000)}m` : ''}`;
}

/**
 * The default deadline: for + 2 evaluation intervals + 1 scrape interval + the longest range window, where a
 * series refreshed less often than every scrape (a 5-minute collector) counts its refresh period instead of
 * the scrape interval: the fault reaches the series at that collector's next run.
 */
export function defaultDeadlineMs(rule: AlertRule, scrapeIntervalMs: number): number {
  return rule.forMs + 2 * rule.intervalMs + Math.max(scrapeIntervalMs, rule.cadenceMs) + rule.windowMs;
}

/** A fault's window on one node (undefined: every node), offsets from the timeline's start. */
export interface FaultWindow {
  readonly node?: number;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The healthy node-days of a timeline: each node's time outside the windows of the faults that concern it (a
 * fault of the exporter concerns every node), overlapping windows counted once. The exposure of the false-page
 * budget (budget.ts): a page in this time is a false page.
 */
export function healthyNodeDays(nodes: number, durationMs: number, windows: readonly FaultWindow[]): number {
  let healthyMs = 0;
  for (let node = 0; node < nodes; node++) {
    const mine = windows
      .filter((w) => w.node === undefined || w.node === node)
      .map((w) => [Math.max(0, w.fromMs), Math.min(durationMs, w.toMs)] as const)
      .filter(([a, b]) => b > a)
      .sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let end = 0;
    for (const [a, b] of mine) {
      if (b <= end) continue;
      covered += b - Math.max(a, end);
      end = b;
    }
    healthyMs += durationMs - covered;
  }
  return healthyMs / 86_400_000;
}

const hasLabels = (have: Readonly<Record<string, string>>, want: Readonly<Record<string, string>>) => Object.entries(want).every(([k, v]) => have[k] === v);

export interface FigureInput {
  readonly timeline: Timeline;
  readonly startMs: number;
  readonly scrapeIntervalMs: number;
  readonly noise: readonly Episode[];
  readonly rules: readonly RuleEpisodes[];
  readonly fired: readonly FiredRef[];
  readonly pages: readonly Page[];
  readonly outcomes: ReadonlyMap<string, AlertOutcome>;
  readonly flaps: readonly RuleFlap[];
}

export function timelineFigures(x: FigureInput): TimelineFigures {
  const t = x.timeline;
  const byRef = new Map(x.fired.map((f) => [f.ref, f]));
  const faults = t.events.flatMap((event, index) => (event.expect?.length ? [{ event, index }] : []));
  const windows = faults.map(({ event, index }) => {
    const at = x.startMs + event.at;
    const deadlines = (event.expect ?? []).map((e) => e.within ?? 0);
    return { event, index, at, end: at + eventSpanMs(event, t.duration) + Math.max(FAULT_TAIL_MS, ...deadlines) };
  });
  const faultOf = (f: FiredRef): number | undefined => windows.find((w) => f.episode.activeAtMs >= w.at && f.episode.activeAtMs <= w.end)?.index;

  const pagesOf = new Map<number, Page[]>();
  const falsePages: FalsePage[] = [];
  const perRule = new Map<string, { pages: number; falsePages: number; flaps: number }>();
  const bump = (id: string, k: 'pages' | 'falsePages' | 'flaps') => {
    const r = perRule.get(id) ?? { pages: 0, falsePages: 0, flaps: 0 };
    r[k]++;
    perRule.set(id, r);
  };
  for (const page of x.pages) {
    const alerts = page.alerts.map((r) => byRef.get(r)!).filter(Boolean);
    for (const id of new Set(alerts.map((a) => a.rule.id))) bump(id, 'pages');
    const fault = alerts.map(faultOf).find((f) => f !== undefined);
    if (fault !== undefined) pagesOf.set(fault, [...(pagesOf.get(fault) ?? []), page]);
    else {
      for (const id of new Set(alerts.map((a) => a.rule.id))) bump(id, 'falsePages');
      const a0 = alerts[0];
      const node = a0?.episode.labels['target']?.replace(/^node-/, '');
      const near = a0 && x.noise.find((n) => a0.episode.activeAtMs >= x.startMs + n.startMs - 60_000 && a0.episode.activeAtMs <= x.startMs + n.endMs + FAULT_TAIL_MS && (n.node === undefined || String(n.node) === node));
      falsePages.push({ timeline: t.name, page, alerts, near: near ? `${near.cause}${near.node !== undefined ? ` of node-${near.node}` : ''} at +${Math.round(near.startMs / 60_000)}m` : undefined });
    }
  }
  for (const f of x.flaps) bump(f.rule.id, 'flaps');

  const results: FaultResult[] = windows.map((w) => {
    const expectations = (w.event.expect ?? []).map((e): ExpectationResult => {
      const candidates = x.fired.filter((f) => f.rule.alert === e.alert && hasLabels(f.episode.labels, e.labels) && f.episode.activeAtMs >= w.at && f.episode.activeAtMs <= w.end);
      candidates.sort((a, b) => a.episode.firedAtMs! - b.episode.firedAtMs!);
      const first = candidates[0];
      // the rule of that name whose own labels (severity) agree with the expected ones
      const rule = x.rules
        .map((r) => r.rule)
        .filter((r) => r.alert === e.alert && Object.entries(e.labels).every(([k, v]) => r.labels[k] === undefined || r.labels[k] === v))
        .sort((a, b) => a.forMs - b.forMs)[0];
      const deadlineMs = e.within ?? (rule ? defaultDeadlineMs(rule, x.scrapeIntervalMs) : 0);
      const firedAfterMs = first ? first.episode.firedAtMs! - w.at : undefined;
      const notified = candidates.some((c) => x.outcomes.get(c.ref)?.notifiedAtMs !== undefined);
      const muted = first ? x.outcomes.get(first.ref)?.mutedBy : undefined;
      return {
        alert: e.alert,
        labels: e.labels,
        deadlineMs,
        explicit: e.within !== undefined,
        why: e.why,
        firedAfterMs,
        notified,
        mutedBy: muted ? muted['alertname'] : undefined,
        late: firedAfterMs !== undefined && firedAfterMs > deadlineMs,
      };
    });
    const pages = pagesOf.get(w.index) ?? [];
    const paged = [...new Set(pages.flatMap((p) => p.alerts.map((r) => byRef.get(r)?.rule.id ?? r)))];
    return {
      timeline: t.name,
      event: w.index,
      what: describeEvent(w.event),
      atMs: w.at,
      windowEndMs: w.end,
      expectations,
      pages,
      paged,
      paged_ok: expectations.every((e) => e.firedAfterMs !== undefined && e.notified),
      late: expectations.some((e) => e.late),
    };
  });

  const stops = [
    ...x.noise.filter((n) => n.cause === 'exporter restart').map((n) => x.startMs + n.startMs),
    ...t.events.filter((e) => e.do === 'exporter-restart' || e.do === 'exporter-down').map((e) => x.startMs + e.at),
  ];
  const firing = x.fired.filter((f) => f.rule.metrics.length > 0).map((f) => f.episode);
  const whileFiring = stops.filter((at) => firing.some((e) => e.firedAtMs! <= at && (e.endAtMs === undefined || at < e.endAtMs))).length;

  return {
    timeline: t.name,
    exporterStops: { total: stops.length, whileFiring },
    nodeWeeks: (t.fleet.nodes * t.duration) / (7 * 86_400_000),
    healthyNodeDays: healthyNodeDays(
      t.fleet.nodes,
      t.duration,
      windows.map((w) => ({ node: w.event.node, fromMs: w.at - x.startMs, toMs: w.end - x.startMs })),
    ),
    faults: results,
    falsePages,
    flaps: x.flaps,
    perRule,
  };
}
