import type { CollectorContext } from '../collectors/define.js';
import type { TargetSpec } from '../target.js';
import { performCall, type Answer, type Call, type CallTransport } from '../node-client/call.js';
import type { NetworkAnswers } from './network-answers.js';
import type { Slot } from './collector-slot.js';

/** What a run's context needs from its target runner. */
export interface ContextEnv {
  readonly target: TargetSpec;
  readonly client: CallTransport;
  now(): number;
  /** The current value of another collector of this target (undefined: unknown or not enabled). */
  valueOf(name: string): unknown;
  /** The network of the target (undefined while unknown): network-scoped calls are shared in it. */
  network(): string | undefined;
  readonly answers?: NetworkAnswers;
}

/**
 * The context of one run of a slot's collector: the typed memory, reads checked against the
 * declaration (readsLatest values as they are when the run starts, so that a result does not depend
 * on which of two collectors of a wave answers first), and `call`, which performs only declared calls,
 * shares network-scoped answers, and logs each call's normal state once when it starts and ends.
 */
export function contextFor(slot: Slot, env: ContextEnv, signal: AbortSignal, refresh = false): CollectorContext {
  const c = slot.collector;
  const reads = new Set(c.reads);
  const latest = new Map(c.readsLatest.map((n) => [n, env.valueOf(n)]));
  const declared = new Set<Call>(c.calls);
  slot.requestsLastRun = 0;
  // Where this run begins in the order of fetches (network answers fetched since the previous run are reused).
  slot.previousRunMark = slot.runMark;
  slot.runMark = env.answers?.mark() ?? 0;
  if (!slot.memoryMade) {
    slot.memory = c.memory();
    slot.memoryMade = true;
  }
  const logOnChange = (key: string, value: string, log: () => void): void => {
    if (slot.logged.get(key) === value) return;
    slot.logged.set(key, value);
    log();
  };
  const call = async (def: Call, params: unknown): Promise<Answer<unknown, string>> => {
    if (!declared.has(def)) throw new Error(`collector ${c.name} calls ${def.method} without declaring it in 'calls'`);
    const perform = () => {
      slot.requestsLastRun++;
      return performCall(env.client, def, params as never, signal) as Promise<Answer<unknown, string>>;
    };
    const network = def.scope === 'network' ? env.network() : undefined;
    const shared = network !== undefined && env.answers;
    const a = shared
      ? await env.answers!.get(network, callKey(def, params), { target: env.target.name, previousRun: slot.previousRunMark, maxAgeMs: slot.plan.intervalSeconds * 1000 }, perform)
      : await perform();
    noteNormalState(slot, def, params, a);
    return a;
  };
  return {
    target: env.target,
    options: slot.options as CollectorContext['options'],
    signal,
    refresh,
    now: env.now,
    call: call as CollectorContext['call'],
    read: ((name: string) => {
      if (latest.has(name)) return latest.get(name);
      if (!reads.has(name)) throw new Error(`collector ${c.name} reads ${name} without declaring it in 'reads' or 'readsLatest'`);
      return env.valueOf(name);
    }) as CollectorContext['read'],
    previous: slot.value,
    memory: slot.memory,
    log: slot.log,
    logOnChange,
  };
}

/** Identity of a request of a call: method, endpoint and params. */
function callKey(def: Call, params: unknown): string {
  if (def.kind !== 'rpc') return `${def.method}\u0000${def.path}`;
  return `${def.method}\u0000${def.endpoint(params)}\u0000${JSON.stringify(def.wire(params))}`;
}

/** Where a call's requests go (its normal states are logged per endpoint: the index routes share a method). */
function whereOf(def: Call, params: unknown): string {
  return def.kind === 'rpc' ? def.endpoint(params) : def.path;
}

/**
 * One log line when a call enters one of its declared normal states (an older node without the
 * method, an API that is off, not a validator) and one when it answers again; failures are the
 * collector's to report (collector_failed).
 */
function noteNormalState(slot: Slot, def: Call, params: unknown, a: Answer<unknown, string>): void {
  if (!a.ok && a.normal === undefined) return;
  const where = whereOf(def, params);
  const key = `normal:${def.method} ${where}`;
  const state = a.ok ? 'answers' : a.normal;
  const before = slot.logged.get(key);
  if (before === state) return;
  slot.logged.set(key, state);
  if (!a.ok) {
    const says = (def.normal as Record<string, { says: string }>)[a.normal]?.says ?? a.normal;
    slot.log.info({ event: 'normal_state', method: def.method, path: where, state: a.normal }, `${def.method}: ${says}`);
  } else if (before !== undefined) {
    slot.log.info({ event: 'normal_state_ended', method: def.method, path: where, state: before }, `${def.method} answers again`);
  }
}
