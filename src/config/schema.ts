import { z } from 'zod';
import type { Collector, OptionSpec } from '../collectors/define.js';
import { COLLECTORS } from '../collectors/index.js';
import { formatDuration } from '../duration.js';
import { descriptorsOf, labelNamesOf } from '../metrics/descriptors.js';
import type { MetricDescriptor } from '../model.js';
import { metricSelectionSchema, type MetricSelectionInput } from './metric-selection.js';
import {
  DEFAULT_COLLECTOR_TIMEOUT_SECONDS,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_NODE_TIMEOUT_SECONDS,
  DEFAULT_NODE_URL,
  SETTINGS,
  type SettingSpec,
} from './settings.js';
import { isBaseInterval, isWholeCycles } from './intervals.js';
import { didYouMean } from './suggest.js';
import { MAX_USER_LABELS, userLabelsSchema } from './user-labels.js';
import { duration } from './value-types.js';

/**
 * The configuration schema, built from the settings table (settings.ts) and the collectors' own
 * declarations (options and defaults in each collector file). Flags, environment variables and the
 * YAML file all produce a raw object of this shape; the schema validates it and fills the defaults.
 */

/** The table as the schema builders read it (each row a SettingSpec; SETTINGS keeps the literal types). */
const TABLE: readonly SettingSpec[] = SETTINGS;

/** A default goes through the setting's own type (prefault), like a value the user wrote. */
const withDefault = (s: SettingSpec): z.ZodType => (s.default !== undefined ? s.schema!.prefault(s.default) : s.schema!.optional());

/** The top-level keys of the table's settings (node, web, collection, shard, runtime, log). */
const GROUPS = [...new Set(TABLE.flatMap((s) => (s.path.length === 2 ? [String(s.path[0])] : [])))];

/** The settings under one top-level key. */
function group(key: string): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const s of TABLE) if (s.path.length === 2 && s.path[0] === key) shape[String(s.path[1])] = withDefault(s);
  return z.strictObject(shape).prefault({});
}

const optionSchema = (o: OptionSpec): z.ZodType =>
  o.kind === 'bool' ? z.boolean() : o.kind === 'duration' ? duration('the option') : z.number().int().min(o.min).max(o.max);

const collectorEntry = z.strictObject({
  enabled: z.boolean().optional(),
  interval: duration('collector interval').optional(),
});

/** `collectors:` at the top level: per collector its on/off, its interval and its own options. */
function collectorsBlock(collectors: readonly Collector<any>[]): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const c of collectors) {
    const opts: Record<string, z.ZodType> = {};
    for (const [k, o] of Object.entries(c.options)) opts[k] = optionSchema(o).optional();
    shape[c.name] = collectorEntry.extend(opts).optional();
  }
  return z.strictObject(shape).prefault({});
}

/** What a target's series may carry and leave out, read off the families the exporter declares. */
interface SeriesRules {
  readonly labels: z.ZodType;
  readonly metrics: z.ZodType;
}

function seriesRules(descriptors: readonly MetricDescriptor[]): SeriesRules {
  return { labels: userLabelsSchema(labelNamesOf(descriptors)), metrics: metricSelectionSchema(descriptors.map((d) => d.name)) };
}

/** One target: the target settings of the table, per-target collector overrides, its labels and metric selection. */
function targetSchema(rules: SeriesRules): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const s of TABLE) if (s.target) shape[String(s.path[2])] = s.flag === 'node.url' ? s.schema! : withDefault(s);
  shape['collectors'] = z.record(z.string(), collectorEntry).default({});
  shape['labels'] = rules.labels.optional();
  shape['metrics'] = rules.metrics.optional();
  return z.strictObject(shape);
}

/** `15s`, or `15s, the default; set --collection.interval to change it` for a value the user did not set. */
function shown(seconds: number, defaulted: boolean, flag: string): string {
  return defaulted ? `${formatDuration(seconds)}, the default; set --${flag} to change it` : formatDuration(seconds);
}

// The Config type, read off the settings table: no interface written beside the schema can drift from it.
type Setting = (typeof SETTINGS)[number];
type Flat<T> = { readonly [K in keyof T]: T[K] };
/** What a setting's schema produces, read-only like the rest of the configuration. */
type Value<S> = S extends { readonly schema: infer T extends z.ZodType } ? ReadonlyValue<z.output<T>> : never;
type ReadonlyValue<T> = T extends readonly (infer E)[] ? readonly E[] : T extends object ? Readonly<T> : T;
/** Present after parsing: the setting has a default, or (once `Filled`) schema.ts computes one. */
type Present<S, Filled extends boolean> = S extends { readonly default: unknown } ? true : Filled extends true ? (S extends { readonly computed: true } ? true : false) : false;
/** The settings whose path is `Path` + one key, each typed by its schema's output. */
type SettingsAt<Path extends readonly unknown[], Filled extends boolean> = Flat<
  { readonly [S in Setting as S['path'] extends readonly [...Path, infer K extends string] ? (Present<S, Filled> extends true ? K : never) : never]: Value<S> } & {
    readonly [S in Setting as S['path'] extends readonly [...Path, infer K extends string] ? (Present<S, Filled> extends true ? never : K) : never]?: Value<S>;
  }
>;
type GroupName = Setting['path'] extends infer P ? (P extends readonly [infer G extends string, string] ? G : never) : never;
type CollectorEntry = z.output<typeof collectorEntry>;
type ConfigShape<Filled extends boolean> = Flat<
  { readonly [G in GroupName]: SettingsAt<[G], Filled> } & {
    /** Per collector: enabled, interval and its options, as given (defaults are the collector's). */
    readonly collectors: Readonly<Record<string, (CollectorEntry & Readonly<Record<string, unknown>>) | undefined>>;
    readonly targets: readonly TargetConfig[];
    /** User labels of every target (each target's own `labels` override them name by name). */
    readonly labels: Readonly<Record<string, string>>;
    /** Metric selection of every target (each list of a target's own `metrics` replaces the one here). */
    readonly metrics: MetricSelectionInput;
  }
