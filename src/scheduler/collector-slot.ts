import type { Logger } from 'pino';
import { deadline } from '../abort.js';
import type { Collector, CollectorContext } from '../collectors/define.js';
import { cyclesOf } from '../config/intervals.js';
import type { CollectorPlan } from '../config/targets.js';
import type { Sample } from '../model.js';
import { NodeClientError } from '../node-client/errors.js';
import type { CollectorOutcome } from '../snapshot.js';

/**
 * One collector of one target: its plan, its schedule, its memory and the outcome of its last run.
 * Only the target runner (and the context it builds for each run) touches a slot.
 */
export interface Slot {
  readonly collector: Collector;
  readonly plan: CollectorPlan;
  readonly options: Readonly<Record<string, unknown>>;
  /** Runs every `every` cycles. */
  readonly every: number;
  /** Runs at ticks t with t % every === phase (and at tick 0, start-up, always). */
  phase: number;
  /** Tick of the last run (start-up, recovery and restart runs included); a phased run waits a full interval after it. */
  lastRunTick: number;
  readonly log: Logger;
  /** The collector's memory (ctx.memory), made at the first run. */
  memory: unknown;
  memoryMade: boolean;
  /** Requests the last run sent to the node (answers shared by the network not counted). */
  requestsLastRun: number;
  /** The weight its phase was chosen with (requests per run: the declared estimate, then what it really sends). */
  weight: number;
  /** Marks (NetworkAnswers.mark) of the start of this run and of the previous one. */
  runMark: number;
  previousRunMark: number;
  /** The last value logged per key (logOnChange, and each call's normal state): one log line per change. */
  readonly logged: Map<string, string>;
  /** The node's process mark its value gave last, and whether it said "just started" (CollectorDef.identifies). */
  processMark?: string;
  started?: boolean;
  ran: boolean;
  success: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
  /** lastSuccessSeconds before this cycle's run: restored when the cycle turns out to have no answer. */
  previousSuccessSeconds?: number;
  samples: readonly Sample[];
  value: unknown;
  errors: readonly string[];
  /** `<result>:<method>` of the first error of the last run, or 'unreachable'. */
  lastErrorKind?: string;
  /** The `result` of that error (collector_failed's field). */
  lastErrorResult?: string;
  /** The state last reported (reportChange): one log line per change. */
  reported?: { success: boolean; kind?: string };
}

export function makeSlot(collector: Collector, plan: CollectorPlan, options: Readonly<Record<string, unknown>>, baseIntervalSeconds: number, log: Logger): Slot {
  return {
    collector,
    plan,
    options,
    every: cyclesOf(plan.intervalSeconds, baseIntervalSeconds),
    phase: 0,
    lastRunTick: 0,
    log: log.child({ collector: plan.name }),
    memory: undefined,
    memoryMade: false,
    requestsLastRun: 0,
    weight: 0,
    runMark: -Infinity,
    previousRunMark: -Infinity,
    logged: new Map(),
    ran: false,
    success: false,
    durationSeconds: 0,
    samples: [],
    value: undefined,
    errors: [],
  };
}

/**
 * Runs the collector once under its deadline (a collector that ignores its signal is cut off one
 * second later: the cycle always ends) and records the outcome in the slot (reportChange logs, once
 * the cycle is over). Never throws. Returns false when shutdown interrupted it (nothing recorded).
 */
