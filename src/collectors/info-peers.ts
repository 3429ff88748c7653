import { family, gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { InfoPeersLean, type InfoPeersResult } from '../schemas/info.js';
import { collectOneCall, defineCollector, type CollectorOf } from './define.js';
import { percentToRatio } from '../schemas/primitives.js';

export interface InfoPeersContext {
  /** Wall clock, Unix ms. */
  readonly nowMs: number;
  /** A peer is silent when lastReceived is older than this (seconds). */
  readonly silenceSeconds: number;
  /** One avax_peer_info / avax_peer_last_received_timestamp_seconds series per peer. */
  readonly perPeer: boolean;
  /**
   * Current primary-network validators (platform-validators-full). observedUptime counts only from
   * peers in it; undefined (list not fetched yet, or that collector disabled) = no quantiles.
   */
  readonly validators?: { has(nodeId: string): boolean };
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

/** Counts each distinct value of `values` once (a chain listed twice in one peer's `benched` is one). */
function countDistinct(counts: Map<string, number>, values: readonly string[]): void {
  // Nearly every peer lists none or one (a mainnet answer: 1,700 peers, every 30 s, per target).
  if (values.length === 1) counts.set(values[0]!, (counts.get(values[0]!) ?? 0) + 1);
  else if (values.length > 1) for (const v of new Set(values)) counts.set(v, (counts.get(v) ?? 0) + 1);
}

export function toSamples(v: InfoPeersResult, c: InfoPeersContext): Sample[] {
  return summarize(v, c).samples;
}

/** toSamples, and the version mix it counted on the way (peers per version, a peer listed twice once: the collector's value). */
function summarize(v: InfoPeersResult, c: InfoPeersContext): { samples: Sample[]; versions: Map<string, number> } {
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
    countDistinct(benched, p.benched);
    countDistinct(tracking, p.trackedSubnets);
    // Like avalanchego's own info.uptime (which weighs peers by stake and skips those with none), only
    // validators count: a peer that is not a validator, is bootstrapping or has no stake reports "0".
    if (p.observedUptime !== undefined && c.validators?.has(p.nodeID)) uptimes.push(percentToRatio(p.observedUptime));
    if (p.lastReceived !== undefined && p.lastReceived < silentBefore) silent++;
  }
  out.push(...countSorted(byVersion, 'avax_peers_by_version', 'version'));
  out.push(...countSorted(benched, 'avax_peers_benched', 'chain'));
  out.push(...countSorted(tracking, 'avax_peers_tracking_subnet', 'subnet'));
  if (uptimes.length > 0) {
    uptimes.sort((a, b) => a - b);
    for (const q of OBSERVED_UPTIME_QUANTILES) out.push(sample('avax_peers_observed_uptime_ratio', { quantile: String(q) }, nearestRank(uptimes, q)));
    // A summary (the project's first metric contract named a gauge): promtool check metrics rejects a `quantile` label on
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
  return { samples: out, versions: byVersion };
}

const NO_ACPS: readonly number[] = Object.freeze([]);

/** Every peer's announced ACP stance, by NodeID (how the peers vote, for avax_acp_node_vote of other targets). */
export function peerAcps(peers: InfoPeersResult['peers']): Map<string, AcpStance> {
  const out = new Map<string, AcpStance>();
  for (const p of peers) {
    if (out.has(p.nodeID)) continue;
    out.set(p.nodeID, {
      supported: p.supportedACPs.length ? p.supportedACPs : NO_ACPS,
      objected: p.objectedACPs.length ? p.objectedACPs : NO_ACPS,
    });
  }
  return out;
}

/** ACP stance a peer announces (info.peers supportedACPs / objectedACPs). */
export interface AcpStance {
  readonly supported: readonly number[];
  readonly objected: readonly number[];
}

/** What info-peers publishes: the version mix, and the peers' ACP stances while proposals are open. */
export interface InfoPeersValue {
  readonly versions: ReadonlyMap<string, number>;
  /** By peer NodeID; only while this node has open proposals (it keeps peers' votes only for those). */
  readonly peerAcps?: ReadonlyMap<string, AcpStance>;
}

// A mainnet answer is ~600 KB every cycle: read by the lean reader (the used fields only, validated).
export const infoPeersCall = rpcCall({ method: 'info.peers', endpoint: ENDPOINTS.info, result: InfoPeersLean });

export const infoPeers: CollectorOf<'info-peers', InfoPeersValue> = defineCollector({
  name: 'info-peers',
  description: 'info.peers: count, versions, benched per chain, tracked subnets, observed-uptime quantiles (validator peers), silent peers.',
  needs: 'Info API; the observed-uptime quantiles also need platform-validators-full (which peers are validators)',
  // 30 s: ~600 KB per answer on mainnet, and the series move slowly (peers alerts wait 10 minutes).
  interval: 30,
  options: {
    perPeer: { kind: 'bool', default: false, help: 'One avax_peer_info series per connected peer (about 2,000 on mainnet).' },
    silenceWindow: { kind: 'duration', default: 60, help: 'A peer is silent when nothing was received from it for this long.' },
  },
  metrics: [
    gauge('avax_peers', 'Connected peers (info.peers numPeers).'),
    gauge('avax_peers_by_version', 'Connected peers per reported version.', ['version']),
    gauge('avax_peers_benched', 'Peers benched on each chain.', ['chain']),
    gauge('avax_peers_tracking_subnet', 'Peers that track each subnet.', ['subnet']),
    family('summary', 'avax_peers_observed_uptime_ratio', "How the validator peers see this node's uptime: quantiles 0, 0.1 and 0.5 of observedUptime, as a ratio, over the connected peers that are current primary-network validators (_count: how many were counted; absent until the validator list is known).", ['quantile']),
    gauge('avax_peers_silent', 'Peers whose lastReceived is older than the configured silence window.'),
    gauge('avax_peer_info', 'One series per connected peer (opt-in: --collector.info-peers.per-peer); value 1.', ['peer_node_id', 'version']),
    gauge('avax_peer_last_received_timestamp_seconds', 'Unix time of the last message received from each peer (opt-in).', ['peer_node_id']),
  ],
  calls: [infoPeersCall],
  reads: ['platform-validators-full', 'info-acps'],
  collect: (ctx) =>
    collectOneCall(ctx, infoPeersCall, (v) => {
      const { samples, versions } = summarize(v, {
        nowMs: ctx.now(),
        silenceSeconds: ctx.options.silenceWindow,
        perPeer: ctx.options.perPeer,
        validators: ctx.read('platform-validators-full')?.primaryValidators,
      });
      // Peers' votes matter only while this node has proposals open (it keeps a peer's votes only for
      // those); with none open (v1.14.2) nothing is kept, so a fleet pays nothing for it.
      const open = ctx.read('info-acps')?.open ?? [];
      return { value: { versions, peerAcps: open.length ? peerAcps(v.peers) : undefined }, samples };
    }),
});
