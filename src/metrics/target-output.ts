import type { MetricSelection, TargetSpec } from '../target.js';
import { ALWAYS_EXPOSED, type DescriptorIndex } from './descriptors.js';
import { escapeLabelValue } from './render.js';

/**
 * How one target's series are written: its user labels (YAML `labels:`), rendered once per target into
 * the text every sample line of the target ends its label set with, and the families its `metrics:`
 * selection leaves out, resolved once per target against every declared family. Rendering a sample
 * then costs one string concatenation and one set lookup per family, whatever the number of labels or
 * patterns.
 */
export interface TargetOutput {
  /** `,name="value"` per user label in the configured order; '' without user labels. */
  readonly labelSuffix: string;
  /** Families the selection leaves out. */
  readonly dropped: ReadonlySet<string>;
}

/** A target without user labels or selection: its series as they always were. */
export const PLAIN_OUTPUT: TargetOutput = Object.freeze({ labelSuffix: '', dropped: new Set<string>() });

/** A family pattern as Prometheus reads a regular expression: anchored at both ends. */
export function familyPattern(source: string): RegExp {
  return new RegExp(`^(?:${source})$`);
}

/** `,name="value"` for each label (escaped as the text format wants). */
export function labelSuffix(labels: Readonly<Record<string, string>>): string {
  let out = '';
  for (const [k, v] of Object.entries(labels)) out += `,${k}="${escapeLabelValue(v)}"`;
  return out;
}

/** The families of `index` that `selection` leaves out (never one of ALWAYS_EXPOSED). */
export function droppedFamilies(selection: MetricSelection, index: DescriptorIndex): Set<string> {
  const keep = selection.keep.map(familyPattern);
  const drop = selection.drop.map(familyPattern);
  const out = new Set<string>();
  for (const d of index.list) {
    if (ALWAYS_EXPOSED.includes(d.name)) continue;
    const kept = keep.length === 0 || keep.some((r) => r.test(d.name));
    if (!kept || drop.some((r) => r.test(d.name))) out.add(d.name);
  }
  return out;
}

/** The output of a target, from its spec; `dropped` resolves a selection (default: droppedFamilies). */
export function targetOutput(spec: TargetSpec, index: DescriptorIndex, dropped: (s: MetricSelection) => ReadonlySet<string> = (s) => droppedFamilies(s, index)): TargetOutput {
  const labels = spec.labels ?? {};
  const selection = spec.metrics ?? { keep: [], drop: [] };
  if (Object.keys(labels).length === 0 && selection.keep.length === 0 && selection.drop.length === 0) return PLAIN_OUTPUT;
  return { labelSuffix: labelSuffix(labels), dropped: dropped(selection) };
}

/**
 * Each target's output, made once per spec (a runner publishes every snapshot with the same spec
 * object; a reload that changes a target starts a new runner with a new spec). Targets with the same
 * selection (a top-level one) share its set of dropped families.
 */
export class TargetOutputs {
  private readonly made = new WeakMap<TargetSpec, TargetOutput>();
  private readonly selections = new Map<string, ReadonlySet<string>>();
  constructor(private readonly index: DescriptorIndex) {}
  of(spec: TargetSpec): TargetOutput {
    let o = this.made.get(spec);
    if (!o) this.made.set(spec, (o = targetOutput(spec, this.index, (s) => this.dropped(s))));
    return o;
  }
  private dropped(selection: MetricSelection): ReadonlySet<string> {
    const key = JSON.stringify([selection.keep, selection.drop]);
    let set = this.selections.get(key);
    if (!set) this.selections.set(key, (set = droppedFamilies(selection, this.index)));
    return set;
  }
}
