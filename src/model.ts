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
  /** The avalanchego releases whose nodes give it, when not every one (docs/metrics.md's column). */
  readonly avalanchego?: string;
}

/**
 * A metric family as a collector or a derivation declares it: labels without `target` (every per-node
 * series has it; the declaration helpers add it and the owner).
 */
export interface MetricSpec {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly labels: readonly string[];
  /** The avalanchego releases whose nodes give it, when not every one (docs/metrics.md's column). */
  readonly avalanchego?: string;
}

/** One family of a type: `family('counter', 'avax_x_total', 'What it counts.', ['chain'])`. */
export function family(type: MetricType, name: string, help: string, labels: readonly string[] = []): MetricSpec {
  return { name, type, help, labels };
}

/** One gauge family: `gauge('avax_x', 'What it is.', ['chain'])` (no labels but `target` by default). */
export function gauge(name: string, help: string, labels: readonly string[] = []): MetricSpec {
  return family('gauge', name, help, labels);
}

/**
 * Gauge families that share their labels, as name → help in declaration order:
 * `...gauges(['subnet', 'node_id'], { avax_a: 'What a is.', avax_b: 'What b is.' })`.
 */
export function gauges(labels: readonly string[], helps: Readonly<Record<string, string>>): MetricSpec[] {
  return Object.entries(helps).map(([name, help]) => gauge(name, help, labels));
}

export function sample(name: string, labels: Labels, value: number): Sample {
  return { name, labels, value };
}

/** A ratio or a number of seconds to six decimals, as the samples carry them. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
