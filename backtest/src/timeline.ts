// The timeline format (YAML or JSON) and its loader: a fleet of simulated nodes, a stretch of
// simulated time, seeded background noise and explicit events; an event with `expect` is an injected
// fault, scored on the alerts that must page and by when. Validated with zod; every error names the
// file and the path of the bad value (`events[3].at: expected a duration like 15m, got "15 min"`).
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { SCENARIOS, SIM_VERSIONS } from '@avalanche-exporter/simulated-node';
import { parseDurationMs } from './duration.js';

/** 2026-01-05T00:00:00Z (a Monday, after every upgrade the simulated v1.14.2 knows of). */
export const DEFAULT_START_MS = Date.UTC(2026, 0, 5);

const duration = (what: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const ms = parseDurationMs(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected ${what} like 90s, 15m, 2h30m or 7d, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return ms;
  });
const positive = (what: string) => duration(what).refine((ms) => ms > 0, `${what} must be longer than 0`);
/** [min, max] or one value: a random duration between the two (seeded), or exactly that one. */
const range = (what: string) =>
  z.union([duration(what).transform((ms) => [ms, ms] as const), z.tuple([duration(what), duration(what)])]).refine(([a, b]) => a <= b, `${what}: the first value must not exceed the second`);
const rate = z.number().min(0).max(1);
/** [min, max] or one value: a share between the two (seeded), or exactly that one. */
const shares = z
  .union([rate.transform((v) => [v, v] as const), z.tuple([rate, rate])])
  .refine(([a, b]) => a <= b && b > 0, 'a share: the first value must not exceed the second, and the second must be above 0');
const scenario = z.string().superRefine((s, ctx) => {
  if (!(SCENARIOS as readonly string[]).includes(s)) ctx.addIssue({ code: 'custom', message: `unknown scenario ${JSON.stringify(s)}; valid: ${SCENARIOS.join(', ')}` });
});

const expectation = z
  .object({
    alert: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an alert name'),
    /** labels the firing alert must carry (exact values) */
    labels: z.record(z.string(), z.string()).default({}),
    /** deadline from the event; default: figures.ts defaultDeadlineMs (for + 2 evaluations + a scrape or the slowest collector it reads + its window) */
    within: positive('a deadline').optional(),
    /** why this fault may page later than the default deadline (shown in the report) */
    why: z.string().optional(),
  })
  .strict();

const common = {
  at: duration('an offset from the start'),
  /** a node of the fleet (0-based); omitted: every node */
  node: z.number().int().min(0).optional(),
  /** back to the state before after this long (scenario, timeouts, exporter-down, missed-scrapes) */
  for: positive('a duration').optional(),
  expect: z.array(expectation).optional(),
  note: z.string().optional(),
};

const event = z.discriminatedUnion('do', [
  z.object({ do: z.literal('scenario'), scenario, ...common }).strict(),
  /** an upgrade: the node process stops, starts again and re-bootstraps */
  z.object({ do: z.literal('upgrade'), down: positive('downtime'), rebootstrap: duration('a bootstrap time'), ...common }).strict(),
  /** a restart of the node process in place: health "not yet run" until its first run */
  z.object({ do: z.literal('restart'), firstRun: duration('a first health run').optional(), ...common }).strict(),
  z.object({ do: z.literal('exporter-restart'), downtime: duration('downtime'), ...common }).strict(),
  z.object({ do: z.literal('exporter-down'), ...common, for: positive('a duration') }).strict(),
  z.object({ do: z.literal('missed-scrapes'), ...common, for: positive('a duration') }).strict(),
  /** a share of the node's requests times out (1 = every request) */
  z.object({ do: z.literal('timeouts'), rate, ...common, for: positive('a duration') }).strict(),
  /** the node's fixed-end validation ends now with its reward paid and is re-staked at once (nothing on an auto-renewed one) */
  z.object({ do: z.literal('restake'), ...common }).strict(),
  /** the node leaves the validator set for `out`, then joins it again with a new validation */
  z.object({ do: z.literal('join'), out: positive('a spell out of the set'), ...common }).strict(),
  /** a validator of the node's L1 is registered, or the last one registered is removed */
  z.object({ do: z.literal('l1-change'), ...common }).strict(),
  /** a share of the node's validator peers restart: gone for `for`, then reporting anew */
  z.object({ do: z.literal('peer-restart'), share: rate.refine((v) => v > 0, 'a share above 0'), ...common, for: positive('a duration') }).strict(),
]);

