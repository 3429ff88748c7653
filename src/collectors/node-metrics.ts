import { family, gauge, sample, type Sample } from '../model.js';
import { HttpError, textCall, type NodeClientError } from '../node-client/index.js';
import { defineCollector, type MetricSpec, type CollectorOf } from './define.js';
import { SignalIndex, SignalPicker, type CchainVm } from './node-metrics-pick.js';
import { NAMING_SCHEMES, NODE_SIGNALS, schemeOfVersion, type NamingScheme } from './node-metrics-signals.js';
import { PrometheusTextReader, type ReadStats } from './prometheus-text.js';

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
  /** The node's own share of each chain's validator stake it is connected to (chain label → ratio). */
  readonly stakeConnected?: ReadonlyMap<string, number>;
  /** When the node's process started (Unix seconds): a change is a restart between two cycles. */
  readonly processStartTime?: number;
  /**
   * Under SAE (avalanchego v1.15.0+ after Helicon), the C-Chain's last accepted and last executed heights of the
   * same body (for avax_cchain_execution_lag_blocks); undefined on Coreth or when either is missing.
   */
  readonly cchainExecution?: { readonly accepted: number; readonly executed: number };
}

/** A 404: the metrics API is disabled (`--api-metrics-enabled=false`), a normal state. */
export function isMetricsDisabled(err: NodeClientError | unknown): boolean {
  return err instanceof HttpError && err.status === 404;
}

/** Our metric families: one per signal, then the scheme and availability series. */
export const NODE_METRICS_FAMILIES: readonly MetricSpec[] = [
  gauge('avax_node_metrics_available', "1 if the node serves GET /ext/metrics, 0 if it answers 404 (metrics API disabled: --api-metrics-enabled=false; then no avax_node_* internal series)."),
  gauge('avax_node_metrics_scheme', `Naming scheme of the node's /ext/metrics that matched, named after the first avalanchego version using it (${NAMING_SCHEMES.join(', ')}; unknown: no known name found); value 1.`, ['scheme']),
  gauge(
    'avax_node_cchain_vm',
    "The C-Chain VM whose families the node's /ext/metrics holds: coreth (avalanchego up to v1.14.x, and v1.15.0 before Helicon) or sae (v1.15.0+ after Helicon, ACP-194: avalanche_evm_transition_sae_*; Coreth's frozen series are then left out); value 1. Absent when neither is seen.",
    ['vm'],
  ),
  ...NODE_SIGNALS.map((s) => ({ ...family(s.type, s.name, s.help, [...(s.perChain ? ['chain'] : []), ...(s.extra ? [s.extra] : [])]), ...(s.avalanchego ? { avalanchego: s.avalanchego } : {}) })),
];

/** The name index of the target's watched chains (looked up once per change of them, not per cycle). */
interface NodeMetricsMemory {
  index?: { key: string; index: SignalIndex };
}
function indexFor(memory: NodeMetricsMemory, chains: readonly string[]): SignalIndex {
  const key = chains.join(',');
  if (memory.index?.key !== key) memory.index = { key, index: sharedIndex(key, chains) };
  return memory.index.index;
}

/**
 * The name indexes, one per set of watched chains, shared by the targets that watch the same chains
 * (most of a fleet: P, X and C). An index is read-only once built and about 165 KB of heap: one per
 * target was 165 MB of a 1,000-target process's 420 MB live heap (heap profile, issue 21). At most
 * SHARED_INDEXES are kept (a fleet watching that many different chain sets starts over: a miss only
 * costs building one again).
 */
const SHARED_INDEXES = 64;
const indexes = new Map<string, SignalIndex>();
function sharedIndex(key: string, chains: readonly string[]): SignalIndex {
  let index = indexes.get(key);
  if (!index) {
    if (indexes.size >= SHARED_INDEXES) indexes.clear();
    indexes.set(key, (index = new SignalIndex(chains)));
  }
  return index;
}

/** The C-Chain's last accepted and last executed heights among our samples of one body (both, or undefined). */
function executionOf(samples: readonly Sample[]): NodeMetricsValue['cchainExecution'] {
  const accepted = samples.find((x) => x.name === 'avax_node_last_accepted_height' && x.labels['chain'] === 'C')?.value;
  const executed = samples.find((x) => x.name === 'avax_node_cchain_last_executed_height')?.value;
  return accepted === undefined || executed === undefined ? undefined : { accepted, executed };
}

