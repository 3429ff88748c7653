/**
 * The vocabulary of samples and metric descriptors that collectors, derive, the snapshot, the scheduler
 * and metrics/ share (below all of them: it imports nothing of ours).
 *
 * A collector's pure `toSamples` returns plain samples (no `target` label: the runner adds it).
 * Samples are immutable values; a snapshot is a frozen set of them.
 */
export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  /** Full sample name as it appears in the exposition (a histogram's `_bucket`/`_sum`/`_count` included). */
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

export type MetricType = 'gauge' | 'counter' | 'histogram' | 'summary';

export interface MetricDescriptor {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  /** Label names in exposition order, `target` first where it applies. */
  readonly labels: readonly string[];
  /** Collector that produces it; `runner` for the always-on exporter series. */
  readonly collector: string;
}

export function sample(name: string, labels: Labels, value: number): Sample {
  return { name, labels, value };
}

/** A ratio or a number of seconds to six decimals, as the samples carry them. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
