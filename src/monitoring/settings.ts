/**
 * monitoring.yaml: the settings `avalanche-exporter generate` fits the alert rules and dashboards to
 * (label selector, datasource, thresholds, rule groups, dashboards, severity labels, runbook URL).
 * Every default is what the committed alerts/ and dashboards/ use; `npm run monitoring` writes them
 * with DEFAULT_SETTINGS. Errors name the key, as the exporter's own configuration does:
 *   thresholds.peersLow: expected a whole number ≥ 1, got "x"
 *   thresholds.peerLow: unknown key; did you mean peersLow? (valid here: ...)
 */
import YAML from 'yaml';
import { z } from 'zod';
import { didYouMean, schemaKeysAt } from '../config/suggest.js';
import { RUNBOOK_URL } from '../project-links.js';
import { parseDuration, promDuration } from './duration.js';

/** A problem in monitoring.yaml or in the `generate` arguments: the CLI prints it and exits 2. */
export class MonitoringSettingsError extends Error {
  override name = 'MonitoringSettingsError';
}

/** The rule groups, one alerts/<name>.rules.yaml each, in the order they are written. */
export const GROUP_NAMES = ['node', 'validator', 'index', 'upgrades', 'fleet', 'exporter', 'node-internals'] as const;
export type GroupName = (typeof GROUP_NAMES)[number];

/** The dashboards, one dashboards/avalanche-<name>.json each. */
export const DASHBOARD_NAMES = ['overview', 'node', 'validator', 'node-internals'] as const;
export type DashboardName = (typeof DASHBOARD_NAMES)[number];

/** The severity levels the rules are written with; `severities` maps each to the user's labels. */
export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What the user wrote, for messages: `"x"`, `1.5`, `nothing`. */
const shown = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)));

/** A number in [min, max] (whole with `int`), with a message that says what was expected and what came. */
function num(o: { min: number; max?: number; int?: boolean; minExclusive?: boolean; what?: string }) {
  const what = o.what ?? (o.int ? 'a whole number' : 'a number');
  const range = o.max !== undefined ? ` between ${o.min} and ${o.max}` : ` ${o.minExclusive ? '>' : '≥'} ${o.min}`;
  return z.unknown().transform((v, ctx) => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!o.int || Number.isInteger(v)) &&
      (o.minExclusive ? v > o.min : v >= o.min) &&
      (o.max === undefined || v <= o.max);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: `expected ${what}${range}, got ${shown(v)}` });
      return z.NEVER;
    }
    return v as number;
  });
}

/** A ratio in (0, 1]. */
const ratio = () => num({ min: 0, max: 1, what: 'a ratio' }).refine((v) => v > 0, { message: 'expected a ratio above 0 (e.g. 0.5), got 0' });

/** The duration schemas, so that a threshold can be shown as the user writes it (`3d`, not 259200). */
const durationSchemas = new WeakSet<z.ZodType>();

/** A duration (`10m`, `7d`, `1h30m` or whole seconds) → seconds; at least `minSeconds`. */
function duration(minSeconds = 1) {
  const schema = z.unknown().transform((v, ctx) => {
    const s = parseDuration(v);
    if (s === undefined || s < minSeconds) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a duration such as 10m, 6h or 7d${minSeconds > 1 ? ` of at least ${promDuration(minSeconds)}` : ''}, got ${shown(v)}`,
      });
      return z.NEVER;
    }
    return s;
  });
  durationSchemas.add(schema);
  return schema;
}

/** One of `values`, with a did-you-mean. */
function oneOf<T extends string>(values: readonly T[]) {
  return z.unknown().transform((v, ctx) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${values.join(', ')}, got ${shown(v)}${typeof v === 'string' ? didYouMean(v, values) : ''}` });
      return z.NEVER;
    }
    return v as T;
  });
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label name for the user's own labels: a Prometheus label name, not a reserved `__` one. */
const labelName = z.string().superRefine((k, ctx) => {
  if (!LABEL_NAME.test(k) || k.startsWith('__')) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(k)} is not a label name (letters, digits and _, not starting with a digit or __)` });
  }
});

/**
 * A label value: any text except a backtick, `{{`, `}}` and a line break. The annotations are Go
 * templates that quote queries in backtick raw strings (and the selector in text).
 */
const labelValue = z.unknown().transform((v, ctx) => {
  const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  if (typeof s !== 'string' || s === '' || /[`\r\n]|\{\{|\}\}/.test(s)) {
    ctx.addIssue({ code: 'custom', message: `expected a label value (text without backticks, {{, }} or line breaks), got ${shown(v)}` });
    return z.NEVER;
  }
  return s;
});

