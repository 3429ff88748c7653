import { z } from 'zod';
import { formatDuration, parseBytes, parseDuration } from './duration.js';
import { didYouMean } from './suggest.js';

/**
 * The one schema that holds every setting and every default. Flags, environment variables and the
 * YAML file all produce a raw object of this shape; this schema validates it and fills defaults.
 */
export const COLLECTOR_NAMES = [
  'node-info',
  'health',
  'info-is-bootstrapped',
  'info-peers',
  'info-uptime',
  'platform-validators',
  'platform-validators-full',
  'chain-height',
  'index-last-accepted',
  'info-upgrades',
  'info-acps',
  'platform-validator-fee',
] as const;
export type CollectorName = (typeof COLLECTOR_NAMES)[number];

const duration = (what: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const s = parseDuration(v);
    if (s === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 500ms, 15s, 5m or 1h for ${what}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return s;
  });

const bytes = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const b = parseBytes(v);
  if (b === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a size such as 32MiB or 1048576, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return b;
});

const NODE_ID_RE = /^NodeID-[1-9A-HJ-NP-Za-km-z]{20,40}$/;
const CB58_RE = /^[1-9A-HJ-NP-Za-km-z]{30,60}$/;

const nodeUrl = z.string().transform((v, ctx) => {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected an http(s) URL such as http://127.0.0.1:9650' });
    return z.NEVER;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `expected an http or https URL, got scheme ${u.protocol.replace(':', '')}` });
    return z.NEVER;
  }
  return v;
});

const listenAddress = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d+$/, 'expected host:port or :port, e.g. :10650 (every interface) or 127.0.0.1:10650 (loopback only)')
  .superRefine((v, ctx) => {
    const port = Number(v.slice(v.lastIndexOf(':') + 1));
    // Checked here: node's listen() would throw a RangeError with a stack instead of a message.
    if (!(port <= 65535)) ctx.addIssue({ code: 'custom', message: `expected a port 1-65535 (or 0 for any free port), got ${v.slice(v.lastIndexOf(':') + 1)}` });
  });

/** Defaults that follow another setting (the rest are in the schema below). */
export const DEFAULT_INTERVAL_SECONDS = 15;
/** The collector timeout defaults to the smaller of this and the collection interval. */
export const DEFAULT_COLLECTOR_TIMEOUT_SECONDS = 10;
/** The node request timeout defaults to the smaller of this and the collector timeout. */
export const DEFAULT_NODE_TIMEOUT_SECONDS = 5;

/** `15s`, or `15s, the default; set --collection.interval to change it` for a value the user did not set. */
function shown(seconds: number, defaulted: boolean, flag: string, how = 'the default'): string {
  return defaulted ? `${formatDuration(seconds)}, ${how}; set --${flag} to change it` : formatDuration(seconds);
}

const collectorEntry = z.strictObject({
  enabled: z.boolean().optional(),
  interval: duration('collector interval').optional(),
});

const collectorsBlock = z
  .strictObject({
    'node-info': collectorEntry.optional(),
    health: collectorEntry.optional(),
    'info-is-bootstrapped': collectorEntry.optional(),
    'info-peers': collectorEntry
      .extend({ perPeer: z.boolean().optional(), silenceWindow: duration('info-peers silence window').optional() })
      .optional(),
    'info-uptime': collectorEntry.optional(),
    'platform-validators': collectorEntry.optional(),
    'platform-validators-full': collectorEntry.optional(),
    'chain-height': collectorEntry.optional(),
    'info-upgrades': collectorEntry.optional(),
    'info-acps': collectorEntry.optional(),
    'platform-validator-fee': collectorEntry.optional(),
    'index-last-accepted': collectorEntry.extend({ xTx: z.boolean().optional(), xVtx: z.boolean().optional() }).optional(),
  })
  .default({});

const targetSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9._:\-]{1,64}$/, 'expected 1-64 characters of letters, digits, . _ : -')
    .optional(),
  url: nodeUrl,
  headers: z.record(z.string(), z.string()).default({}),
  reference: z.boolean().default(false),
  validatorNodeIds: z.array(z.string().regex(NODE_ID_RE, 'expected NodeID-<CB58>')).default([]),
  expectActive: z.boolean().default(false),
  subnets: z.array(z.string().regex(CB58_RE, 'expected a CB58 subnet ID')).default([]),
  chains: z.array(z.string().regex(/^[A-Za-z0-9]{1,60}$/, 'expected a chain alias or CB58 blockchain ID')).default([]),
  collectors: z.record(z.string(), collectorEntry).default({}),
});

