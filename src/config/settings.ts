import { z } from 'zod';
import { CB58_RE, bytes, duration, listenAddress, nodeUrl, watchedValidator } from './value-types.js';

/**
 * Every setting that is not a collector's (the collectors declare theirs in their own files), each
 * once: its flag, its place in the YAML file, its type, its default and its help. The config schema
 * (schema.ts), the flags and their environment variables (flags.ts), --help and the docs/configuration.md flags
 * table are built from this table; no default is written anywhere else.
 */

/** How a flag or environment string becomes a value. */
export type FlagKind = 'string' | 'bool' | 'int' | 'list' | 'duration' | 'bytes';

export interface SettingSpec {
  /** The flag without `--`; the environment variable is AVAX_EXPORTER_ + it in upper case. */
  readonly flag: string;
  /** Where it goes in the configuration (the YAML keys); [] for --config.file. */
  readonly path: readonly (string | number)[];
  readonly kind: FlagKind;
  readonly help: string;
  /** The value's type, without its default. */
  readonly schema?: z.ZodType;
  /** The default, in the form a user would write it (it goes through the schema). */
  readonly default?: unknown;
  /** How --help shows a default that is computed or not a plain value. */
  readonly defaultText?: string;
  /** No default of its own: schema.ts computes it from other settings, so Config always has it. */
  readonly computed?: true;
  /** Describes the single target built from flags (cannot be combined with targets in a file). */
  readonly target?: boolean;
}

/** The collection interval when none is given; the collector timeout follows it (see below). */
export const DEFAULT_INTERVAL_SECONDS = 15;
/** The collector timeout defaults to the smaller of this and the collection interval. */
export const DEFAULT_COLLECTOR_TIMEOUT_SECONDS = 10;
/** The node request timeout defaults to the smaller of this and the collector timeout. */
export const DEFAULT_NODE_TIMEOUT_SECONDS = 5;
export const DEFAULT_NODE_URL = 'http://127.0.0.1:9650';

/** --web.serving-thread: auto starts the serving thread when the configuration lists this many targets or more. */
export const SERVING_THREAD_AUTO_TARGETS = 20;
const SERVING_THREAD_MODES = ['auto', 'on', 'off'] as const;
/**
 * --runtime.optimize-for-size unset: memory over speed below this many targets at start (a single node's
 * CPU is mostly JSON.parse and the network, which the optimizing compiler does not speed up), V8's
 * defaults from it (a fleet's CPU is; bench/README.md).
 */
export const OPTIMIZE_FOR_SIZE_AUTO_TARGETS = 20;

