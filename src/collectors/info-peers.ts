import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS } from '../node-client/index.js';
import { InfoPeersResult } from '../schemas/info.js';
import { settle, percentToRatio } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

export interface InfoPeersContext {
  /** Wall clock, Unix ms. */
  readonly nowMs: number;
  /** A peer is silent when lastReceived is older than this (seconds). */
  readonly silenceSeconds: number;
  /** One avax_peer_info / avax_peer_last_received_timestamp_seconds series per peer. */
  readonly perPeer: boolean;
}

/** Quantiles exported for observedUptime. */
export const OBSERVED_UPTIME_QUANTILES = [0, 0.1, 0.5] as const;

/** Nearest-rank quantile of an ascending array (q=0 → minimum). */
export function nearestRank(sorted: readonly number[], q: number): number {
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Always present so that "0 benched" is a series, not an absence. */
const PRIMARY_CHAINS = ['P', 'X', 'C'];

function countSorted(counts: Map<string, number>, name: string, label: string): Sample[] {
  return [...counts.keys()].sort().map((k) => sample(name, { [label]: k }, counts.get(k)!));
}

/** First entry per nodeID: a peer listed twice is one peer, and per-peer series must stay unique. */
function uniquePeers(peers: InfoPeersResult['peers']): InfoPeersResult['peers'] {
  const seen = new Set<string>();
  return peers.filter((p) => !seen.has(p.nodeID) && seen.add(p.nodeID));
}

export function toSamples(v: InfoPeersResult, c: InfoPeersContext): Sample[] {
  const out: Sample[] = [sample('avax_peers', {}, v.numPeers)];
  const peers = uniquePeers(v.peers);
  const byVersion = new Map<string, number>();
  const benched = new Map<string, number>(PRIMARY_CHAINS.map((ch) => [ch, 0]));
  const tracking = new Map<string, number>();
  const uptimes: number[] = [];
  const silentBefore = c.nowMs / 1000 - c.silenceSeconds;
  let silent = 0;
  for (const p of peers) {
    byVersion.set(p.version, (byVersion.get(p.version) ?? 0) + 1);
    for (const ch of new Set(p.benched)) benched.set(ch, (benched.get(ch) ?? 0) + 1);
    for (const s of new Set(p.trackedSubnets)) tracking.set(s, (tracking.get(s) ?? 0) + 1);
    if (p.observedUptime !== undefined) uptimes.push(percentToRatio(p.observedUptime));
    if (p.lastReceived !== undefined && p.lastReceived < silentBefore) silent++;
  }
  out.push(...countSorted(byVersion, 'avax_peers_by_version', 'version'));
  out.push(...countSorted(benched, 'avax_peers_benched', 'chain'));
  out.push(...countSorted(tracking, 'avax_peers_tracking_subnet', 'subnet'));
  if (uptimes.length > 0) {
    uptimes.sort((a, b) => a - b);
    for (const q of OBSERVED_UPTIME_QUANTILES) out.push(sample('avax_peers_observed_uptime_ratio', { quantile: String(q) }, nearestRank(uptimes, q)));
    // A summary (not a gauge as METRICS.md says): promtool check metrics rejects a `quantile` label on
    // a gauge. Same name and labels, so every query keeps working; _sum and _count come with it.
    out.push(sample('avax_peers_observed_uptime_ratio_sum', {}, Math.round(uptimes.reduce((a, b) => a + b, 0) * 1e6) / 1e6));
    out.push(sample('avax_peers_observed_uptime_ratio_count', {}, uptimes.length));
  }
  out.push(sample('avax_peers_silent', {}, silent));
  if (c.perPeer) {
    const sorted = [...peers].sort((a, b) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0));
    for (const p of sorted) out.push(sample('avax_peer_info', { peer_node_id: p.nodeID, version: p.version }, 1));
    for (const p of sorted) {
      if (p.lastReceived !== undefined) out.push(sample('avax_peer_last_received_timestamp_seconds', { peer_node_id: p.nodeID }, p.lastReceived));
    }
  }
  return out;
}

export const infoPeers: Collector = {
  name: 'info-peers',
  description: 'info.peers: count, versions, benched per chain, tracked subnets, observed-uptime quantiles, silent peers.',
  needs: 'Info API',
  defaultIntervalSeconds: 15,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 1,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.peers', {}, InfoPeersResult, { signal: ctx.signal }));
    if (!r.ok) return { samples: [], errors: [r.error] };
    const samples = toSamples(r.value, {
      nowMs: ctx.now(),
      silenceSeconds: ctx.settings.infoPeersSilenceSeconds,
      perPeer: ctx.settings.infoPeersPerPeer,
    });
    return { samples, errors: [] };
  },
};