export async function runSlot(
  slot: Slot,
  make: (signal: AbortSignal) => CollectorContext,
  o: { timeoutMs: number; tick: number; nowSeconds: () => number; scrub: (text: string) => string; shutdown?: AbortSignal },
): Promise<boolean> {
  const started = performance.now();
  const limit = deadline(o.timeoutMs, o.shutdown);
  let samples: readonly Sample[] = [];
  let errors: readonly Error[] = [];
  let value: unknown;
  let timer: NodeJS.Timeout | undefined;
  try {
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`collector did not finish within ${o.timeoutMs} ms`)), o.timeoutMs + 1000);
    });
    const res = await Promise.race([slot.collector.collect(make(limit.signal)), guard]);
    samples = res.samples;
    errors = res.errors;
    value = res.value;
  } catch (err) {
    errors = [err instanceof Error ? err : new Error(String(err))];
  } finally {
    clearTimeout(timer);
    limit.dispose();
  }
  if (o.shutdown?.aborted) return false;
  slot.ran = true;
  slot.lastRunTick = o.tick;
  slot.durationSeconds = (performance.now() - started) / 1000;
  slot.samples = samples;
  slot.value = value;
  const success = errors.length === 0;
  slot.previousSuccessSeconds = slot.lastSuccessSeconds;
  if (success) slot.lastSuccessSeconds = o.nowSeconds();
  const first = errors[0];
  slot.lastErrorKind = first ? (first instanceof NodeClientError ? `${first.result}:${first.method}` : first.name) : undefined;
  slot.lastErrorResult = first instanceof NodeClientError ? first.result : first ? 'error' : undefined;
  slot.errors = errors.map((e) => o.scrub(e.message));
  slot.success = success;
  return true;
}

/**
 * One log line when a collector's state changed over the cycle, judged once the cycle is over (the
 * node unreachable marks every collector failing, which the one target_down line says): it failed, it
 * fails for another reason, or it succeeds again. A run that asked nothing (an answer kept, nothing to
 * ask) during an outage is no recovery.
 */
export function reportChange(slot: Slot): void {
  const prev = slot.reported;
  const now = { success: slot.success, kind: slot.lastErrorKind };
  slot.reported = now;
  const failedLine = () => {
    const more = slot.errors.length > 1 ? ` (and ${slot.errors.length - 1} more)` : '';
    slot.log.warn({ event: 'collector_failed', err: `${slot.errors[0]}${more}`, result: slot.lastErrorResult ?? 'error' }, 'collector failed');
  };
  if (now.kind === 'unreachable') return;
  if (!prev) {
    if (!now.success) failedLine();
    return;
  }
  if (now.success && !prev.success) slot.log.info({ event: 'collector_recovered' }, 'collector succeeds again');
  else if (!now.success && (prev.success || (now.kind !== prev.kind && prev.kind !== 'unreachable'))) failedLine();
}

/**
 * The node did not answer in this cycle: nothing it told us before is current, so the slot's samples
 * go and it is marked failing. Its value stays (the last known identity, validator set, ...: collectors
 * keep asking for the same IDs while the node is away); nothing derived from it is published for a
 * target that does not answer (metrics/target-samples.ts).
 */
export function markUnreachable(slot: Slot, tick: number): void {
  slot.samples = [];
  if (!slot.ran) {
    // Never asked (the node answered nothing before its turn): failing, never succeeded.
    slot.ran = true;
    slot.lastErrorKind = 'unreachable';
    slot.errors = ['not asked: the node did not answer in this cycle'];
    return;
  }
  if (!slot.success) return;
  // A run of this cycle that "succeeded" without an answer (nothing to ask: platform-validators
  // without the node's ID) is no success: its timestamp goes back to the last real one.
  if (slot.lastRunTick === tick) slot.lastSuccessSeconds = slot.previousSuccessSeconds;
  slot.success = false;
  slot.lastErrorKind = 'unreachable';
  slot.errors = ['not current: the node did not answer in the last cycle'];
}

/** The slot as the snapshot shows it. */
export function outcomeOf(plan: CollectorPlan, slot: Slot | undefined): CollectorOutcome {
  return {
    name: plan.name,
    enabled: !!slot,
    intervalSeconds: plan.intervalSeconds,
    ran: slot?.ran ?? false,
    success: slot?.success ?? false,
    durationSeconds: slot?.durationSeconds ?? 0,
    lastSuccessSeconds: slot?.lastSuccessSeconds,
    errors: slot?.errors ?? [],
    value: slot?.value,
    samples: slot?.samples ?? [],
  };
}
