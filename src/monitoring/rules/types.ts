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
