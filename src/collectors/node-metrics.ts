import { sample, type Sample } from '../metrics/model.js';
import { HttpError, type NodeClientError } from '../node-client/index.js';
import { defineCollector, type MetricSpec } from './define.js';
import { SignalIndex, SignalPicker } from './node-metrics-pick.js';
import { NAMING_SCHEMES, NODE_SIGNALS, schemeOfVersion, type NamingScheme } from './node-metrics-signals.js';
import { PrometheusTextReader, type ReadStats } from './prometheus-text.js';
import { onChange } from './support.js';

/**
 * node-metrics: the node's own Prometheus registry (`GET /ext/metrics`) read on the collection
 * schedule, and a curated set of its consensus, network, database, C-Chain and process signals
 * exposed under stable names of ours (avax_node_*), whichever naming avalanchego used (it renamed
 * them in v1.11.6 and v1.11.8). The table is node-metrics-signals.ts; the picking node-metrics-pick.ts;
 * the text reader prometheus-text.ts.
 */

export const METRICS_PATH = '/ext/metrics';

/** What node-metrics publishes: which naming scheme matched (undefined while unknown or disabled). */
export interface NodeMetricsValue {
  /** False when the node answers 404 (started without --api-metrics-enabled). */
  readonly available: boolean;
  readonly scheme?: NamingScheme;
}

declare module './define.js' {
  interface CollectorValues {
    'node-metrics': NodeMetricsValue;
  }
}

/** A 404: the metrics API is disabled (`--api-metrics-enabled=false`), a normal state. */
export function isMetricsDisabled(err: NodeClientError | unknown): boolean {
  return err instanceof HttpError && err.status === 404;
}

/** Our metric families: one per signal, then the scheme and availability series. */
export const NODE_METRICS_FAMILIES: readonly MetricSpec[] = [
  { name: 'avax_node_metrics_available', type: 'gauge', labels: [], help: "1 if the node serves GET /ext/metrics, 0 if it answers 404 (metrics API disabled: --api-metrics-enabled=false; then no avax_node_* internal series)." },
  {
    name: 'avax_node_metrics_scheme', type: 'gauge', labels: ['scheme'],
    help: `Naming scheme of the node's /ext/metrics that matched, named after the first avalanchego version using it (${NAMING_SCHEMES.join(', ')}; unknown: no known name found); value 1.`,
  },
  ...NODE_SIGNALS.map((s): MetricSpec => ({
    name: s.name,
    type: s.type,
    help: s.help,
    labels: [...(s.perChain ? ['chain'] : []), ...(s.extra ? [s.extra] : [])],
  })),
];

/** Caches the name index per set of watched chains (built once, not per cycle). */
const INDEX_KEY = 'signal-index';
function indexFor(state: Map<string, unknown>, chains: readonly string[]): SignalIndex {
  const key = chains.join(',');
  const cached = state.get(INDEX_KEY) as { key: string; index: SignalIndex } | undefined;
  if (cached?.key === key) return cached.index;
  const index = new SignalIndex(chains);
  state.set(INDEX_KEY, { key, index });
  return index;
}

/** Our samples from a whole /ext/metrics body (tests, bench): the same path as a streamed one. */
export function pickFromText(text: string, chains: readonly string[] = [], versionHint?: NamingScheme, index = new SignalIndex(chains)): { scheme: NamingScheme | undefined; samples: Sample[]; stats: ReadStats } {
  const picker = new SignalPicker(index);
  const reader = new PrometheusTextReader(picker.wanted, picker.add);
  reader.push(text);
  const stats = reader.end();
  return { ...picker.result(versionHint), stats };
}

export const nodeMetrics = defineCollector({
  name: 'node-metrics',
  description: "The node's own /ext/metrics: consensus, network, database, C-Chain and process internals under stable names, whichever avalanchego naming (v1.10 to v1.14).",
  needs: 'GET /ext/metrics (on by default; --api-metrics-enabled=false answers 404: avax_node_metrics_available 0, and no failure)',
  // 60 s, not the 30 s of the issue: the request budget of a target is 12 per 15 s cycle (bench row 4:
  // 11.65 without this collector, 12.15 with it at 30 s, 11.90 at 60 s), and a mainnet body is ~1 MB.
  // The node's counters are cumulative, so rates over the alerts' 5-10 min windows lose nothing.
  interval: 60,
  nodeSpecific: true,
  reads: ['node-info'],
  metrics: NODE_METRICS_FAMILIES,
  calls: [{ method: `GET ${METRICS_PATH}` }],
  async collect(ctx) {
    const index = indexFor(ctx.state, ctx.target.chains);
    const picker = new SignalPicker(index);
    const reader = new PrometheusTextReader(picker.wanted, picker.add);
    let stats: ReadStats | undefined;
    const check = () => {
      stats = reader.end();
      return stats.samples === 0 ? `${stats.lines === 0 ? 'empty body' : 'no sample line'}: not the Prometheus text format` : undefined;
    };
    try {
      await ctx.client.textGet(METRICS_PATH, (chunk) => reader.push(chunk), { signal: ctx.signal, normal: isMetricsDisabled, check });
    } catch (err) {
      if (isMetricsDisabled(err)) {
        onChange(ctx, 'available', 'no', () => ctx.log.info('GET /ext/metrics answers 404 (metrics API disabled): no node-internal series'));
        return { value: { available: false }, samples: [sample('avax_node_metrics_available', {}, 0)], errors: [] };
      }
      return { samples: [], errors: [err instanceof Error ? err : new Error(String(err))] };
    }
    const read: ReadStats = stats ?? reader.end();
    const hint = schemeOfVersion(ctx.read('node-info')?.version?.version);
    const { scheme, samples } = picker.result(hint);
    onChange(ctx, 'available', 'yes', () => {});
    onChange(ctx, 'scheme', scheme ?? 'unknown', () =>
      ctx.log.info({ scheme: scheme ?? 'unknown', versionScheme: hint, lines: read.lines, kept: read.kept, malformed: read.malformed }, '/ext/metrics naming scheme'),
    );
    return {
      value: { available: true, scheme },
      samples: [sample('avax_node_metrics_available', {}, 1), sample('avax_node_metrics_scheme', { scheme: scheme ?? 'unknown' }, 1), ...samples],
      errors: [],
    };
  },
});
