// The false-page budget (issue 43): per rule, its false pages per healthy node-day and the upper bound the
// simulated healthy time supports at 95 % confidence (no page in N node-days: −ln 0.05 / N ≈ 3 / N, the rule
// of three; k pages: the Poisson upper bound), against its severity's budget (FALSE_PAGE_BUDGET,
// src/monitoring/rules/types.ts). A rule whose bound is above the budget after a false page is OVER: the run
// fails (cli.ts, exit status 3). A rule with no false page whose bound is above the budget only lacks
// simulated time (a fault timeline's three hours prove no budget): unproven, listed, not failed. Pure.
// Of src/monitoring it imports only rules/types.ts, which imports nothing at run time (the Grafana SDK stays
// out: test/monitoring/lazy-sdk.test.ts).
import { type Severity, budgetPerNodeDay, FALSE_PAGE_BUDGET } from 'avalanche-exporter';
import type { AlertRule } from './rules.js';

const SEVERITIES = Object.keys(FALSE_PAGE_BUDGET) as Severity[];

export const CONFIDENCE = 0.95;

/** P(X ≤ k) for X ~ Poisson(λ), summed in log space (no underflow for large λ). */
export function poissonCdf(k: number, lambda: number): number {
  if (lambda === 0) return 1;
  let sum = 0;
  let logFactorial = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logFactorial += Math.log(i);
    sum += Math.exp(-lambda + i * Math.log(lambda) - logFactorial);
  }
  return Math.min(1, sum);
}

/**
 * The one-sided upper confidence bound of a Poisson mean after observing `k` events: the λ with
 * P(X ≤ k; λ) = 1 − confidence (Garwood's exact bound; k = 0: −ln 0.05 = 2.996, the rule of three).
 * Bisection, 200 halvings at most.
 */
export function poissonUpper(k: number, confidence = CONFIDENCE): number {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`expected a count of events, got ${k}`);
  let lo = 0;
  let hi = k + 10 * Math.sqrt(k + 1) + 10;
  for (let i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (poissonCdf(k, mid) > 1 - confidence) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export type Verdict = 'within' | 'OVER' | 'unproven';

export interface BudgetRow {
  readonly id: string;
  readonly severity: Severity;
  readonly falsePages: number;
  readonly nodeDays: number;
  /** false pages per node-day, measured */
  readonly rate: number;
  /** its 95 % upper bound, per node-day */
  readonly bound: number;
  /** the severity's budget, per node-day */
  readonly budget: number;
  readonly verdict: Verdict;
}

const isSeverity = (s: string | undefined): s is Severity => (SEVERITIES as readonly (string | undefined)[]).includes(s);

/** The verdict of `falsePages` in `nodeDays` against `budget` false pages per node-day. */
export function verdictOf(falsePages: number, nodeDays: number, budget: number): { rate: number; bound: number; verdict: Verdict } {
  const rate = nodeDays > 0 ? falsePages / nodeDays : falsePages > 0 ? Infinity : 0;
  const bound = nodeDays > 0 ? poissonUpper(falsePages) / nodeDays : Infinity;
  const verdict: Verdict = bound <= budget ? 'within' : falsePages > 0 ? 'OVER' : 'unproven';
  return { rate, bound, verdict };
}

/**
 * A row per rule that can page: every rule with a severity of FALSE_PAGE_BUDGET but the always-firing ones
 * (an expression that reads no series, Watchdog: the heartbeat, never a page).
 */
export function budgetRows(rules: readonly AlertRule[], falsePagesOf: (id: string) => number, nodeDays: number): BudgetRow[] {
  return rules.flatMap((r) => {
    const severity = r.labels['severity'];
    if (r.metrics.length === 0 || !isSeverity(severity)) return [];
    const budget = budgetPerNodeDay(severity);
    const falsePages = falsePagesOf(r.id);
    return [{ id: r.id, severity, falsePages, nodeDays, budget, ...verdictOf(falsePages, nodeDays, budget) }];
  });
}

/** `0.0071 (1 per 140 node-days)`; a rate of one or more a day as the number alone. */
export function perNodeDay(x: number): string {
  if (!Number.isFinite(x)) return '∞';
  if (x === 0) return '0';
  if (x >= 0.5) return x.toFixed(x >= 10 ? 1 : 2);
  return `${x.toFixed(4)} (1 per ${Math.round(1 / x).toLocaleString('en-US')} node-days)`;
}

/** The per-rule table. */
export function ruleBudgetTable(rows: readonly BudgetRow[]): string {
  const lines = ['| alert | severity | false pages | per node-day | 95 % upper bound | budget | verdict |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.id} | ${r.severity} | ${r.falsePages} | ${r.rate === 0 ? '0' : r.rate.toFixed(4)} | ${perNodeDay(r.bound)} | ${perNodeDay(r.budget)} | ${r.verdict} |`);
  return lines.join('\n');
}

/** Per severity, all its rules together (informative: the budget is per rule). */
export function severityLines(rows: readonly BudgetRow[], nodeDays: number): string[] {
  return SEVERITIES.flatMap((sev) => {
    const mine = rows.filter((r) => r.severity === sev);
    if (mine.length === 0) return [];
    const k = mine.reduce((n, r) => n + r.falsePages, 0);
    const bound = nodeDays > 0 ? poissonUpper(k) / nodeDays : Infinity;
    return [`- ${sev}, its ${mine.length} rules together: ${k} false pages in ${nodeDays.toFixed(1)} node-days, at most ${perNodeDay(bound)}`];
  });
}

/** One line per rule over its budget: what fails the run. */
export function overLines(rows: readonly BudgetRow[]): string[] {
  return rows
    .filter((r) => r.verdict === 'OVER')
    .map((r) => `OVER BUDGET: ${r.id} (${r.severity}): ${r.falsePages} false page${r.falsePages === 1 ? '' : 's'} in ${r.nodeDays.toFixed(1)} healthy node-days, at most ${perNodeDay(r.bound)} at 95 %, above the budget of ${perNodeDay(r.budget)}`);
}

/** `budget: 60 rules within, 0 over, 2 unproven (…)`. */
export function budgetLine(rows: readonly BudgetRow[], nodeDays: number): string {
  const n = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const best = nodeDays > 0 ? poissonUpper(0) / nodeDays : Infinity;
  return `budget: ${n('within')} rules within, ${n('OVER')} over, ${n('unproven')} unproven (${nodeDays.toFixed(1)} healthy node-days bound a rule without a false page at ${perNodeDay(best)})`;
}