>;

/** The shape the schema produces. */
export type Config = ConfigShape<true>;
/** One target of the configuration: the table's target settings, and per-target collector overrides. */
export type TargetConfig = Flat<
  SettingsAt<['targets', 0], true> & {
    readonly collectors: Readonly<Record<string, CollectorEntry>>;
    readonly labels?: Readonly<Record<string, string>>;
    readonly metrics?: MetricSelectionInput;
  }
>;

export function buildConfigSchema(collectors: readonly Collector<any>[] = COLLECTORS): z.ZodType<Config> {
  const names = collectors.map((c) => c.name);
  const shape: Record<string, z.ZodType> = Object.fromEntries(GROUPS.map((g) => [g, group(g)]));
  const rules = seriesRules(descriptorsOf(collectors));
  shape['collectors'] = collectorsBlock(collectors);
  shape['labels'] = rules.labels.default({});
  shape['metrics'] = rules.metrics.default({});
  shape['targets'] = z.array(targetSchema(rules)).min(1, 'expected at least one target').default([{ url: DEFAULT_NODE_URL }]);
  // The one cast: zod cannot type a shape built from the table at run time; ConfigShape is that table's type.
  const raw = z.strictObject(shape) as unknown as z.ZodType<ConfigShape<false>>;
  return raw
    .superRefine((cfg, ctx) => {
      if (cfg.shard.index >= cfg.shard.total) {
        ctx.addIssue({ code: 'custom', path: ['shard', 'index'], message: `expected a shard index from 0 to ${cfg.shard.total - 1} (--shard.total is ${cfg.shard.total}), got ${cfg.shard.index}` });
      }
      // Messages about a value the user did not set say so, and which flag changes it.
      const intervalDefaulted = cfg.collection.interval === undefined;
      const interval = cfg.collection.interval ?? DEFAULT_INTERVAL_SECONDS;
      const intervalText = shown(interval, intervalDefaulted, 'collection.interval');
      if (!isBaseInterval(interval)) {
        ctx.addIssue({
          code: 'custom',
          path: ['collection', 'interval'],
          message: `expected an interval that divides a minute (1s-30s) or an hour (1m-30m, whole minutes), got ${formatDuration(interval)}`,
        });
      }
      if (cfg.collection.timeout !== undefined && cfg.collection.timeout > interval) {
        ctx.addIssue({ code: 'custom', path: ['collection', 'timeout'], message: `must not exceed collection.interval (${intervalText}), got ${formatDuration(cfg.collection.timeout)}` });
      }
      const checkInterval = (v: number | undefined, path: (string | number)[]) => {
        if (v === undefined) return;
        if (!isWholeCycles(v, interval)) {
          ctx.addIssue({ code: 'custom', path, message: `expected a multiple of collection.interval (${intervalText}), got ${formatDuration(v)}` });
        }
      };
      for (const [name, entry] of Object.entries(cfg.collectors)) checkInterval(entry?.interval, ['collectors', name, 'interval']);
      const seen = new Set<string>();
      cfg.targets.forEach((t, i) => {
        for (const [name, entry] of Object.entries(t.collectors)) {
          if (!names.includes(name)) {
            ctx.addIssue({ code: 'custom', path: ['targets', i, 'collectors', name], message: `unknown collector (expected one of ${names.join(', ')})${didYouMean(name, names)}` });
          }
          checkInterval(entry.interval, ['targets', i, 'collectors', name, 'interval']);
        }
        const labelCount = Object.keys({ ...cfg.labels, ...t.labels }).length;
        if (labelCount > MAX_USER_LABELS) {
          ctx.addIssue({ code: 'custom', path: ['targets', i, 'labels'], message: `expected at most ${MAX_USER_LABELS} labels with the top-level ones, got ${labelCount}` });
        }
        // An ID listed twice is harmless, unless one of them says where it must validate: which one holds?
        const entries = new Map<string, boolean>();
        t.validatorNodeIds.forEach((e, j) => {
          const id = typeof e === 'string' ? e : e.nodeId;
          const detailed = typeof e !== 'string';
          const before = entries.get(id);
          if (before !== undefined && (before || detailed)) {
            ctx.addIssue({ code: 'custom', path: ['targets', i, 'validatorNodeIds', j], message: `${id} is listed twice; list it once (with its subnets, if any)` });
          }
          entries.set(id, (before ?? false) || detailed);
        });
        const name = t.name ?? defaultTargetName(t.url);
        if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['targets', i, 'name'], message: `duplicate target name ${JSON.stringify(name)}` });
        seen.add(name);
      });
    })
    .transform((cfg): Config => {
      const interval = cfg.collection.interval ?? DEFAULT_INTERVAL_SECONDS;
      const timeout = cfg.collection.timeout ?? Math.min(DEFAULT_COLLECTOR_TIMEOUT_SECONDS, interval);
      return {
        ...cfg,
        collection: { ...cfg.collection, interval, timeout },
        node: { ...cfg.node, timeout: cfg.node.timeout ?? Math.min(DEFAULT_NODE_TIMEOUT_SECONDS, timeout) },
      };
    });
}

export const configSchema = buildConfigSchema();

/** Default target name: host:port of the URL (never credentials or path). */
export function defaultTargetName(url: string): string {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.hostname}:${port}`;
  } catch {
    return 'invalid-url';
  }
}
