import { sample, type MetricDescriptor, type MetricSpec, type Sample } from '../model.js';
import type { CollectorName } from '../collectors/define.js';
import type { TargetSnapshot } from '../snapshot.js';

/**
 * Derived series: pure functions over snapshots, computed after every cycle from the collectors'
 * published values (never from rendered samples), so a derived value disappears with its inputs.
 * A per-target derivation sees one target's snapshot; a fleet derivation sees every target's.
 */
export type DerivedMetricSpec = MetricSpec;

export interface Derivation {
  readonly name: string;
  /** Collectors whose values it reads (documentation; derive() reads them from the snapshot). */
  readonly reads: readonly CollectorName[];
  readonly metrics: readonly MetricDescriptor[];
  /** Samples without `target` for one target at `nowSeconds`. */
  derive(s: TargetSnapshot, nowSeconds: number): Sample[];
}

export interface FleetDerivation {
  readonly name: string;
  readonly reads: readonly CollectorName[];
  readonly metrics: readonly MetricDescriptor[];
  /** Samples WITH `target` (each names the target it is about). */
  derive(all: readonly TargetSnapshot[]): Sample[];
}

/** One sample of `name` per subnet, in the given order; none for a subnet whose value is unknown (undefined). */
export function perSubnet(name: string, values: Iterable<readonly [subnet: string, value: number | undefined]>): Sample[] {
  const out: Sample[] = [];
  for (const [subnet, value] of values) if (value !== undefined) out.push(sample(name, { subnet }, value));
  return out;
}

const descriptors = (owner: string, metrics: readonly DerivedMetricSpec[]): MetricDescriptor[] =>
  metrics.map((m) => ({ ...m, labels: ['target', ...m.labels], collector: owner }));

export function defineDerivation(d: { name: string; reads: readonly CollectorName[]; metrics: readonly DerivedMetricSpec[]; derive: Derivation['derive'] }): Derivation {
  return Object.freeze({ name: d.name, reads: d.reads, metrics: descriptors('derived', d.metrics), derive: d.derive });
}

export function defineFleetDerivation(d: { name: string; reads: readonly CollectorName[]; metrics: readonly DerivedMetricSpec[]; derive: FleetDerivation['derive'] }): FleetDerivation {
  return Object.freeze({ name: d.name, reads: d.reads, metrics: descriptors('fleet', d.metrics), derive: d.derive });
}