const labels = z.record(labelName, labelValue);

/** `critical: page` (the value of the severity label) or `critical: { severity: page, team: ops }` (the labels). */
const severityLabels = (level: Severity) =>
  z
    .union([labelValue.transform((v) => ({ severity: v }) as Record<string, string>), labels])
    .refine((l) => Object.keys(l).length > 0, { message: 'expected a severity label value or at least one label' })
    .default({ severity: level });

/**
 * Thresholds: every number an operator may tune, named after what it tunes, with its default: the one
 * place each is written. Durations in seconds once parsed. alerts/README.md's table and the thresholds of
 * examples/monitoring.yaml are generated from these and threshold-docs.ts (`npm run monitoring`).
 */
const thresholdShape = {
  peersLow: num({ min: 1, int: true }).default(20),
  // AvalanchePeersLow on a network of few validators: this share of the other validators, when below peersLow.
  peersLowShare: ratio().default(0.5),
  chainStallWindow: duration(60).default(300),
  indexStallWindow: duration(60).default(900),
  indexUnavailableLookback: duration(60).default(6 * 3600),
  uptimeRequirementFallback: ratio().default(0.8),
  uptimeAtRiskMargin: num({ min: 0, max: 1, what: 'a ratio' }).default(0.05),
  rewardingStakeLow: ratio().default(0.9),
  // AvalancheUptimeBudgetBurn (SRE workbook, multiwindow multi-burn-rate alerts): the share of the
  // validation's (or cycle's) downtime budget spent in the long window, at that pace in the short one too.
  uptimeBudgetFastBurn: ratio().default(0.02),
  uptimeBudgetFastWindow: duration(300).default(3600),
  uptimeBudgetFastShortWindow: duration(60).default(300),
  uptimeBudgetSlowBurn: ratio().default(0.05),
  uptimeBudgetSlowWindow: duration(300).default(6 * 3600),
  uptimeBudgetSlowShortWindow: duration(60).default(1800),
  validationEndingInfo: duration().default(14 * 86400),
  validationEndingWarning: duration().default(7 * 86400),
  validationEndingCritical: duration().default(86400),
  delegationCapacityLowAvax: num({ min: 0 }).default(0),
  l1RunwayWarning: duration().default(7 * 86400),
  l1RunwayCritical: duration().default(86400),
  l1WeightAtRiskWarning: ratio().default(0.2),
  l1WeightAtRiskCritical: ratio().default(0.33),
  rewardMissedWindow: duration().default(3 * 86400),
  upgradeWindow: duration().default(7 * 86400),
  newerVersionRatio: num({ min: 0, max: 1, what: 'a ratio' }).refine((v) => v < 1, { message: 'expected a ratio below 1 (the alert fires above it), got 1' }).default(0.5),
  versionBehindFor: duration(0).default(86400),
  acpMajority: num({ min: 0, max: 1, what: 'a ratio' }).refine((v) => v < 1, { message: 'expected a ratio below 1 (the alert fires above it), got 1' }).default(0.5),
  vantages: num({ min: 2, int: true }).default(2),
  referenceBehindBlocksC: num({ min: 0, int: true }).default(30),
  referenceBehindBlocksPX: num({ min: 0, int: true }).default(5),
  collectorFailingFor: duration(0).default(900),
  dataStaleSlowCollectors: duration().default(900),
  dataStale: duration().default(180),
  consensusStuckWindow: duration(60).default(600),
  l1ChainStallWindow: duration(60).default(900),
  pollFailureRatio: ratio().default(0.05),
  pollFailureRatioCritical: ratio().default(0.1),
  // avalanchego's consensus sample size k (snowball parameters; 20 on the primary network and by default on L1s).
  pollSampleSize: num({ min: 1, int: true }).default(20),
  blocksProcessingWarning: num({ min: 0, int: true }).default(6),
  blocksProcessingCritical: num({ min: 1, int: true }).default(15),
  connectedStakeLow: ratio().default(0.8),
  badBlocks: num({ min: 0, int: true }).default(10),
  // AvalancheCChainExecutionStuck / Lagging (C-Chain under SAE): the window, and the accepted blocks waiting to execute.
  cchainExecutionWindow: duration(300).default(600),
  cchainExecutionLagBlocks: num({ min: 1, int: true }).default(30),
  handlerExpiredPerSecond: num({ min: 0 }).default(1),
  benchedWeightRatio: ratio().default(0.1),
  dbLatency: num({ min: 0, minExclusive: true, what: 'a number of seconds' }).default(0.05),
  unstakeSoon: duration().default(86400),
  ipChangeWindow: duration(60).default(3600),
  verboseLogFor: duration(0).default(86400),
  diskFreeWarning: ratio().default(0.2),
  diskFreeCritical: ratio().default(0.1),
  diskUnhealthyLevel: ratio().default(0.1),
  diskShutdownLevel: ratio().default(0.03),
  diskRunwayWarning: duration().default(7 * 86400),
  diskRunwayCritical: duration().default(86400),
  diskGrowthWindow: duration(3600).default(6 * 3600),
};

