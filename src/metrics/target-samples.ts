import type { Derivation } from '../derive/define.js';
import type { TargetSnapshot } from '../snapshot.js';
import { round6, type Sample } from '../model.js';

/**
 * One target's complete set of samples (each with the `target` label) from its snapshot: avax_up,
 * the status of every collector that has run, the collectors' samples, the derived series, the
 * request counters and the skipped-tick counter.
 */
export function targetSamples(s: TargetSnapshot, derivations: readonly Derivation[], nowSeconds: number): Sample[] {
  const target = s.target.name;
  const out: Sample[] = [];
  if (s.up !== undefined) out.push({ name: 'avax_up', labels: { target }, value: s.up });
  for (const c of s.collectors) {
    if (!c.ran) continue;
    const labels = { target, collector: c.name };
    out.push({ name: 'avax_collector_success', labels, value: c.success ? 1 : 0 });
    out.push({ name: 'avax_collector_duration_seconds', labels, value: round6(c.durationSeconds) });
    if (c.lastSuccessSeconds !== undefined) out.push({ name: 'avax_collector_last_success_timestamp_seconds', labels, value: Math.round(c.lastSuccessSeconds * 1000) / 1000 });
    out.push(...collectorSamples(c.samples, target));
  }
  // A target that does not answer publishes nothing derived from what it said before (stale-value rule).
  if (s.up !== 0) for (const d of derivations) out.push(...wellFormedUnique(d.derive(s, nowSeconds), target));
  for (const r of s.requests) out.push({ name: r.name, labels: { target, ...r.labels }, value: r.value });
  out.push({ name: 'avax_collection_skipped_ticks_total', labels: { target }, value: s.skippedTicks });
  return out;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * wellFormedUnique of a collector's samples, made once per run of the collector: a cycle publishes the
 * samples of every collector, most of which did not run in it (their arrays are the same as at the last
 * publication). Keyed by the array the collector's run made (a few per target: a weak map costs the
 * garbage collector per entry, measured with one per sample); a run's samples go with it.
 */
const COLLECTOR_SAMPLES = new WeakMap<readonly Sample[], { readonly target: string; readonly out: readonly Sample[] }>();

function collectorSamples(samples: readonly Sample[], target: string): readonly Sample[] {
  const kept = COLLECTOR_SAMPLES.get(samples);
  if (kept?.target === target) return kept.out;
  const out = wellFormedUnique(samples, target);
  COLLECTOR_SAMPLES.set(samples, { target, out });
  return out;
}

/**
 * Samples with the `target` label. Label values come from node answers: lone surrogates (JSON may
 * carry "\ud800") become U+FFFD here, as they would in the UTF-8 exposition, and a series equal to
 * an earlier one is dropped: two label values that differ only there would otherwise be a duplicate
 * series, and a scraper rejects the whole exposition for one.
 */
export function wellFormedUnique(samples: readonly Sample[], target: string): Sample[] {
  const out: Sample[] = [];
  const seen = new Set<string>();
  for (const x of samples) {
    const labels: Record<string, string> = { target };
    // The series' identity: its name and each label, every part prefixed by its length (unambiguous
    // whatever a value holds).
    let key = `${x.name.length}:${x.name}`;
    for (const k in x.labels) {
      const raw = x.labels[k]!;
      const v = SURROGATE.test(raw) ? raw.replace(LONE_SURROGATE, '\ufffd') : raw;
      labels[k] = v;
      key += `${k.length}:${k}${v.length}:${v}`;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: x.name, labels, value: x.value });
  }
  return out;
}
