/**
 * What alerts/README.md ("Thresholds operators tune") and examples/monitoring.yaml say about one threshold
 * (threshold-docs.ts, threshold-docs-node-internals.ts), and the markdown helpers they are written with.
 */
import type { Thresholds } from './settings.js';

export interface ThresholdDoc {
  /** The alerts it feeds (README column "alert"). */
  alerts: string;
  /** README column "expression with the default" (markdown), for these thresholds. */
  expression: (t: Thresholds) => string;
  /** README column "why / when to change" (markdown). */
  why: (t: Thresholds) => string;
  /** The comment after the key in examples/monitoring.yaml. */
  example: string;
}

/** Inline code. */
export const c = (s: string): string => `\`${s}\``;
/** Inline code of each, `a`, `b` and `c`. */
export const names = (list: readonly string[]): string => list.map(c).join(', ').replace(/, ([^,]*)$/, ' and $1');
