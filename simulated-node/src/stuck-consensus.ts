// Blocks waiting in consensus on a chain the active scenario stops while blocks are still issued to it (its
// `node.chainProgress` at rate 0, neither `dropped` nor `issued: false`): what /ext/metrics counts as processing
// and what the chain's health check reports (avalanchego snow/consensus/snowman/topological.go HealthCheck).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type { Scenario } from './scenarios/scenario.js';

/** snowball.DefaultParameters (v1.15.0): MaxItemProcessingTime 30 s, MaxOutstandingItems 256. */
export const MAX_ITEM_PROCESSING_MS = 30_000;
export const MAX_OUTSTANDING_ITEMS = 256;

export interface StuckBlocks {
  /** blocks waiting: 3 at the switch, one more every 20 s (at most 2,003) */
  readonly processing: number;
  /** how long the oldest of them has waited (ms) */
  readonly oldestMs: number;
}

/** The blocks waiting on `chain` now, or undefined when the active scenario does not stop it with blocks arriving. */
export function stuckBlocks(active: Scenario, chain: 'P' | 'X' | 'C' | 'L1', nowMs: number, sinceMs: number): StuckBlocks | undefined {
  const p = active.node?.chainProgress;
  if (!p || p.rate !== 0 || !p.chains.includes(chain) || p.dropped || p.issued === false) return undefined;
  const waited = Math.max(0, nowMs - sinceMs);
  return { processing: 3 + Math.min(2000, Math.floor(waited / 20_000)), oldestMs: waited };
}

/** The consensus part of a chain check's error (errors.Join of Topological.HealthCheck), or undefined when it passes. */
export function consensusError(s: StuckBlocks | undefined, goDuration: (ns: number) => string): string | undefined {
  if (!s) return undefined;
  const errs: string[] = [];
  if (s.processing > MAX_OUTSTANDING_ITEMS) errs.push(`too many processing blocks: ${s.processing} > ${MAX_OUTSTANDING_ITEMS}`);
  if (s.oldestMs > MAX_ITEM_PROCESSING_MS) errs.push(`block processing too long: ${goDuration(s.oldestMs * 1e6)} > ${goDuration(MAX_ITEM_PROCESSING_MS * 1e6)}`);
  return errs.length > 0 ? errs.join('\n') : undefined;
}
