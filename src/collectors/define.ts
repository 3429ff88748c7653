import type { TargetSpec } from '../target.js';
import type { Logger } from 'pino';
import type { MetricDescriptor, MetricSpec, Sample } from '../model.js';
import { failures, type AnswerOf, type Call, type ParamsOf, type RpcCall } from '../node-client/call.js';

/**
 * `defineCollector`: everything about a collector in its own file (node_exporter's habit): its name,
 * default interval, flags and YAML options with their defaults, the metric families it emits, the
 * node calls it makes, and which other collectors' values it reads. collectors/index.ts lists the
 * collectors; the config schema, the flags and --help, docs/metrics.md, the tables of docs/configuration.md, the
 * request budget and the fault-matrix routes are all derived from these declarations.
 */

/**
 * The value each collector publishes in its target's snapshot, by collector name, so that
 * `ctx.read('node-info')` is typed without importing the other collector. collectors/index.ts fills it
 * from the collector list (each collector's `CollectorOf<name, Value>` type): nothing to add by hand.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CollectorValues {}
export type CollectorName = keyof CollectorValues & string;

// ---------------------------------------------------------------------------------------------
// Options: each becomes `--collector.<name>.<kebab-option>`, YAML `collectors.<name>.<option>`, env
// AVAX_EXPORTER_COLLECTOR_<NAME>_<OPTION>. The default is written here and nowhere else.

interface OptionBase {
  /** One line for --help and docs/configuration.md. */
  readonly help: string;
}
export interface BoolOption extends OptionBase {
  readonly kind: 'bool';
  readonly default: boolean;
}
/** Seconds; written as 500ms, 15s, 5m in flags and YAML. */
export interface DurationOption extends OptionBase {
  readonly kind: 'duration';
  readonly default: number;
}
export interface IntOption extends OptionBase {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}
export type OptionSpec = BoolOption | DurationOption | IntOption;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;
export type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]: O[K] extends BoolOption ? boolean : number };

/** The default value of every option. */
export function defaultOptions<O extends OptionSpecs>(options: O): OptionValues<O> {
  return Object.fromEntries(Object.entries(options).map(([k, o]) => [k, o.default])) as OptionValues<O>;
}

// ---------------------------------------------------------------------------------------------
// Metrics and calls

/** A metric family as a collector declares it: labels without `target` (every per-node series has it). */
export type { MetricSpec };

/** True when a request (method label, path, JSON-RPC params) is one of these calls. */
export function matchesCall(calls: readonly Call[], req: { method: string; path: string; params: Readonly<Record<string, unknown>> }): boolean {
  return calls.some((c) => c.method === req.method && req.path.startsWith(c.pathPrefix) && (!c.recognise || c.recognise(req.params)));
}

// ---------------------------------------------------------------------------------------------
// Running

export interface CollectorContext<O extends OptionSpecs = OptionSpecs, V = unknown, M = unknown> {
  readonly target: TargetSpec;
  /** This collector's option values (from flags, environment and YAML; defaults above). */
  readonly options: OptionValues<O>;
  /** Aborted at the collector's deadline or at shutdown (ctx.call passes it on). */
  readonly signal: AbortSignal;
  /** Wall clock in ms (injectable for golden tests). */
  now(): number;
  /**
   * True for the run at start-up, and for the runs of a cycle in which the node answered again or
   * restarted: whatever the collector keeps about the node's process (what it need not ask again)
   * must be asked again.
   */
  readonly refresh: boolean;
  /**
   * Performs one of the calls the collector declared in `calls` (an undeclared one throws): the
   * value, a declared normal state (logged once when it starts and ends, counted `normal_state`),
   * or a failure. Never rejects.
   */
  call<C extends Call>(call: C, params: ParamsOf<C>): Promise<AnswerOf<C>>;
  /**
   * The latest value of a collector this one declared in `reads` (from this cycle when it ran
   * before, else from the last cycle; undefined when unknown). Reading an undeclared one throws.
   */
  read<N extends CollectorName>(name: N): CollectorValues[N] | undefined;
  /** This collector's own value of its previous run (undefined on the first run). */
  readonly previous: V | undefined;
  /** This collector's own memory across runs (per target), made by its `memory()`. */
  readonly memory: M;
  /** pino child logger with target and collector bound. One line per state change, never per cycle. */
  readonly log: Logger;
  /** Calls `log` only when the value kept under `key` changes (one log line per state change). */
  logOnChange(key: string, value: string, log: () => void): void;
}

/**
 * A collector's outcome. Samples from the calls that succeeded are exported even when another call
 * of the same collector failed; `errors` non-empty means avax_collector_success 0. `value` is what
 * the collector publishes for its readers and for the derivations (src/derive); undefined = nothing known.
 */