export const getExtMetricsCall = textCall({
  path: METRICS_PATH,
  normal: { disabled: { when: isMetricsDisabled, says: 'GET /ext/metrics answers 404 (metrics API disabled: --api-metrics-enabled=false): avax_node_metrics_available 0, no node-internal series' } },
});

/** Our samples from a whole /ext/metrics body (tests, bench): the same path as a streamed one. */
export function pickFromText(text: string, chains: readonly string[] = [], versionHint?: NamingScheme, index = new SignalIndex(chains)): { scheme: NamingScheme | undefined; cchainVm: CchainVm | undefined; samples: Sample[]; stats: ReadStats } {
  const picker = new SignalPicker(index);
  const reader = new PrometheusTextReader(picker.wanted, picker.add);
  reader.push(text);
  const stats = reader.end();
  return { ...picker.result(versionHint), stats };
}

export const nodeMetrics: CollectorOf<'node-metrics', NodeMetricsValue> = defineCollector({
  name: 'node-metrics',
  description: "The node's own /ext/metrics: consensus, network, database, C-Chain (Coreth, or SAE from v1.15.0) and process internals under stable names, whichever avalanchego naming (v1.10 to v1.15).",
  needs: 'GET /ext/metrics (on by default; --api-metrics-enabled=false answers 404: avax_node_metrics_available 0, and no failure)',
  // 60 s, not the 30 s of the issue: the request budget of a target is 12 per 15 s cycle (bench row 4:
  // 11.65 without this collector, 12.15 with it at 30 s, 11.90 at 60 s), and a mainnet body is ~1 MB.
  // The node's counters are cumulative, so rates over the alerts' 5-10 min windows lose nothing.
  interval: 60,
  nodeSpecific: true,
  reads: ['node-info'],
  // The chains of the L1s subnet-chains watches get the same internal series as P, X and C (issue 23).
  readsLatest: ['subnet-chains'],
  metrics: NODE_METRICS_FAMILIES,
  calls: [getExtMetricsCall],
  memory: (): NodeMetricsMemory => ({}),
  // The node's process start time: a new one means the node restarted between two cycles.
  identifies: (v) => ({ process: v.processStartTime === undefined ? undefined : String(v.processStartTime) }),
  async collect(ctx) {
    const found = (ctx.read('subnet-chains')?.chains ?? []).map((c) => c.id);
    const index = indexFor(ctx.memory, [...new Set([...ctx.target.chains, ...found])]);
    const picker = new SignalPicker(index);
    const reader = new PrometheusTextReader(picker.wanted, picker.add);
    let stats: ReadStats | undefined;
    const check = () => {
      stats = reader.end();
      return stats.samples === 0 ? `${stats.lines === 0 ? 'empty body' : 'no sample line'}: not the Prometheus text format` : undefined;
    };
    const r = await ctx.call(getExtMetricsCall, { sink: (chunk) => reader.push(chunk), check });
    if (!r.ok) {
      if (r.normal) return { value: { available: false }, samples: [sample('avax_node_metrics_available', {}, 0)], errors: [] };
      return { samples: [], errors: [r.error] };
    }
    const read: ReadStats = stats ?? reader.end();
    const hint = schemeOfVersion(ctx.read('node-info')?.version?.version);
    const { scheme, cchainVm, samples } = picker.result(hint);
    ctx.logOnChange('scheme', `${scheme ?? 'unknown'} ${cchainVm ?? ''}`, () =>
      ctx.log.info({ scheme: scheme ?? 'unknown', versionScheme: hint, cchainVm, lines: read.lines, kept: read.kept, malformed: read.malformed }, '/ext/metrics naming scheme'),
    );
    const stakeConnected = new Map<string, number>();
    for (const x of samples) if (x.name === 'avax_node_stake_connected_ratio' && x.labels['chain'] !== undefined) stakeConnected.set(x.labels['chain'], x.value);
    const processStartTime = samples.find((x) => x.name === 'avax_node_process_start_time_seconds')?.value;
    const cchainExecution = cchainVm === 'sae' ? executionOf(samples) : undefined;
    return {
      value: { available: true, scheme, stakeConnected, processStartTime, cchainExecution },
      samples: [
        sample('avax_node_metrics_available', {}, 1),
        sample('avax_node_metrics_scheme', { scheme: scheme ?? 'unknown' }, 1),
        ...(cchainVm ? [sample('avax_node_cchain_vm', { vm: cchainVm }, 1)] : []),
        ...samples,
      ],
      errors: [],
    };
  },
});
