import pino from 'pino';
import type { Collector, CollectorValues } from '../../src/collectors/define.js';
import type { TargetSpec } from '../../src/target.js';
import { familyOf } from '../../src/metrics/descriptors.js';
import type { Sample } from '../../src/model.js';
import { InvalidResponseError, SchemaError, type AnswerSchema, type CallTransport, type NodeClientError } from '../../src/node-client/index.js';
import { contextFor } from '../../src/scheduler/collector-context.js';
import { makeSlot, type Slot } from '../../src/scheduler/collector-slot.js';
import { result } from '../fixtures/load.js';

/** A node answer: the raw JSON result, or an error to throw. Functions see the params. */
export type Answer = unknown | Error | ((params: unknown) => unknown);

/** Each method answered with its `default` fixture (test/fixtures), keyed by method as fakeClient takes them. */
export function defaultAnswers(...methods: string[]): Record<string, Answer> {
  return Object.fromEntries(methods.map((m) => [m, result(m, 'default')]));
}

export interface Call {
  readonly endpoint: string;
  readonly method: string;
  readonly params: unknown;
  readonly signal: AbortSignal | undefined;
  /** What the call counts as a normal state (the engine passes it to the client). */
  readonly normal?: (err: NodeClientError) => boolean;
}

export interface LogLine {
  readonly level: string;
  readonly args: unknown[];
}

/** Reference clock of the fixtures: 2026-05-14T09:21:45Z. */
export const FIXTURE_NOW_MS = 1778750505_000;

/** A health answer: status and body, an error to throw, or a function giving one (it may throw anything). */
export type HealthAnswer = { status: number; body: unknown } | Error | (() => { status: number; body: unknown });
/** A text answer (GET /ext/metrics): the body, an error to throw, or a function giving one. */
export type TextAnswer = string | Error | (() => string);

/**
 * A node client for collector tests (the CallTransport the engine performs calls over): answers come
 * from `rpc` keyed by `method` or `endpoint method`, from `health` keyed by path and from `text` keyed
 * by path (streamed to the sink in `pieces` pieces, then the caller's check, like the real client).
 * Results are validated with the call's schema, like the real client.
 */
export function fakeClient(rpc: Record<string, Answer>, health: Record<string, HealthAnswer> = {}, text: Record<string, TextAnswer> = {}, opts: { pieces?: number } = {}) {
  const calls: Call[] = [];
  const client = {
    async rpc(endpoint: string, method: string, params: unknown, schema: AnswerSchema<unknown>, o: { signal?: AbortSignal; normal?: Call['normal'] } = {}) {
      calls.push({ endpoint, method, params, signal: o.signal, normal: o.normal });
      const key = `${endpoint} ${method}` in rpc ? `${endpoint} ${method}` : method;
      if (!(key in rpc)) throw new Error(`fake: no answer for ${endpoint} ${method}`);
      let a = rpc[key];
      if (typeof a === 'function') a = (a as (p: unknown) => unknown)(params);
      if (a instanceof Error) throw a;
      const parsed = schema.safeParse(a);
      if (!parsed.success) throw new SchemaError(method, parsed.error.issues.map((i) => i.message).join('; '));
      return parsed.data;
    },
    async healthGet(path: string, schema: AnswerSchema<unknown>, o: { signal?: AbortSignal; normal?: Call['normal'] } = {}) {
      calls.push({ endpoint: path, method: `GET ${path}`, params: undefined, signal: o.signal, normal: o.normal });
      let a = health[path];
      if (a === undefined) throw new Error(`fake: no answer for GET ${path}`);
      if (typeof a === 'function') a = a();
      if (a instanceof Error) throw a;
      const parsed = schema.safeParse(a.body);
      if (!parsed.success) throw new SchemaError(`GET ${path}`, parsed.error.issues.map((i) => i.message).join('; '));
      return { status: a.status, body: parsed.data };
    },
    async textGet(path: string, sink: (chunk: string) => void, o: { signal?: AbortSignal; normal?: Call['normal']; check?: () => string | undefined } = {}): Promise<void> {
      calls.push({ endpoint: path, method: `GET ${path}`, params: undefined, signal: o.signal, normal: o.normal });
      let a = text[path];
      if (a === undefined) throw new Error(`fake: no text answer for GET ${path}`);
      if (typeof a === 'function') a = a();
      if (a instanceof Error) throw a;
      const size = Math.max(1, Math.ceil(a.length / (opts.pieces ?? 7)));
      for (let i = 0; i < a.length; i += size) sink(a.slice(i, i + size));
      const problem = o.check?.();
      if (problem !== undefined) throw new InvalidResponseError(`GET ${path}`, problem);
    },
  };
  return { client: client as CallTransport, calls };
}

