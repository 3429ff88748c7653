import type { CollectorName, CollectorValues } from './collectors/define.js';
import type { TargetSpec } from './target.js';
import type { Sample } from './model.js';

/**
 * What one target's collection cycle yields: an immutable snapshot (values and status per
 * collector). It flows one way: runner → snapshot → derive → render → serve. Nothing reads rendered
 * samples back, and collectors see each other only through the values of the snapshot they declared
 * they read.
 */
export interface CollectorOutcome {
  readonly name: string;
  /** False when disabled, or skipped on a reference target (node-specific). */
  readonly enabled: boolean;
  readonly intervalSeconds: number;
  /** Ran at least once. */
  readonly ran: boolean;
  readonly success: boolean;
  readonly durationSeconds: number;
  /** Unix seconds of the last successful run. */
  readonly lastSuccessSeconds?: number;
  /** Every error of the last run (scrubbed of credentials); [] when it succeeded. */
  readonly errors: readonly string[];
  /** The collector's published value (undefined: nothing known, e.g. after a failure). */
  readonly value?: unknown;
  /** Samples of its last run, without the `target` label. */
  readonly samples: readonly Sample[];
}

/** One method's requests of a target so far (scheduler/rpc-stats.ts): counts by result and the duration histogram. */
export interface MethodRequests {
  readonly method: string;
  /** The `result` label values, and the count of each. */
  readonly results: readonly string[];
  readonly counts: readonly number[];
  /** The histogram's bounds (seconds), and the requests at or under each (cumulative). */
  readonly bounds: readonly number[];
  readonly buckets: readonly number[];
  readonly sum: number;
  readonly count: number;
}

/** Who the node says it is, from the values of the collectors that identify it (CollectorDef.identifies). */
export interface NodeIdentification {
  /** Its NodeID: undefined until known, '' when its API has none (public servers). */
  readonly nodeId?: string;
  /** Its version, e.g. avalanchego/1.15.0: undefined until known. */
  readonly version?: string;
}

export interface TargetSnapshot {
  readonly target: TargetSpec;
  /** Who the node says it is, as of this cycle ({} until a collector that identifies it has a value). */
  readonly node: NodeIdentification;
  /** Wall clock of the end of the cycle, ms. */
  readonly at: number;
  /** avax_up: 1 the node answered in the last cycle, 0 it did not, undefined before the first cycle. */
  readonly up: 0 | 1 | undefined;
  readonly collectors: readonly CollectorOutcome[];
  /**
   * Its requests so far per method: avax_rpc_requests_total and avax_rpc_request_duration_seconds, made
   * into samples when it is published (metrics/target-samples.ts; numbers, not samples, live here).
   */
  readonly requests: readonly MethodRequests[];
  /**
   * avax_collection_skipped_ticks_total: scheduled ticks skipped since the exporter started because
   * this target's previous cycle was still running (never during its start-up cycle; Scheduler.trigger).
   */
  readonly skippedTicks: number;
}

/** The value a collector published in this snapshot (undefined when unknown). */
export function valueOf<N extends CollectorName>(s: TargetSnapshot, name: N): CollectorValues[N] | undefined {
  return s.collectors.find((c) => c.name === name)?.value as CollectorValues[N] | undefined;
}

/** A snapshot and its parts frozen (shallowly per part: values are never mutated by their readers). */
export function freezeSnapshot(s: TargetSnapshot): TargetSnapshot {
  for (const c of s.collectors) Object.freeze(c);
  Object.freeze(s.collectors);
  return Object.freeze(s);
}
