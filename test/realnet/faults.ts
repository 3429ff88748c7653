// Real faults on a real network, judged like the backtest judges injected ones: each fault names the alerts the
// runbook says it pages (each by its deadline) and those it may also set off; every other alert that fires while
// it lasts is a false page, and more than two notifications (with the shipped Alertmanager example) a storm.
// The summary line has the backtest's shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { parseDuration } from '../../src/monitoring/duration.js';
import { ROOT } from '../helpers/proc.js';
import { REALNET_SHORTENING, type Alerting, type AlertSeen } from './alerting.js';

/** An alert by name and the labels it must carry. */
export interface AlertMatch {
  readonly alert: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Seconds added to its deadline (the peers' 30-50 s to notice a frozen node before they call it disconnected). */
  readonly extraSeconds?: number;
}

export interface FaultSpec {
  readonly name: string;
  /** Alerts that must page, each by its deadline. */
  readonly pages: readonly AlertMatch[];
  /** Alerts it may set off as well (consequences the runbook names); any other is a false page. */
  readonly mayAlsoFire: readonly AlertMatch[];
  /** Why more than STORM_ABOVE notifications are what an operator should get for this fault (a written exception). */
  readonly stormReason?: string;
}

export interface FaultResult {
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly pages: readonly { match: AlertMatch; firedAfterMs?: number; deadlineMs: number }[];
  readonly falsePages: readonly string[];
  /** Firing notifications the webhook received (Watchdog's left out). */
  readonly notifications: number;
  /** What each of them said: seconds after the start, and the alerts firing in it. */
  readonly messages: readonly string[];
  readonly stormReason?: string;
}

export const STORM_ABOVE = 2;

/** Seconds of the shortened `for:` of each shipped alert (the longest of its tiers). */
function shortenedFor(): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of ['node', 'validator', 'index', 'upgrades', 'fleet', 'exporter', 'node-internals']) {
    const doc = YAML.parse(readFileSync(join(ROOT, 'alerts', `${f}.rules.yaml`), 'utf8')) as { groups: { rules: { alert?: string; for?: string }[] }[] };
    for (const r of doc.groups.flatMap((g) => g.rules)) {
      if (!r.alert) continue;
      const s = REALNET_SHORTENING.forSeconds(parseDuration(r.for ?? '0s') ?? 0);
      m.set(r.alert, Math.max(m.get(r.alert) ?? 0, s));
    }
  }
  return m;
}

/**
 * The time an alert of `for: F` (shortened) may take to page after the fault: F, the exporter's cycle and its node
 * timeout (the cycle that sees the fault), two of Prometheus' 1 s evaluations, the scaled group_wait (3 s), slack.
 */
export function deadlineMs(alert: string, o: { cycleSeconds: number; nodeTimeoutSeconds: number; extraSeconds?: number }): number {
  const f = shortenedFor().get(alert);
  if (f === undefined) throw new Error(`no shipped alert ${alert}`);
  return (f + o.cycleSeconds + o.nodeTimeoutSeconds + 2 + 3 + 5 + (o.extraSeconds ?? 0)) * 1000;
}

const matches = (m: AlertMatch, a: Pick<AlertSeen, 'name' | 'labels'>) => a.name === m.alert && Object.entries(m.labels ?? {}).every(([k, v]) => a.labels[k] === v);

/** Judges one fault from what Prometheus and the webhook saw between its start and end. */
export function judgeFault(spec: FaultSpec, alerting: Alerting, startMs: number, endMs: number, o: { cycleSeconds: number; nodeTimeoutSeconds: number }): FaultResult {
  const fired = alerting.firedBetween(startMs, endMs);
  const pages = spec.pages.map((match) => {
    const a = fired.find((x) => matches(match, x));
    return { match, firedAfterMs: a?.firstFiringMs === undefined ? undefined : a.firstFiringMs - startMs, deadlineMs: deadlineMs(match.alert, { ...o, extraSeconds: match.extraSeconds }) };
  });
  const expected = [...spec.pages, ...spec.mayAlsoFire];
  const falsePages = fired.filter((a) => !expected.some((m) => matches(m, a))).map((a) => `${a.name} ${JSON.stringify(a.labels)}`);
  const sent = alerting.hook.received.filter((r) => r.at >= startMs && r.at <= endMs && r.body.status === 'firing' && r.body.alerts.some((a) => a.status === 'firing' && a.labels['alertname'] !== 'Watchdog'));
  const say = (r: (typeof sent)[number]) =>
    `+${((r.at - startMs) / 1000).toFixed(0)} s [${r.body.alerts.filter((a) => a.status === 'firing').map((a) => `${a.labels['alertname']}/${a.labels['severity']}${a.labels['target'] ? ` ${a.labels['target']}` : ''}`).join(', ')}]`;
  return {
    name: spec.name,
    startMs,
    endMs,
    pages,
    falsePages,
    notifications: sent.length,
    messages: sent.map(say),
    ...(spec.stormReason ? { stormReason: spec.stormReason } : {}),
  };
}

/** A storm: more notifications than STORM_ABOVE without a written reason. */
export const isStorm = (r: FaultResult) => r.notifications > STORM_ABOVE && r.stormReason === undefined;

export const isLate = (r: FaultResult) => r.pages.some((p) => p.firedAfterMs !== undefined && p.firedAfterMs > p.deadlineMs);
export const isPaged = (r: FaultResult) => r.pages.every((p) => p.firedAfterMs !== undefined);

/** `realnet: …` in the shape of the backtest's summary line. */
export function summaryLine(results: readonly FaultResult[], healthy: { minutes: number; falsePages: number }): string {
  const withPages = results.filter((r) => r.pages.length > 0);
  const falsePages = healthy.falsePages + results.reduce((n, r) => n + r.falsePages.length, 0);
  return `realnet: ${healthy.minutes.toFixed(1)} healthy minutes (${(healthy.minutes * 10).toFixed(0)} at the rules' time), false pages ${falsePages}, faults paged ${withPages.filter(isPaged).length}/${withPages.length}, late ${results.filter(isLate).length}, storms ${results.filter(isStorm).length}${results.some((r) => r.notifications > STORM_ABOVE && r.stormReason) ? ` (+${results.filter((r) => r.notifications > STORM_ABOVE && r.stormReason).length} with a written reason)` : ''}`;
}

/** One line per fault for the log and failure messages. */
export function describeFault(r: FaultResult): string {
  const pages = r.pages.map((p) => `${p.match.alert}: ${p.firedAfterMs === undefined ? 'NOT FIRED' : `${(p.firedAfterMs / 1000).toFixed(1)} s`} / ${(p.deadlineMs / 1000).toFixed(0)} s`).join(', ');
  return (
    `${r.name}: ${pages || 'pages nothing'}; ${r.notifications} notification(s)${r.messages.length ? ` ${r.messages.join(' ')}` : ''}` +
    (r.notifications > STORM_ABOVE && r.stormReason ? `; more than ${STORM_ABOVE} because ${r.stormReason}` : '') +
    (r.falsePages.length ? `; FALSE: ${r.falsePages.join('; ')}` : '')
  );
}

