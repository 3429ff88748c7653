import type { Derivation } from '../derive/define.js';
import type { MethodRequests, TargetSnapshot } from '../snapshot.js';
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
    out.push(...wellFormedUnique(c.samples, target));
  }
  // A target that does not answer publishes nothing derived from what it said before (stale-value rule).
  if (s.up !== 0) for (const d of derivations) out.push(...wellFormedUnique(d.derive(s, nowSeconds), target));
  for (const r of requestSamples(s.requests)) out.push({ name: r.name, labels: { target, ...r.labels }, value: r.value });
  out.push({ name: 'avax_collection_skipped_ticks_total', labels: { target }, value: s.skippedTicks });
  return out;
}

/** avax_rpc_requests_total and avax_rpc_request_duration_seconds of a snapshot's requests, without the `target` label. */
export function requestSamples(requests: readonly MethodRequests[]): Sample[] {
  const out: Sample[] = [];
  for (const m of requests) m.results.forEach((result, i) => out.push({ name: 'avax_rpc_requests_total', labels: { method: m.method, result }, value: m.counts[i] ?? 0 }));
  for (const m of requests) {
    m.bounds.forEach((le, i) => out.push({ name: 'avax_rpc_request_duration_seconds_bucket', labels: { method: m.method, le: String(le) }, value: m.buckets[i] ?? 0 }));
    out.push({ name: 'avax_rpc_request_duration_seconds_bucket', labels: { method: m.method, le: '+Inf' }, value: m.count });
    out.push({ name: 'avax_rpc_request_duration_seconds_sum', labels: { method: m.method }, value: m.sum });
    out.push({ name: 'avax_rpc_request_duration_seconds_count', labels: { method: m.method }, value: m.count });
  }
  return out;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SURROGATE = /[\ud800-\udfff]/;

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