export const configSchema = z
  .strictObject({
    web: z
      .strictObject({
        listenAddress: listenAddress.default(':10650'),
        telemetryPath: z.string().regex(/^\/[A-Za-z0-9._~\/-]*$/, 'expected a path starting with /').default('/metrics'),
        disableExporterMetrics: z.boolean().default(false),
        maxConcurrentScrapes: z.number().int().min(1).max(1000).default(16),
        enableLifecycle: z.boolean().default(false),
        configFile: z.string().min(1).optional(),
      })
      .default({ listenAddress: ':10650', telemetryPath: '/metrics', disableExporterMetrics: false, maxConcurrentScrapes: 16, enableLifecycle: false }),
    log: z
      .strictObject({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info') })
      .default({ level: 'info' }),
    collection: z
      .strictObject({
        interval: duration('collection interval').optional(),
        // Default: the smaller of 10 s and the interval (filled in below, so that a short interval alone is valid).
        timeout: duration('collector timeout').optional(),
        maxConcurrentTargets: z.number().int().min(1).max(256).default(8),
      })
      .default({ maxConcurrentTargets: 8 }),
    node: z
      .strictObject({
        // Default: the smaller of 5 s and the collector timeout (filled in below).
        timeout: duration('node request timeout').optional(),
        maxResponseSize: bytes.default(32 * 1024 * 1024),
        connections: z.number().int().min(1).max(64).default(4),
      })
      .default({ maxResponseSize: 32 * 1024 * 1024, connections: 4 }),
    collectors: collectorsBlock,
    targets: z.array(targetSchema).min(1, 'expected at least one target').default([{ url: 'http://127.0.0.1:9650' } as never]),
  })
  .superRefine((cfg, ctx) => {
    // Messages about a value the user did not set say so, and which flag changes it.
    const intervalDefaulted = cfg.collection.interval === undefined;
    const interval = cfg.collection.interval ?? DEFAULT_INTERVAL_SECONDS;
    const intervalText = shown(interval, intervalDefaulted, 'collection.interval');
    if (!cronFor(interval)) {
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
    const names = new Set<string>();
    cfg.targets.forEach((t, i) => {
      for (const [name, entry] of Object.entries(t.collectors)) {
        if (!(COLLECTOR_NAMES as readonly string[]).includes(name)) {
          ctx.addIssue({ code: 'custom', path: ['targets', i, 'collectors', name], message: `unknown collector (expected one of ${COLLECTOR_NAMES.join(', ')})${didYouMean(name, COLLECTOR_NAMES)}` });
        }
        checkInterval(entry.interval, ['targets', i, 'collectors', name, 'interval']);
      }
      const name = t.name ?? defaultTargetName(t.url);
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: ['targets', i, 'name'], message: `duplicate target name ${JSON.stringify(name)}` });
      names.add(name);
    });
  })
  .transform((cfg) => {
    const interval = cfg.collection.interval ?? DEFAULT_INTERVAL_SECONDS;
    const timeout = cfg.collection.timeout ?? Math.min(DEFAULT_COLLECTOR_TIMEOUT_SECONDS, interval);
    return {
      ...cfg,
      collection: { ...cfg.collection, interval, timeout },
      node: { ...cfg.node, timeout: cfg.node.timeout ?? Math.min(DEFAULT_NODE_TIMEOUT_SECONDS, timeout) },
    };
  });

export type RawConfig = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type TargetConfig = Config['targets'][number];

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

/** node-cron expression (with seconds) for a base interval, or undefined if it has none. */
export function cronFor(seconds: number): string | undefined {
  if (Number.isInteger(seconds) && seconds >= 1 && seconds < 60 && 60 % seconds === 0) return `*/${seconds} * * * * *`;
  if (seconds === 60) return `0 * * * * *`;
  const m = seconds / 60;
  if (Number.isInteger(m) && m >= 1 && m < 60 && 60 % m === 0) return `0 */${m} * * * *`;
  return undefined;
}
