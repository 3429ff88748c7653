import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS } from '../node-client/index.js';
import { InfoPeersResult } from '../schemas/info.js';
import { settle, percentToRatio } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

/**
 * Semantic version of an avalanchego version string: `avalanchego/1.14.2`, `avalanche/1.9.0` (before
 * v1.10.18), `v1.14.3-rc.1`. Returns [major, minor, patch, release] (release 1 for a final release, 0 for
 * a pre-release, which sorts before it), or undefined when there is no x.y.z.
 */
export function parseVersion(v: string): [number, number, number, number] | undefined {
  const m = /^(?:[A-Za-z][\w.-]*\/)?v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ? 0 : 1];
}

/** <0, 0, >0 like a comparator; numeric per component (1.14.10 > 1.14.2). */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Share of peers (with a parseable version) that run a newer version than `own`; undefined when the
 * own version is unknown or unparseable, or no peer has a parseable version.
 */
export function newerVersionRatio(own: string | undefined, versions: ReadonlyMap<string, number>): number | undefined {
  const mine = own === undefined ? undefined : parseVersion(own);
  if (!mine) return undefined;
  let known = 0;
  let newer = 0;
  for (const [v, n] of versions) {
    const pv = parseVersion(v);
    if (!pv) continue;
    known += n;
    if (compareVersions(pv, mine) > 0) newer += n;
  }
  return known === 0 ? undefined : Math.round((newer / known) * 1e6) / 1e6;
}

export interface InfoPeersContext {
  /** Wall clock, Unix ms. */
  readonly nowMs: number;
  /** A peer is silent when lastReceived is older than this (seconds). */
  readonly silenceSeconds: number;
  /** One avax_peer_info / avax_peer_last_received_timestamp_seconds series per peer. */
  readonly perPeer: boolean;
  /** The node's own version (info.getNodeVersion), for avax_peers_newer_version_ratio. */
  readonly nodeVersion?: string;
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
    // Like avalanchego's own info.uptime (which weighs peers by stake and skips those with none), only
    // validators count: a peer that is not a validator, is bootstrapping or has no stake reports "0".
    if (p.observedUptime !== undefined && c.validators?.has(p.nodeID)) uptimes.push(percentToRatio(p.observedUptime));
    if (p.lastReceived !== undefined && p.lastReceived < silentBefore) silent++;
  }
  out.push(...countSorted(byVersion, 'avax_peers_by_version', 'version'));
  const newer = newerVersionRatio(c.nodeVersion, byVersion);
  if (newer !== undefined) out.push(sample('avax_peers_newer_version_ratio', {}, newer));
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

const NO_ACPS: readonly number[] = Object.freeze([]);

/** Every peer's announced ACP stance, by NodeID (how the peers vote, for avax_acp_node_vote of other targets). */
export function peerAcps(peers: InfoPeersResult['peers']): Map<string, { supported: readonly number[]; objected: readonly number[] }> {
  const out = new Map<string, { supported: readonly number[]; objected: readonly number[] }>();
  for (const p of peers) {
    if (out.has(p.nodeID)) continue;
    out.set(p.nodeID, {
      supported: p.supportedACPs.length ? p.supportedACPs : NO_ACPS,
      objected: p.objectedACPs.length ? p.objectedACPs : NO_ACPS,
    });
  }
  return out;
}

export const infoPeers: Collector = {
  name: 'info-peers',
  description: 'info.peers: count, versions, benched per chain, tracked subnets, observed-uptime quantiles (validator peers), silent peers.',
  needs: 'Info API; the observed-uptime quantiles also need platform-validators-full (which peers are validators)',
  defaultIntervalSeconds: 15,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 1,
  after: ['platform-validators-full', 'node-info', 'info-acps'],
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.peers', {}, InfoPeersResult, { signal: ctx.signal }));
    if (!r.ok) {
      ctx.memo.peerAcps = undefined;
      return { samples: [], errors: [r.error] };
    }
    const samples = toSamples(r.value, {
      nowMs: ctx.now(),
      silenceSeconds: ctx.settings.infoPeersSilenceSeconds,
      perPeer: ctx.settings.infoPeersPerPeer,
      nodeVersion: ctx.memo.nodeVersion,
      validators: ctx.memo.primaryValidators,
    });
    // Peers' votes matter only while this node has proposals open (it keeps a peer's votes only for
    // those); with none open (v1.14.2) nothing is kept, so a fleet pays nothing for it.
    ctx.memo.peerAcps = ctx.memo.openAcps?.length ? peerAcps(r.value.peers) : undefined;
    return { samples, errors: [] };
  },
};
