import { z } from 'zod';
import type { Collector, OptionSpec } from '../collectors/define.js';
import { COLLECTORS } from '../collectors/index.js';
import { formatDuration } from '../duration.js';
import {
  DEFAULT_COLLECTOR_TIMEOUT_SECONDS,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_NODE_TIMEOUT_SECONDS,
  DEFAULT_NODE_URL,
  SETTINGS,
  type SettingSpec,
} from './settings.js';
import { didYouMean } from './suggest.js';
import { duration } from './value-types.js';

/**
 * The configuration schema, built from the settings table (settings.ts) and the collectors' own
 * declarations (options and defaults in each collector file). Flags, environment variables and the
 * YAML file all produce a raw object of this shape; the schema validates it and fills the defaults.
 */

/** A default goes through the setting's own type (prefault), like a value the user wrote. */
const withDefault = (s: SettingSpec): z.ZodType => (s.default !== undefined ? s.schema!.prefault(s.default as never) : s.schema!.optional());

/** The settings under one top-level key (web, log, collection, node). */
function group(key: string): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const s of SETTINGS) if (s.path.length === 2 && s.path[0] === key) shape[String(s.path[1])] = withDefault(s);
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

/** One target: the target settings of the table, and per-target collector overrides. */
function targetSchema(): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const s of SETTINGS) if (s.target) shape[String(s.path[2])] = s.flag === 'node.url' ? s.schema! : withDefault(s);
  shape['collectors'] = z.record(z.string(), collectorEntry).default({});
  return z.strictObject(shape);
}

/** `15s`, or `15s, the default; set --collection.interval to change it` for a value the user did not set. */
function shown(seconds: number, defaulted: boolean, flag: string): string {
  return defaulted ? `${formatDuration(seconds)}, the default; set --${flag} to change it` : formatDuration(seconds);
}

/** The shape the schema produces (the parts the rest of the exporter reads, typed). */
export interface Config {
  readonly web: {
    readonly listenAddress: string;
    readonly telemetryPath: string;
    readonly disableExporterMetrics: boolean;
    readonly maxConcurrentScrapes: number;
    readonly enableLifecycle: boolean;
    readonly configFile?: string;
  };
  readonly log: { readonly level: string };
  readonly runtime: { readonly optimizeForSize: boolean };
  readonly shard: { readonly total: number; readonly index: number };
  readonly collection: { readonly interval: number; readonly timeout: number; readonly maxConcurrentTargets: number };
  readonly node: { readonly timeout: number; readonly maxResponseSize: number; readonly connections: number };
  /** Per collector: enabled, interval and its options, as given (defaults are the collector's). */
  readonly collectors: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  readonly targets: readonly TargetConfig[];
}

export interface TargetConfig {
  readonly name?: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly reference: boolean;
  readonly validatorNodeIds: readonly string[];
  readonly expectActive: boolean;
  readonly subnets: readonly string[];
  readonly chains: readonly string[];
  readonly collectors: Readonly<Record<string, { readonly enabled?: boolean; readonly interval?: number }>>;
}

export function buildConfigSchema(collectors: readonly Collector<any>[] = COLLECTORS): z.ZodType<Config> {
  const names = collectors.map((c) => c.name);
  return z
    .strictObject({
      web: group('web'),
      log: group('log'),
      runtime: group('runtime'),
      shard: group('shard'),
      collection: group('collection'),
      node: group('node'),
      collectors: collectorsBlock(collectors),
      targets: z.array(targetSchema()).min(1, 'expected at least one target').default([{ url: DEFAULT_NODE_URL }]),
    })
    .superRefine((raw, ctx) => {
      const cfg = raw as unknown as { collection: { interval?: number; timeout?: number }; collectors: Record<string, { interval?: number } | undefined>; targets: TargetConfig[]; shard: { total: number; index: number } };
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
        const ratio = v / interval;
        if (!(ratio >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-9)) {
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
        const name = t.name ?? defaultTargetName(t.url);
        if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['targets', i, 'name'], message: `duplicate target name ${JSON.stringify(name)}` });
        seen.add(name);
      });
    })
    .transform((raw) => {
      const cfg = raw as unknown as Config & { collection: { interval?: number; timeout?: number }; node: { timeout?: number } };
      const interval = cfg.collection.interval ?? DEFAULT_INTERVAL_SECONDS;
      const timeout = cfg.collection.timeout ?? Math.min(DEFAULT_COLLECTOR_TIMEOUT_SECONDS, interval);
      return {
        ...cfg,
        collection: { ...cfg.collection, interval, timeout },
        node: { ...cfg.node, timeout: cfg.node.timeout ?? Math.min(DEFAULT_NODE_TIMEOUT_SECONDS, timeout) },
      } as Config;
    }) as unknown as z.ZodType<Config>;
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

/**
 * A base collection interval that a clock can run: it divides a minute (1s-30s, or 60s) or an hour
 * (whole minutes up to 30m), so every cycle starts at the same seconds of each minute or hour
 * (the scheduler's cron expression, scheduler/scheduler.ts cronFor).
 */
export function isBaseInterval(seconds: number): boolean {
  const divides = (n: number, whole: number) => Number.isInteger(n) && n >= 1 && n < whole && whole % n === 0;
  return divides(seconds, 60) || seconds === 60 || divides(seconds / 60, 60);
}