export interface CollectResult<V = unknown> {
  readonly value?: V;
  readonly samples: readonly Sample[];
  readonly errors: readonly Error[];
}

export interface CollectorDef<N extends string, O extends OptionSpecs, V = undefined, M = undefined> {
  /** Spelled like its file; the `collector` label and the `--collector.NAME` flag. */
  readonly name: N;
  /** One line for docs/configuration.md and the landing page. */
  readonly description: string;
  /** What it needs from the node (docs/configuration.md column), e.g. `--index-enabled`. */
  readonly needs: string;
  /** Default interval in seconds (a multiple of the base 15 s cycle). */
  readonly interval: number;
  /** Default on? (default true) */
  readonly enabled?: boolean;
  /** Skipped on `reference` targets (node-specific APIs). Default false. */
  readonly nodeSpecific?: boolean;
  readonly options?: O;
  readonly metrics: readonly MetricSpec[];
  /** Every call it makes (ctx.call refuses others): endpoint, method, params, schema, normal states. */
  readonly calls: readonly Call[];
  /** Collectors whose values this one reads; when both run in a cycle, they run first. */
  readonly reads?: readonly CollectorName[];
  /**
   * Collectors whose latest value this one reads WITHOUT waiting for them in a cycle (the value of
   * their last finished run): for a value that may lag a cycle, so that a cycle does not get one
   * more wave (each wave waits for its slowest request; see scheduler/target-runner.ts).
   */
  readonly readsLatest?: readonly CollectorName[];
  /** Its memory across runs (ctx.memory), made on its first run; none by default. */
  readonly memory?: () => M;
  /**
   * What its value tells the engine about the node (scheduler/target-runner.ts): `network`, the
   * network it belongs to (calls declared `scope: 'network'` share their answers per network),
   * `process`, a mark of the node's process (its start time, its version), and `started`, the node
   * has just started: when a mark changes or `started` turns true, the node restarted between two
   * cycles, and every collector runs again at once. `nodeId` and `version` are who the node says it is:
   * they become the snapshot's `node` (snapshot.ts), which the landing page shows.
   */
  readonly identifies?: (value: V) => NodeIdentityMarks;
  /**
   * Requests one run makes (an estimate; default: one per declared call). The runner spreads
   * collectors with longer intervals over different cycles with it, so that no cycle bursts.
   */
  readonly requestsPerRun?: (target: TargetSpec, options: OptionValues<O>) => number;
  collect(ctx: CollectorContext<O, V, M>): Promise<CollectResult<V>>;
}

/** See CollectorDef.identifies. */
export interface NodeIdentityMarks {
  /** The network the node belongs to (network-scoped answers are shared in it). */
  readonly network?: string;
  /** A mark of the node's process (start time, version): a change is a restart. */
  readonly process?: string;
  /** The node's process has just started (e.g. every health check not yet run): turning true is a restart. */
  readonly started?: boolean;
  /** The node's own NodeID ('' when its API has none: public servers): the snapshot's `node`, the landing page's. */
  readonly nodeId?: string;
  /** The node's version as it names it (e.g. avalanchego/1.15.0): the snapshot's `node`, the landing page's. */
  readonly version?: string;
}

/** What a collector keeps of its declaration as written, its defaults applied (enabled, not node-specific, no options). */
type DeclaredAsIs = 'name' | 'description' | 'needs' | 'interval' | 'enabled' | 'nodeSpecific' | 'options' | 'calls';

/** A collector with its declarations resolved (what the rest of the exporter works with). */
export interface Collector<V = unknown> extends Required<Pick<CollectorDef<string, OptionSpecs, V>, DeclaredAsIs>> {
  /** Metric families with `target` first and this collector as their owner. */
  readonly metrics: readonly MetricDescriptor[];
  readonly reads: readonly string[];
  readonly readsLatest: readonly string[];
  /** A fresh memory for a new target (undefined when the collector keeps none). */
  memory(): unknown;
  /** What its value says about the node (absent: nothing). */
  identifies?(value: V): NodeIdentityMarks;
  requestsPerRun(target: TargetSpec, options: Readonly<Record<string, unknown>>): number;
  collect(ctx: CollectorContext<OptionSpecs, V, unknown>): Promise<CollectResult<V>>;
}

/**
 * A collector named N publishing V (undefined: none): the type a collector file writes on its declaration,
 * `export const nodeIp: CollectorOf<'node-ip', NodeIpValue> = defineCollector({ … })`, from which
 * collectors/index.ts types every `ctx.read`. Written, not inferred: a collector that reads another
 * would otherwise take its own type from the list that contains it (TypeScript: circular).
 */
export type CollectorOf<N extends string, V = undefined> = Collector<V> & { readonly name: N };