const thresholdsSchema = z
  .strictObject(thresholdShape)
  .superRefine((t, ctx) => {
    // Tiers must be ordered, or a lower tier would never be the first to fire.
    const below = (a: keyof typeof t, b: keyof typeof t) => {
      if (!(t[a] < t[b])) {
        ctx.addIssue({ code: 'custom', path: [a], message: `expected less than thresholds.${b} (${promDuration(t[b])}), got ${promDuration(t[a])}` });
      }
    };
    below('validationEndingCritical', 'validationEndingWarning');
    below('uptimeBudgetFastShortWindow', 'uptimeBudgetFastWindow');
    below('uptimeBudgetSlowShortWindow', 'uptimeBudgetSlowWindow');
    below('uptimeBudgetFastWindow', 'uptimeBudgetSlowWindow');
    below('validationEndingWarning', 'validationEndingInfo');
    below('l1RunwayCritical', 'l1RunwayWarning');
    below('diskRunwayCritical', 'diskRunwayWarning');
    for (const [a, b] of [['diskFreeCritical', 'diskFreeWarning'], ['diskShutdownLevel', 'diskUnhealthyLevel'], ['l1WeightAtRiskWarning', 'l1WeightAtRiskCritical'], ['pollFailureRatio', 'pollFailureRatioCritical'], ['blocksProcessingWarning', 'blocksProcessingCritical']] as const) {
      if (!(t[a] < t[b])) ctx.addIssue({ code: 'custom', path: [a], message: `expected less than thresholds.${b} (${t[b]}), got ${t[a]}` });
    }
    if (t.uptimeRequirementFallback + t.uptimeAtRiskMargin > 1) {
      ctx.addIssue({ code: 'custom', path: ['uptimeAtRiskMargin'], message: `expected uptimeRequirementFallback + uptimeAtRiskMargin ≤ 1, got ${t.uptimeRequirementFallback} + ${t.uptimeAtRiskMargin}` });
    }
  });

/** A list of names (duplicates dropped, order of GROUP_NAMES / DASHBOARD_NAMES kept). */
function nameList<T extends string>(values: readonly T[]) {
  return z.array(oneOf(values)).transform((l): T[] => values.filter((v) => (l as readonly string[]).includes(v)));
}

const runbookBaseUrl = z.unknown().transform((v, ctx) => {
  let u: URL | undefined;
  try {
    u = typeof v === 'string' ? new URL(v) : undefined;
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.hash) {
    ctx.addIssue({ code: 'custom', message: `expected an http(s) URL without #anchor (each alert adds #<alertname in lower case>), got ${shown(v)}` });
    return z.NEVER;
  }
  return v as string;
});

