// Prometheus' alert state machine (rules/alerting.go), applied to an expression's results at every
// evaluation of its group: a series that appears makes a pending alert (ActiveAt = that evaluation);
// it fires at the first evaluation at least `for` after ActiveAt (at once without `for`); a pending
// alert whose series is gone is dropped; a firing one resolves at the first evaluation without its
// series, or with `keep_firing_for`, at the first evaluation at least that long after it went
// missing (a series back before then keeps it firing). Pure: evaluations are step indices.

/** The evaluations at which one alert's expression returned this label set: runs of step indices (inclusive, ascending). */
export interface ActiveSeries {
  /** the alert's labels: the series' (without __name__), the rule's, alertname */
  readonly labels: Readonly<Record<string, string>>;
  readonly key: string;
  readonly runs: readonly (readonly [number, number])[];
}

export interface EvalGrid {
  readonly startMs: number;
  readonly stepMs: number;
  /** number of evaluations */
  readonly steps: number;
}

export interface AlertTiming {
  readonly forMs: number;
  readonly keepFiringForMs: number;
}

/** One life of an alert: pending from activeAt; firing from firedAt until resolvedAt (exclusive). */
export interface AlertEpisode {
  readonly key: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly activeAtMs: number;
  /** undefined: it never fired (pending, then dropped) */
  readonly firedAtMs?: number;
  /** the first evaluation at which it was no longer firing (or pending); undefined: still active at the end */
  readonly endAtMs?: number;
  /** evaluations at which it was firing */
  readonly firingEvals: number;
}

/** A stable key of a label set. */
export function labelKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
}

/** Step indices (ascending, unique) → runs of consecutive indices. */
export function toRuns(steps: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const s of steps) {
    const last = runs[runs.length - 1];
    if (last && s === last[1] + 1) last[1] = s;
    else if (!last || s > last[1]) runs.push([s, s]);
    else throw new Error(`steps not ascending: ${s} after ${last[1]}`);
  }
  return runs;
}

/** The episodes of one label set under the rule's `for` and `keep_firing_for`. */
export function episodesOf(series: ActiveSeries, rule: AlertTiming, grid: EvalGrid): AlertEpisode[] {
  const at = (k: number) => grid.startMs + k * grid.stepMs;
  const forSteps = Math.ceil(rule.forMs / grid.stepMs);
  const keepSteps = Math.ceil(rule.keepFiringForMs / grid.stepMs);
  const out: AlertEpisode[] = [];
  let cur: { active: number; fired?: number; last: number } | undefined;
  const close = (endStep: number) => {
    if (!cur) return;
    const end = endStep < grid.steps ? at(endStep) : undefined;
    const lastFiring = Math.min(endStep, grid.steps) - 1;
    out.push({
      key: series.key,
      labels: series.labels,
      activeAtMs: at(cur.active),
      firedAtMs: cur.fired === undefined ? undefined : at(cur.fired),
      endAtMs: end,
      firingEvals: cur.fired === undefined ? 0 : lastFiring - cur.fired + 1,
    });
    cur = undefined;
  };
  for (const [a, b] of series.runs) {
    if (cur) {
      // the previous run ended at cur.last: a firing alert with keep_firing_for resolves at the first
      // evaluation without its series at least keep_firing_for after the first one without it; a
      // series back by then (at that evaluation included) keeps it firing
      const resolveStep = cur.last + 1 + keepSteps;
      if (cur.fired !== undefined && keepSteps > 0 && a <= resolveStep) {
        cur.last = b;
        continue;
      }
      close(cur.fired !== undefined ? resolveStep : cur.last + 1);
    }
    const fire = a + forSteps;
    cur = { active: a, last: b };
    if (fire <= b) cur.fired = fire;
    else close(b + 1); // pending, then dropped when the series went missing
  }
  if (cur) close(cur.fired !== undefined ? cur.last + 1 + keepSteps : cur.last + 1);
  return out;
}

/** Every episode of every label set, sorted by activeAt then key. */
export function alertEpisodes(series: readonly ActiveSeries[], rule: AlertTiming, grid: EvalGrid): AlertEpisode[] {
  return series.flatMap((s) => episodesOf(s, rule, grid)).sort((x, y) => x.activeAtMs - y.activeAtMs || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

/** An alert of one label set that fired again soon after resolving: its two firing episodes. */
export interface Flap {
  readonly first: AlertEpisode;
  readonly again: AlertEpisode;
}

/** Firing episodes of the same label set that fire again within `withinMs` of resolving: flaps. */
export function flaps(episodes: readonly AlertEpisode[], withinMs: number): Flap[] {
  const byKey = new Map<string, AlertEpisode[]>();
  for (const e of episodes) if (e.firedAtMs !== undefined) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
  const out: Flap[] = [];
  for (const list of byKey.values()) {
    list.sort((x, y) => x.firedAtMs! - y.firedAtMs!);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      if (prev.endAtMs !== undefined && next.firedAtMs! - prev.endAtMs <= withinMs) out.push({ first: prev, again: next });
    }
  }
  return out;
}