const every = (what: string) => positive(what);
const noise = z
  .object({
    /** per node, on average once per `every`: down, then bootstrapping, then healthy */
    upgrades: z.object({ every: every('an upgrade period'), down: range('downtime'), rebootstrap: range('a bootstrap time') }).strict().optional(),
    /** per node: restarts of the process in place */
    restarts: z.object({ every: every('a restart period') }).strict().optional(),
    /** per node: stretches in which every answer comes after the exporter's deadline */
    slow: z.object({ every: every('a period'), for: range('a duration') }).strict().optional(),
    /** per request: a single answer after the deadline */
    timeouts: z.object({ rate }).strict().optional(),
    /** the exporter process restarts: no scrape during the downtime, a fresh exporter after it */
    exporterRestarts: z.object({ every: every('a restart period'), downtime: range('downtime') }).strict().optional(),
    /** per scrape: Prometheus misses one */
    missedScrapes: z.object({ rate }).strict().optional(),
    /** per node: its fixed-end validation ends (reward paid) and is re-staked at once; none on an auto-renewed validator */
    restakes: z.object({ every: every('a re-stake period') }).strict().optional(),
    /** per node: it leaves the validator set for `out`, then joins it again (a new validation, or registration) */
    joins: z.object({ every: every('a join period'), out: range('a spell out of the set') }).strict().optional(),
    /** per node: a validator of its L1 registered, or the last one registered removed (alternately) */
    l1Changes: z.object({ every: every('an L1 change period') }).strict().optional(),
    /** per node: a share of its validator peers restart around it (a release wave): gone for `for`, then reporting anew */
    peerRestarts: z.object({ every: every('a peer restart period'), share: shares, for: range('a restart') }).strict().optional(),
  })
  .strict();

const fleet = z
  .object({
    nodes: z.number().int().min(1).max(32),
    validators: z.number().int().min(5).max(2000).default(60),
    peers: z.number().int().min(0).max(3000).default(80),
    /** each node's ID is also watched by this many other targets (AvalancheValidatorFewVantagesConnected) */
    vantages: z.number().int().min(0).max(31).default(0),
    /** each target watches its node's own L1 (`subnets`): its own ID is expected active there, its vantage IDs only on the primary network */
    watchL1: z.boolean().default(true),
    /** a reference target (a public API node of the same network) the heights are compared with */
    reference: z.boolean().default(false),
    /** the opt-in admin-logger collector (Admin API) */
    adminLogger: z.boolean().default(false),
    /** the avalanchego version each node answers as (the simulator's, simulated-node/src/versions.ts) */
    versions: z.array(z.enum(SIM_VERSIONS)).optional(),
  })
  .strict();

const settings = z
  .object({
    /** the exporter's collection interval and Prometheus' scrape interval */
    interval: positive('an interval').optional(),
  })
  .strict();

export const timelineSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a lower-case name (letters, digits, . _ -)').optional(),
    description: z.string().min(1),
    seed: z.number().int().min(0).max(2 ** 31),
    start: z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)).optional(),
    duration: positive('a duration'),
    fleet,
    settings: settings.default({}),
    noise: noise.default({}),
    events: z.array(event).default([]),
  })
  .strict();

export type TimelineEvent = z.output<typeof event>;
export type Expectation = z.output<typeof expectation>;
export type NoiseSpec = z.output<typeof noise>;
export type FleetSpec = z.output<typeof fleet>;

export interface Timeline extends Omit<z.output<typeof timelineSchema>, 'name' | 'start'> {
  readonly name: string;
  readonly startMs: number;
}

export class TimelineError extends Error {
  constructor(readonly file: string, readonly problems: readonly string[]) {
    super(`${file}: invalid timeline:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'TimelineError';
  }
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out || '(top level)';
}

/** Parses and validates a timeline; `file` names it in errors and gives the default name. */
export function parseTimeline(text: string, file: string): Timeline {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new TimelineError(file, [`not ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`]);
  }
  const r = timelineSchema.safeParse(raw);
  if (!r.success) throw new TimelineError(file, r.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`));
  const t = r.data;
  const problems: string[] = [];
  t.events.forEach((e, i) => {
    if (e.at > t.duration) problems.push(`events[${i}].at: ${e.at / 1000}s is after the end of the timeline (${t.duration / 1000}s)`);
    if (e.node !== undefined && e.node >= t.fleet.nodes) problems.push(`events[${i}].node: ${e.node} is not in a fleet of ${t.fleet.nodes} (0 to ${t.fleet.nodes - 1})`);
    const nodeLess = e.do === 'exporter-restart' || e.do === 'exporter-down' || e.do === 'missed-scrapes';
    if (nodeLess && e.node !== undefined) problems.push(`events[${i}].node: ${e.do} concerns the exporter, not a node`);
  });
  if (t.fleet.vantages >= t.fleet.nodes && t.fleet.vantages > 0) problems.push(`fleet.vantages: ${t.fleet.vantages} needs at least ${t.fleet.vantages + 1} nodes`);
  if (t.fleet.versions && t.fleet.versions.length > t.fleet.nodes) problems.push(`fleet.versions: ${t.fleet.versions.length} versions for ${t.fleet.nodes} nodes`);
  if (problems.length > 0) throw new TimelineError(file, problems);
  const base = file.replace(/^.*[\\/]/, '').replace(/\.(ya?ml|json)$/, '');
  const { name, start, ...rest } = t;
  return { ...rest, name: name ?? base, startMs: start ?? DEFAULT_START_MS };
}

/** The events that are injected faults (they carry expectations). */
export function faultsOf(t: Timeline): { index: number; event: TimelineEvent }[] {
  return t.events.flatMap((event, index) => (event.expect && event.expect.length > 0 ? [{ index, event }] : []));
}
