/**
 * An alert rule as the rule modules write it: the Prometheus rule without the parts every rule
 * gets the same way (the severity labels and the runbook_url come from the settings in render.ts).
 */
import type { PromQL } from '../promql.js';
import type { GroupName, Severity, Thresholds } from '../settings.js';

export interface AlertRule {
  alert: string;
  /** Why the rule is written this way; a YAML comment above the rule. */
  comment?: string;
  expr: string;
  /** Prometheus duration (`10m`). */
  for: string;
  /**
   * Prometheus `keep_firing_for` (a duration): how long a firing alert stays firing after its expression
   * stops matching. For a rule that mutes others (an inhibition source), so that it does not resolve before
   * the alerts it mutes have.
   */
  keepFiringFor?: string;
  severity: Severity;
  summary: string;
  description: string;
  /** What it needs besides the defaults, for alerts/README.md ("a target with `reference: true`"). */
  needs?: string;
}

/** What a rule module gets: the thresholds and the selector helper (no target matcher in rules). */
export interface RuleContext {
  t: Thresholds;
  q: PromQL;
}

export interface RuleGroupDef {
  /** monitoring.yaml `groups` entry and file name: alerts/<name>.rules.yaml */
  name: GroupName;
  /** Prometheus rule group name. */
  group: string;
  /** Comment at the top of the file (what the group watches). */
  header: string;
  rules(ctx: RuleContext): AlertRule[];
}

/** The primary network's subnet ID (P-Chain). */
export const PRIMARY_NETWORK = '11111111111111111111111111111111LpoYY';

/**
 * The false-page budget of each severity: at most `pages` false pages per `nodeDays` node-days for any one rule of
 * that severity (a false page: a notification no fault explains; node-days: nodes watched × days). The backtest
 * (`npm run backtest`, backtest/src/budget.ts) bounds each rule's rate at 95 % confidence from the simulated
 * healthy time (0 pages in N node-days: 3 / N, the rule of three; k pages: the Poisson upper bound) and fails a
 * rule whose bound is above its severity's budget. alerts/README.md ("False-page budget") states it and why.
 *
 * critical pages a person at any hour; warning is worked the same day; info is a daily digest (repeat 24h in
 * examples/alertmanager.yml), so each step tolerates about three times as many. critical is as tight as the
 * backtest can prove: 0 false pages in N node-days bound the rate at 3 / N, so a budget of 1 per 100 node-days
 * needs 300 healthy node-days (43 node-weeks) even for a rule that never pages falsely; the library's healthy
 * weeks are 60 node-weeks. 1 per 1,000 node-days would need 3,000 node-days (430 node-weeks) of simulation.
 */
export const FALSE_PAGE_BUDGET: Readonly<Record<Severity, { readonly pages: number; readonly nodeDays: number }>> = {
  critical: { pages: 1, nodeDays: 100 },
  warning: { pages: 1, nodeDays: 30 },
  info: { pages: 1, nodeDays: 10 },
};

/** The budget of a severity as false pages per node-day. */
export function budgetPerNodeDay(severity: Severity): number {
  const b = FALSE_PAGE_BUDGET[severity];
  return b.pages / b.nodeDays;
}
