import { COLLECTORS } from '../collectors/index.js';
import type { Collector } from '../collectors/define.js';
import { DERIVATIONS, FLEET_DERIVATIONS } from '../derive/index.js';
import type { MetricDescriptor } from '../model.js';

/**
 * The exporter's own series about each target and itself (the runner's: status of every collector,
 * the request counters, skipped ticks). Every other family is declared by its collector (src/collectors) or its
 * derivation (src/derive); this module only puts them together in exposition order. docs/metrics.md,
 * the project's metric contract, is generated from the result (`npm run docs`).
 */
export const RUNNER_METRICS: readonly MetricDescriptor[] = [
  { name: 'avax_up', type: 'gauge', labels: ['target'], collector: 'runner', help: '1 if the last collection cycle got an answer from the node (0: no answer at all; its node-derived series are then absent).' },
  { name: 'avax_collector_success', type: 'gauge', labels: ['target', 'collector'], collector: 'runner', help: "1 if the collector's last run succeeded." },
  { name: 'avax_collector_duration_seconds', type: 'gauge', labels: ['target', 'collector'], collector: 'runner', help: "Wall time of the collector's last run, in seconds." },
  { name: 'avax_collector_last_success_timestamp_seconds', type: 'gauge', labels: ['target', 'collector'], collector: 'runner', help: "Unix time of the collector's last successful run." },
  { name: 'avax_rpc_requests_total', type: 'counter', labels: ['target', 'method', 'result'], collector: 'runner', help: 'Requests made to the node, by method and result: ok; normal_state (an error answer that means a normal state of the node: index disabled or empty, not a validator, method absent on an older node); rpc_error, http_error, timeout, network_error, invalid_response (something went wrong).' },
  { name: 'avax_rpc_request_duration_seconds', type: 'histogram', labels: ['target', 'method'], collector: 'runner', help: 'Latency of each request to the node, in seconds.' },
  { name: 'avax_collection_skipped_ticks_total', type: 'counter', labels: ['target'], collector: 'runner', help: "Scheduled collection ticks skipped because the target's previous cycle was still running (counted after its start-up cycle): while it rises, the target is collected less often than every --collection.interval (a slow node, or more targets than the process keeps up with: fewer targets per process, --shard.total, or a longer interval)." },
  { name: 'avax_exporter_build_info', type: 'gauge', labels: ['version', 'nodejs_version'], collector: 'runner', help: 'Build information of avalanche-exporter; value 1.' },
];

/** Every family: the runner's, then each collector's in list order, then the derived ones. */
export function descriptorsOf(collectors: readonly Collector<any>[] = COLLECTORS): MetricDescriptor[] {
  return [...RUNNER_METRICS, ...collectors.flatMap((c) => c.metrics), ...DERIVATIONS.flatMap((d) => d.metrics), ...FLEET_DERIVATIONS.flatMap((d) => d.metrics)];
}

export const DESCRIPTORS: readonly MetricDescriptor[] = descriptorsOf();

/**
 * The target's status families, always exposed: the alerts on a node that does not answer or a
 * collector that fails read them, so a target's `metrics: { keep, drop }` cannot remove them (the
 * configuration refuses a drop pattern that matches one; to stop a collector, disable it).
 */
export const ALWAYS_EXPOSED: readonly string[] = ['avax_up', 'avax_collector_success', 'avax_collector_duration_seconds', 'avax_collector_last_success_timestamp_seconds'];

/**
 * Every label name the families use, each with the families that use it: the declared labels, and
 * `le` of a histogram's buckets and `quantile` of a summary. A user label of a target must be none of
 * them (it would clash on those series).
 */
export function labelNamesOf(list: readonly MetricDescriptor[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const add = (label: string, family: string) => {
    const fams = out.get(label);
    if (!fams) out.set(label, [family]);
    else if (!fams.includes(family)) fams.push(family);
  };
  for (const d of list) {
    for (const l of d.labels) add(l, d.name);
    if (d.type === 'histogram') add('le', d.name);
    if (d.type === 'summary') add('quantile', d.name);
  }
  return out;
}

/** Looks families up by name, and finds the family of a sample name (histogram and summary suffixes). */
export class DescriptorIndex {
  private readonly byName: ReadonlyMap<string, MetricDescriptor>;
  constructor(readonly list: readonly MetricDescriptor[]) {
    const dup = list.map((d) => d.name).filter((n, i, a) => a.indexOf(n) !== i);
    if (dup.length > 0) throw new Error(`metric families declared twice: ${dup.join(', ')}`);
    this.byName = new Map(list.map((d) => [d.name, d]));
  }
  get(name: string): MetricDescriptor | undefined {
    return this.byName.get(name);
  }
  familyOf(sampleName: string): MetricDescriptor | undefined {
    const d = this.byName.get(sampleName);
    if (d) return d;
    for (const suffix of ['_bucket', '_sum', '_count']) {
      if (sampleName.endsWith(suffix)) {
        const h = this.byName.get(sampleName.slice(0, -suffix.length));
        if (h && (h.type === 'histogram' || (h.type === 'summary' && suffix !== '_bucket'))) return h;
      }
    }
    return undefined;
  }
}

export const DESCRIPTOR_INDEX = new DescriptorIndex(DESCRIPTORS);
export const DESCRIPTOR_BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(DESCRIPTORS.map((d) => [d.name, d]));

/** Family of a sample name among every family the exporter declares. */
export function familyOf(sampleName: string): MetricDescriptor | undefined {
  return DESCRIPTOR_INDEX.familyOf(sampleName);
}