export function defineCollector<const N extends string, V = undefined, const O extends OptionSpecs = Record<never, never>, M = undefined>(
  def: CollectorDef<N, O, V, M>,
): CollectorOf<N, V> {
  const options = (def.options ?? {}) as O;
  return Object.freeze({
    name: def.name,
    description: def.description,
    needs: def.needs,
    interval: def.interval,
    enabled: def.enabled ?? true,
    nodeSpecific: def.nodeSpecific ?? false,
    options,
    metrics: def.metrics.map((m): MetricDescriptor => ({ ...m, labels: ['target', ...m.labels], collector: def.name })),
    calls: def.calls,
    reads: def.reads ?? [],
    readsLatest: def.readsLatest ?? [],
    memory: () => def.memory?.(),
    identifies: def.identifies,
    requestsPerRun: (target: TargetSpec, values: Readonly<Record<string, unknown>>) =>
      def.requestsPerRun ? def.requestsPerRun(target, values as OptionValues<O>) : def.calls.length,
    collect: def.collect as unknown as Collector<V>['collect'],
  });
}

/**
 * The body of a collector that makes one call without params: a failure is the collector's error and
 * leaves nothing; a declared normal state (the method or its API absent, ...) is no series and no
 * failure, with `whenNormal` as the value when there is one; an answer gives the value and the samples.
 */
export async function collectOneCall<T, N extends string, V>(
  ctx: Pick<CollectorContext<OptionSpecs, V, unknown>, 'call'>,
  call: RpcCall<void, T, N>,
  fromAnswer: (answer: T) => { readonly value?: V; readonly samples: readonly Sample[] },
  whenNormal?: V,
): Promise<CollectResult<V>> {
  const r = await ctx.call(call, undefined);
  if (!r.ok) {
    if (!r.normal) return { samples: [], errors: [r.error] };
    return whenNormal === undefined ? { samples: [], errors: [] } : { value: whenNormal, samples: [], errors: [] };
  }
  return { ...fromAnswer(r.value), errors: [] };
}

/** What a one-call body may use of its run besides the answer: the call itself and the logger. */
export type OneCallContext = Pick<CollectorContext, 'call' | 'log' | 'logOnChange' | 'now'>;

/**
 * `calls` and `collect` of a collector whose body is one call without params (collectOneCall), the
 * call named once: `...oneCall(infoAcpsCall, (v) => ({ value: …, samples: toSamples(v) }), whenNormal)`.
 */
export function oneCall<T, N extends string, V = undefined>(
  call: RpcCall<void, T, N>,
  fromAnswer: (answer: T, ctx: OneCallContext) => { readonly value?: V; readonly samples: readonly Sample[] },
  whenNormal?: V,
): { readonly calls: readonly Call[]; collect(ctx: OneCallContext): Promise<CollectResult<V>> } {
  return { calls: [call], collect: (ctx) => collectOneCall(ctx, call, (answer) => fromAnswer(answer, ctx), whenNormal) };
}

/** The value of a param-less call's answer. */
type AnsweredValue<C> = C extends RpcCall<void, infer T, string> ? T : never;

/**
 * `calls` and `collect` of a collector that asks each of its calls without params at once
 * (collectEachCall), the calls named once: `...eachCall([aCall, bCall], ([a, b]) => ({ value, samples }))`.
 */
export function eachCall<const Cs extends readonly RpcCall<void, unknown, string>[], V = undefined>(
  calls: Cs,
  fromValues: (values: { readonly [K in keyof Cs]: AnsweredValue<Cs[K]> | undefined }) => { readonly value?: V; readonly samples: readonly Sample[] },
): { readonly calls: readonly Call[]; collect(ctx: Pick<CollectorContext, 'call'>): Promise<CollectResult<V>> } {
  return { calls, collect: (ctx) => collectEachCall<Cs, V>(ctx, calls, fromValues) };
}

/**
 * The body of a collector that asks each of its calls without params at once (its whole `calls`
 * list): `fromValues` gets the value of each answer in their order (undefined for a normal state or a
 * failure) and gives the value and the samples; the failures are the collector's errors.
 */
export async function collectEachCall<const Cs extends readonly RpcCall<void, unknown, string>[], V>(
  ctx: Pick<CollectorContext<OptionSpecs, V, unknown>, 'call'>,
  calls: Cs,
  fromValues: (values: { readonly [K in keyof Cs]: AnsweredValue<Cs[K]> | undefined }) => { readonly value?: V; readonly samples: readonly Sample[] },
): Promise<CollectResult<V>> {
  const answers = await Promise.all(calls.map((c) => ctx.call(c, undefined)));
  const values = answers.map((a) => (a.ok ? a.value : undefined)) as { readonly [K in keyof Cs]: AnsweredValue<Cs[K]> | undefined };
  return { ...fromValues(values), errors: failures(answers) };
}