export const settingsSchema = z.strictObject({
  selector: labels.default({}),
  datasource: z
    .string()
    .min(1, 'expected the name or uid of a Grafana data source')
    .optional(),
  runbookBaseUrl: runbookBaseUrl.default(RUNBOOK_URL),
  groups: nameList(GROUP_NAMES).default([...GROUP_NAMES]),
  dashboards: nameList(DASHBOARD_NAMES).default([...DASHBOARD_NAMES]),
  severities: z
    .strictObject({ critical: severityLabels('critical'), warning: severityLabels('warning'), info: severityLabels('info') })
    .prefault({}),
  thresholds: thresholdsSchema.prefault({}),
});

export type MonitoringSettings = z.output<typeof settingsSchema>;
export type Thresholds = MonitoringSettings['thresholds'];

/** The settings of the committed alerts/ and dashboards/. */
export const DEFAULT_SETTINGS: MonitoringSettings = settingsSchema.parse({});

/** The threshold keys, in the order monitoring.yaml and alerts/README.md list them. */
export const THRESHOLD_KEYS = Object.keys(thresholdShape) as (keyof Thresholds)[];

/** True for a threshold that is a duration (seconds once parsed; `10m`, `3d` in monitoring.yaml). */
export function isDurationThreshold(key: keyof Thresholds): boolean {
  return durationSchemas.has(thresholdShape[key].unwrap());
}

/** A threshold's value as monitoring.yaml writes it: `3d` for a duration, the number otherwise. */
export function thresholdText(key: keyof Thresholds, value: number): string {
  return isDurationThreshold(key) ? promDuration(value) : String(value);
}

/** The value at `path` of the document (what the user wrote there). */
function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let cur = doc;
  for (const p of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[p] : undefined;
  return cur;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** Thresholds of earlier releases, and why they went (a file that still sets one is told so). */
const RETIRED_THRESHOLDS: Readonly<Record<string, string>> = {
  l1ChainBusyPause: "AvalancheL1ChainStalled no longer judges an L1 chain by how busy it was (a busy L1 that goes idle paged); it reads the chain's own health check instead (issue 43)",
  l1ChainLookback: "AvalancheL1ChainStalled no longer judges an L1 chain by how busy it was (a busy L1 that goes idle paged); it reads the chain's own health check instead (issue 43)",
};

/** Validates an already parsed document (an object, or null/undefined for an empty file). */
export function parseSettings(doc: unknown, source = 'monitoring settings'): MonitoringSettings {
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new MonitoringSettingsError(`${source}: expected a mapping at the top level`);
  const r = settingsSchema.safeParse(doc);
  if (r.success) return r.data;
  const lines = r.error.issues.slice(0, 20).flatMap((i) => {
    const path = formatPath(i.path);
    if (i.code === 'unrecognized_keys') {
      const valid = schemaKeysAt(settingsSchema, i.path) ?? [];
      const retired = path === 'thresholds' ? RETIRED_THRESHOLDS : {};
      return i.keys.map((k) =>
        k in retired ? `  ${path}.${k}: no longer a threshold: ${retired[k]}; remove it` : `  ${path ? `${path}.` : ''}${k}: unknown key${didYouMean(k, valid)}${valid.length ? ` (valid here: ${valid.join(', ')})` : ''}`,
      );
    }
    if (i.code === 'invalid_key') return [`  ${path}: ${i.issues.map((x) => x.message).join('; ')}`];
    if (i.code === 'invalid_type') {
      const v = valueAt(doc, i.path);
      const got = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`;
      return [`  ${path || '(top level)'}: expected ${i.expected === 'record' || i.expected === 'object' ? 'a mapping' : i.expected === 'array' ? 'a list' : i.expected}, got ${got}`];
    }
    return [`  ${path || '(top level)'}: ${i.message}`];
  });
  throw new MonitoringSettingsError(`invalid monitoring settings (${source}):\n${lines.join('\n')}`);
}

/** Parses the text of monitoring.yaml. */
export function parseSettingsYaml(text: string, source = 'monitoring.yaml'): MonitoringSettings {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    const e = err as { message?: string; linePos?: { line: number; col: number }[] };
    const pos = e.linePos?.[0];
    throw new MonitoringSettingsError(`${source}: not valid YAML: ${String(e.message ?? err).split('\n')[0]}${pos ? ` (line ${pos.line}, column ${pos.col})` : ''}`);
  }
  return parseSettings(doc, source);
}