/** --runtime.optimize-for-size for a process that collects `targets` targets (unset: below OPTIMIZE_FOR_SIZE_AUTO_TARGETS). */
export function optimizesForSize(setting: boolean | undefined, targets: number): boolean {
  return setting ?? targets < OPTIMIZE_FOR_SIZE_AUTO_TARGETS;
}
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** The table, `as const`: its literal paths and schema types make the Config type (schema.ts). */
export const SETTINGS = [
  { flag: 'config.file', path: [], kind: 'string', help: 'YAML configuration file (fleet: a list of targets).' },
  // The single target built from flags (a file lists its targets instead).
  { flag: 'node.url', path: ['targets', 0, 'url'], kind: 'string', target: true, schema: nodeUrl, default: DEFAULT_NODE_URL, help: 'URL of the avalanchego node (userinfo, path prefix and query are kept; never logged).' },
  { flag: 'node.name', path: ['targets', 0, 'name'], kind: 'string', target: true, schema: z.string().regex(/^[A-Za-z0-9._:\-]{1,64}$/, 'expected 1-64 characters of letters, digits, . _ : -'), defaultText: 'host:port of the URL', help: 'Value of the target label.' },
  { flag: 'node.header', path: ['targets', 0, 'headers'], kind: 'list', target: true, schema: z.record(z.string(), z.string()), default: {}, defaultText: '', help: 'Extra request header "Name: value" (repeatable), e.g. Authorization. Never logged.' },
  { flag: 'node.label', path: ['targets', 0, 'labels'], kind: 'list', target: true, schema: z.record(z.string(), z.string()), defaultText: '', help: 'Label "name=value" on every series of the node (repeatable), e.g. region=eu-west: what `labels:` is in a --config.file, with the same rules.' },
  { flag: 'node.reference', path: ['targets', 0, 'reference'], kind: 'bool', target: true, schema: z.boolean(), default: false, help: 'Treat the node as a reference or public API: skip node-specific calls.' },
  { flag: 'node.subnet', path: ['targets', 0, 'subnets'], kind: 'list', target: true, schema: z.array(z.string().regex(CB58_RE, 'expected a CB58 subnet ID')), default: [], defaultText: '', help: 'Subnet ID whose validators are watched too (repeatable).' },
  { flag: 'node.chain', path: ['targets', 0, 'chains'], kind: 'list', target: true, schema: z.array(z.string().regex(/^[A-Za-z0-9]{1,60}$/, 'expected a chain alias or CB58 blockchain ID')), default: [], defaultText: '', help: 'Extra chain (alias or ID) checked by info-is-bootstrapped (repeatable).' },
  {
    flag: 'validator.node-id',
    path: ['targets', 0, 'validatorNodeIds'],
    kind: 'list',
    target: true,
    schema: z.array(watchedValidator),
    default: [],
    defaultText: "the node's own ID",
    help: "Validator NodeID to watch (repeatable), on the primary network and every watched subnet. It must be an active validator (AvalancheValidatorNotActive) on the primary network; the node's own ID also on the --node.subnet subnets. In a --config.file an entry `{ nodeId, subnets: [primary, <subnet ID>, …] }` says exactly where that ID must be active.",
  },
  { flag: 'validator.expect-active', path: ['targets', 0, 'expectActive'], kind: 'bool', target: true, schema: z.boolean(), default: false, help: "The node's own ID must be an active validator (alert AvalancheNodeNotInValidatorSet when it is not: a moved or re-keyed node); it is watched in addition to any --validator.node-id." },
  // Requests to the node.
  { flag: 'node.timeout', path: ['node', 'timeout'], kind: 'duration', schema: duration('node request timeout'), computed: true, defaultText: `${DEFAULT_NODE_TIMEOUT_SECONDS}s, or --collection.timeout if shorter`, help: 'Deadline of each request to the node.' },
  { flag: 'node.max-response-size', path: ['node', 'maxResponseSize'], kind: 'bytes', schema: bytes, default: '32MiB', help: 'Largest response body accepted from the node.' },
  { flag: 'node.connections', path: ['node', 'connections'], kind: 'int', schema: z.number().int().min(1).max(64), default: 4, help: 'Keep-alive connections per node.' },
  // The HTTP server.
  { flag: 'web.listen-address', path: ['web', 'listenAddress'], kind: 'string', schema: listenAddress, default: ':10650', help: 'Address to serve /metrics on (`:10650` is every interface, see docs/security.md; `127.0.0.1:10650` loopback only).' },
  { flag: 'web.telemetry-path', path: ['web', 'telemetryPath'], kind: 'string', schema: z.string().regex(/^\/[A-Za-z0-9._~\/-]*$/, 'expected a path starting with /'), default: '/metrics', help: 'Path of the metrics endpoint.' },
  { flag: 'web.disable-exporter-metrics', path: ['web', 'disableExporterMetrics'], kind: 'bool', schema: z.boolean(), default: false, help: 'Leave out process_* and nodejs_* metrics of the exporter process.' },
  { flag: 'web.max-concurrent-scrapes', path: ['web', 'maxConcurrentScrapes'], kind: 'int', schema: z.number().int().min(1).max(1000), default: 16, help: 'Scrapes served at once; more get HTTP 503.' },
  { flag: 'web.enable-lifecycle', path: ['web', 'enableLifecycle'], kind: 'bool', schema: z.boolean(), default: false, help: 'Enable POST /-/reload (reload the configuration like SIGHUP).' },
  { flag: 'web.serving-thread', path: ['web', 'servingThread'], kind: 'string', schema: z.enum(SERVING_THREAD_MODES), default: 'auto', help: `Serve HTTP from a thread of its own, where /probe of a target already probed is answered without waiting for the collection (on, off; auto: on from ${SERVING_THREAD_AUTO_TARGETS} targets at start). Costs about 10 MB of RSS.` },
  { flag: 'web.config.file', path: ['web', 'configFile'], kind: 'string', schema: z.string().min(1), help: 'Web configuration file (Prometheus exporter-toolkit format): TLS, mTLS, basic auth, response headers. Re-read on change.' },
  // The collection cycle.
  { flag: 'collection.interval', path: ['collection', 'interval'], kind: 'duration', schema: duration('collection interval'), computed: true, defaultText: `${DEFAULT_INTERVAL_SECONDS}s`, help: 'Base collection cycle (divides a minute or an hour).' },
  { flag: 'collection.timeout', path: ['collection', 'timeout'], kind: 'duration', schema: duration('collector timeout'), computed: true, defaultText: `${DEFAULT_COLLECTOR_TIMEOUT_SECONDS}s, or --collection.interval if shorter`, help: 'Deadline of one collector run.' },
  { flag: 'collection.max-concurrent-targets', path: ['collection', 'maxConcurrentTargets'], kind: 'int', schema: z.number().int().min(1).max(256), default: 8, help: 'Targets collected at once.' },
  // Sharding a large fleet over exporter replicas (docs/configuration.md flags --shard.*, examples/prometheus-sharded.yml).
  { flag: 'shard.total', path: ['shard', 'total'], kind: 'int', schema: z.number().int().min(1).max(1024), default: 1, help: 'Number of exporter replicas sharing the fleet; 1 = this process collects every target.' },
  { flag: 'shard.index', path: ['shard', 'index'], kind: 'int', schema: z.number().int().min(0).max(1023), default: 0, help: "This replica's shard, 0 to shard.total - 1: it collects the targets whose name Prometheus's hashmod (MD5) puts in this shard, the same rule as the relabeling of examples/prometheus-sharded.yml." },
  // The Node.js process.
  {
    flag: 'runtime.optimize-for-size',
    path: ['runtime', 'optimizeForSize'],
    kind: 'bool',
    schema: z.boolean(),
    defaultText: `auto: on below ${OPTIMIZE_FOR_SIZE_AUTO_TARGETS} targets at start`,
    help: "Favour memory over speed (set when `run` starts): V8's --optimize-for-size, its optimizing compiler off (--no-turbofan) and its young generation kept at its initial 1 MB semi-spaces (--semi-space-growth-factor=1). Measured (bench/README.md, bench/RESULTS.md): one mainnet node's peak RSS 106 → 95 MB at the same CPU (about 2 % of a core); 20 distinct nodes 195 → 169 MB at 2.6 times the CPU (3.5 → 9.1 % of a core), which is why a fleet of 20 or more gets V8's defaults unless this is given. --no-runtime.optimize-for-size turns it off for a small fleet too.",
  },
  {
    flag: 'runtime.http-parser-tier-up',
    path: ['runtime', 'httpParserTierUp'],
    kind: 'bool',
    schema: z.boolean(),
    default: false,
    help: "Let V8 recompile undici's WebAssembly HTTP parser (llhttp) with its optimizing tier. Off by default: `run` sets V8's --liftoff-only before the first request, because that recompilation costs about 35 MB of RSS for a moment at start-up (measured, bench/RESULTS.md) and buys nothing here: a body is skipped by its length, not parsed byte by byte.",
  },
  {
    flag: 'runtime.heap-growing-percent',
    path: ['runtime', 'heapGrowingPercent'],
    kind: 'int',
    schema: z.number().int().min(0).max(300),
    default: 35,
    help: "How far V8 lets the old generation grow past what the last full GC kept, in percent (V8's --heap-growing-percent, set when `run` starts); 0 = V8's own factor, which it picks between 10 % and 300 % from GC and allocation speed. Measured (bench/RESULTS.md): 100 targets of one network peaked at 198 to 340 MB of RSS with V8's factor and at 198 to 214 MB with a fixed 25 to 50 %; lower values cost CPU in a big fleet (1,000 targets: 71 % of a core at 25 %, 55 % at 35 %, 53 % at 50 %).",
  },
  {
    flag: 'runtime.collecting-niceness',
    path: ['runtime', 'collectingNiceness'],
    kind: 'int',
    schema: z.number().int().min(0).max(19),
    default: 5,
    help: "With the serving thread on (--web.serving-thread): how many steps of Linux niceness below the serving thread every other thread of the process runs (the main thread that collects, V8's GC helper, libuv's pool), set when `run` starts; 0 = the same priority. /probe and /metrics are then answered ahead of collection, and collection yields to the node on its host. Measured (bench/RESULTS.md), 1,000 targets of one mainnet-scale node on 2 cores, 21 runs: median /probe p99 13.1 ms at 5 against 17.5 ms at 0 (the whole machine answered faster: a static server beside it 7.9 against 9.9 ms); no consistent change in CPU or collection. Linux only (elsewhere nothing changes).",
  },
  { flag: 'log.level', path: ['log', 'level'], kind: 'string', schema: z.enum(LOG_LEVELS), default: 'info', help: `${LOG_LEVELS.join(', ')}.` },
] as const satisfies readonly SettingSpec[];

/** How --help and docs/configuration.md show a setting's default ('' when it has none). */
export function defaultShown(s: { default?: unknown; defaultText?: string }): string {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.default === undefined) return '';
  return typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
}
