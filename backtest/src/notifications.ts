// Which firing alerts become notifications: Alertmanager's grouping (group_by, group_wait,
// group_interval) and inhibition (inhibit.go: a target alert is muted while a firing source alert
// with the same `equal` labels exists; an alert matching both sides is not muted by one that also
// matches the target side), evaluated at each flush of each aggregation group. A *page* is a
// notification that announces at least one firing alert its group had not announced yet; reminders
// (repeat_interval) and resolved messages are not pages. Pure.
import { groupKey, matchesAll, routesFor, type AlertmanagerConfig, type InhibitRule, type Labels } from './alertmanager-config.js';

export interface FiringAlert {
  /** identifies the alert (rule id + label key + episode) for the caller */
  readonly ref: string;
  readonly labels: Labels;
  readonly fromMs: number;
  /** undefined: still firing at the end */
  readonly toMs?: number;
}

export interface Page {
  readonly atMs: number;
  readonly group: string;
  readonly receiver: string;
  /** refs of the alerts it announces for the first time */
  readonly alerts: readonly string[];
}

export interface AlertOutcome {
  /** when it was first announced, undefined: never (muted, or resolved before its group's flush) */
  readonly notifiedAtMs?: number;
  /** labels of a source alert that muted it at a flush (the first one found) */
  readonly mutedBy?: Labels;
}

/**
 * The receivers that are heartbeats, not people: where the always-firing rules (an expression that reads no
 * series, `vector(1)`: Watchdog) are routed, unless that is the root receiver. A notification to one of them is
 * the pipeline's proof of life (examples/alertmanager.yml sends Watchdog to a dead man's switch), never a page;
 * a Watchdog routed to the people's receiver would page every day, and the backtest counts it.
 */
export function heartbeatReceivers(am: AlertmanagerConfig, alwaysFiring: readonly Labels[]): Set<string> {
  return new Set(alwaysFiring.flatMap((labels) => routesFor(am.route, labels).map((r) => r.receiver)).filter((r) => r !== am.route.receiver));
}

const isFiring = (a: FiringAlert, t: number) => a.fromMs <= t && (a.toMs === undefined || t < a.toMs);

/** Whether `a` is muted at time t by a firing source alert of `rules` (Alertmanager's Inhibitor.Mutes). */
function mutedBy(a: FiringAlert, t: number, rules: readonly { rule: InhibitRule; sources: readonly FiringAlert[] }[]): FiringAlert | undefined {
  for (const { rule, sources } of rules) {
    if (!matchesAll(rule.target, a.labels)) continue;
    const twoSided = matchesAll(rule.source, a.labels);
    for (const s of sources) {
      if (!isFiring(s, t)) continue;
      if (!rule.equal.every((n) => (s.labels[n] ?? '') === (a.labels[n] ?? ''))) continue;
      if (twoSided && matchesAll(rule.target, s.labels)) continue;
      return s;
    }
  }
  return undefined;
}

/** For each alert firing at time t: the labels of a source alert muting it, or undefined. */
export function inhibitedAt(alerts: readonly FiringAlert[], am: AlertmanagerConfig, t: number): Map<string, Labels | undefined> {
  const inhibit = am.inhibit.map((rule) => ({ rule, sources: alerts.filter((a) => matchesAll(rule.source, a.labels)) }));
  return new Map(alerts.filter((a) => isFiring(a, t)).map((a) => [a.ref, mutedBy(a, t, inhibit)?.labels]));
}

/** Every page, and for each alert whether and when it was announced. */
export function notify(alerts: readonly FiringAlert[], am: AlertmanagerConfig): { pages: Page[]; outcomes: Map<string, AlertOutcome> } {
  const inhibit = am.inhibit.map((rule) => ({ rule, sources: alerts.filter((a) => matchesAll(rule.source, a.labels)) }));
  // Times at which anything can change: an alert starts or ends.
  const changes = [...new Set(alerts.flatMap((a) => (a.toMs === undefined ? [a.fromMs] : [a.fromMs, a.toMs])))].sort((x, y) => x - y);
  const nextChange = (t: number): number => {
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (changes[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo < changes.length ? changes[lo]! : Infinity;
  };

  const groups = new Map<string, { receiver: string; wait: number; interval: number; alerts: FiringAlert[] }>();
  for (const a of alerts) {
    for (const r of routesFor(am.route, a.labels)) {
      const key = groupKey(r, a.labels);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { receiver: r.receiver, wait: r.groupWaitMs, interval: r.groupIntervalMs, alerts: [] }));
      g.alerts.push(a);
    }
  }

  const pages: Page[] = [];
  const outcomes = new Map<string, { notifiedAtMs?: number; mutedBy?: Labels }>();
  for (const a of alerts) outcomes.set(a.ref, {});
  for (const [key, g] of [...groups.entries()].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const list = [...g.alerts].sort((x, y) => x.fromMs - y.fromMs);
    let i = 0;
    while (i < list.length) {
      // A new aggregation group: its first flush after group_wait, then every group_interval.
      const born = list[i]!.fromMs;
      let flush = born + g.wait;
      const announced = new Set<string>();
      for (let guard = 0; guard < 10_000_000; guard++) {
        while (i < list.length && list[i]!.fromMs <= flush) i++;
        const members = list.slice(0, i).filter((a) => a.fromMs >= born);
        const fresh: string[] = [];
        let anyFiring = false;
        for (const a of members) {
          if (!isFiring(a, flush)) continue;
          anyFiring = true;
          const by = mutedBy(a, flush, inhibit);
          const o = outcomes.get(a.ref)!;
          if (by) {
            o.mutedBy ??= by.labels;
            continue;
          }
          if (!announced.has(a.ref)) {
            announced.add(a.ref);
            fresh.push(a.ref);
            o.notifiedAtMs ??= flush;
          }
        }
        if (fresh.length > 0) pages.push({ atMs: flush, group: key, receiver: g.receiver, alerts: fresh });
        const nextArrival = i < list.length ? list[i]!.fromMs : Infinity;
        // Nothing firing and nothing arrived: the group is flushed empty and removed.
        if (!anyFiring && nextArrival > flush) break;
        // Skip the flushes at which nothing can have changed.
        const next = Math.min(nextArrival, nextChange(flush));
        if (next === Infinity) break;
        flush += Math.max(1, Math.ceil((next - flush) / g.interval)) * g.interval;
      }
    }
  }
  pages.sort((x, y) => x.atMs - y.atMs || (x.group < y.group ? -1 : 1));
  return { pages, outcomes };
}