export const TARGET: TargetSpec = { name: 'node', reference: false, validatorNodeIds: [], subnets: [], chains: [] };

/** A slot of `collector` whose memory and logged states persist across the runs that share it. */
export function testSlot(collector: Collector<any>): Slot {
  return makeSlot(collector, { name: collector.name, enabled: true, intervalSeconds: collector.interval }, {}, 15, pino({ level: 'silent' }));
}

/**
 * The engine's own context of one run of `collector` (scheduler/collector-context.ts) over a test
 * client: declared calls only, normal states logged once, typed memory. `values` answer ctx.read (only
 * names the test gives), `options` are the collector's option values (defaults are the caller's
 * business), `slot` keeps memory and logged states across runs (testSlot).
 */
export function makeCtx(
  collector: Collector<any>,
  client: CallTransport,
  over: {
    target?: Partial<TargetSpec>;
    options?: Record<string, unknown>;
    now?: number;
    values?: Partial<CollectorValues>;
    previous?: unknown;
    slot?: Slot;
  } = {},
) {
  const lines: LogLine[] = [];
  const logger = {
    info: (...args: unknown[]) => lines.push({ level: 'info', args }),
    warn: (...args: unknown[]) => lines.push({ level: 'warn', args }),
    error: (...args: unknown[]) => lines.push({ level: 'error', args }),
    debug: (...args: unknown[]) => lines.push({ level: 'debug', args }),
    child: () => logger,
  };
  const base = over.slot ?? testSlot(collector);
  const slot: Slot = Object.assign(base, {
    options: over.options ?? base.options,
    log: logger as unknown as Slot['log'],
    value: over.previous !== undefined ? over.previous : base.value,
  });
  const values = (over.values ?? {}) as Record<string, unknown>;
  const controller = new AbortController();
  const target = { ...TARGET, ...over.target };
  const ctx = contextFor(slot, { target, client, now: () => over.now ?? FIXTURE_NOW_MS, valueOf: (name) => values[name], network: () => undefined }, controller.signal);
  return { ctx: ctx as any, lines };
}

/** Samples as `name{k="v",…} value` lines (labels sorted), for readable assertions. */
export function lines(samples: readonly Sample[]): string[] {
  return samples.map((s) => {
    const keys = Object.keys(s.labels).sort();
    const l = keys.map((k) => `${k}="${s.labels[k]}"`).join(',');
    return `${s.name}${l ? `{${l}}` : ''} ${s.value}`;
  });
}

/** Value of the one sample matching name and labels (undefined when absent). */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`several samples match ${name}`);
  return hits[0]?.value;
}

/** Throws unless every sample is a family of `collector` with exactly its labels minus `target`. */
export function assertContract(collector: string, samples: readonly Sample[]): void {
  for (const s of samples) {
    const d = familyOf(s.name);
    if (!d) throw new Error(`unknown metric ${s.name}`);
    if (d.collector !== collector) throw new Error(`${s.name} belongs to ${d.collector}, not ${collector}`);
    // A summary's _sum and _count carry no `quantile`.
    const derived = s.name !== d.name;
    const want = d.labels.filter((l) => l !== 'target' && !(derived && l === 'quantile')).sort().join(',');
    // A histogram's _bucket carries `le` besides the declared labels.
    const got = Object.keys(s.labels).filter((k) => !(k === 'le' && d.type === 'histogram' && s.name.endsWith('_bucket'))).sort().join(',');
    if (want !== got) throw new Error(`${s.name}: labels {${got}} instead of {${want}}`);
    // +Inf is the documented value of an unscheduled upgrade; nothing else may be non-finite.
    const infOk = s.name === 'avax_network_upgrade_timestamp_seconds' && s.value === Number.POSITIVE_INFINITY;
    if (!Number.isFinite(s.value) && !infOk) throw new Error(`${s.name}: value ${s.value}`);
  }
}
