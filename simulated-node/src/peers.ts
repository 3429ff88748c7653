// info.peers of the simulated node: the connected validator peers (60 s connection windows), the
// short-lived non-validator peers and the sibling nodes, each with its seeded addresses, version
// (per scenario and avalanchego version), tracked subnets, ACP sets and observed uptime.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { PRIMARY_SUBNET_ID, cb58Encode, nodeIdFromBytes } from './avalanche-ids.js';
import { derivedBytes, h32, hf } from './deterministic-random.js';
import { rfc3339, sortByJson } from './go-format.js';
import type { Scenario } from './scenarios/scenario.js';
import { observedUptime, type ObservedUptimeModel } from './uptime.js';
import { stakeOrderPos, validatorConnected, type ValidatorRegistryModel } from './validator-registry.js';
import { GRANITE_UNIX, HELICON_UNIX, announcesUpgradeTime, releaseSupportedAcps, type VersionProfile } from './versions.js';

export interface PeerInfo {
  ip: string;
  publicIP: string;
  nodeID: string;
  version: string;
  /** absent on nodes before v1.14.1 (VersionProfile.peerUpgradeTime) */
  upgradeTime?: number;
  lastSent: string;
  lastReceived: string;
  observedUptime: string;
  /** v1.9.4–v1.11.11 only (VersionProfile.observedSubnetUptimes) */
  observedSubnetUptimes?: Record<string, string>;
  trackedSubnets: string[];
  supportedACPs: number[];
  objectedACPs: number[];
  benched: string[];
}

/** A peer's seeded attributes (fixed for the peer's life; cached per NodeID). */
export interface PeerAttrs {
  ip: string;
  publicIP: string;
  version: string;
  upgradeTime: number;
  trackedSubnets: string[];
  supportedACPs: number[];
  objectedACPs: number[];
  key: number;
}

/** A sibling node (multi-node mode) as this file needs it to show it as a peer. */
export interface PeerSibling {
  readonly seed: number;
  /** whether it is linked to this node depends on both scenarios (NodeModel.linkedTo) */
  readonly active: Scenario;
  readonly nodeId: string;
  readonly nodeIp: string;
  readonly l1SubnetId: string;
  readonly profile: VersionProfile;
  announcedAcps(): { supported: number[]; objected: number[] };
  localUpgradeUnix(): number;
}

/** The memo tables this file keeps on the node (NodeModel.caches). */
export interface PeerCaches {
  readonly txId: Map<string, string>;
  /** non-validator peer IDs by "slot/generation" */
  readonly nvId: Map<string, string>;
  /** seeded peer attributes by NodeID */
  readonly peerAttrs: Map<string, PeerAttrs>;
  /** info.peers of the current second */
  peers: { key: string; peers: PeerInfo[] } | null;
}

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface PeersModel extends ValidatorRegistryModel, ObservedUptimeModel {
  readonly caches: PeerCaches;
  /** non-validator peer slots */
  readonly nvSlots: number;
  readonly l1SubnetId: string;
  readonly profile: VersionProfile;
  /** whether this node is a validator (of the primary network and of its subnet) */
  readonly isValidator: boolean;
  readonly siblings: readonly PeerSibling[];
  linkedTo(sib: PeerSibling): boolean;
  siblingKey(sib: PeerSibling): number;
  /** changes whenever a sibling switches scenario (part of the cache key) */
  siblingsKey(): string;
  currentAcps(): number[];
}

/** Peer keys of sibling nodes (above every validator and non-validator peer key). */
export const SIBLING_KEY_BASE = 5_000_000_000;

/**
 * Version and announced upgrade time of a peer in the current scenario: the scenario's `release`
 * (upgrade-pending, upgrade-unknown, version-drift) by the peer's stake order position, else its
 * seeded one. Siblings announce their own.
 */
function peerVersion(m: PeersModel, a: PeerAttrs): { version: string; upgradeTime: number } {
  const release = m.active.peers?.release;
  const moved = release && a.key < SIBLING_KEY_BASE ? release(m, stakeOrderPos(m, a.key)) : null;
  return moved ?? { version: a.version, upgradeTime: a.upgradeTime };
}

/**
 * A peer's ACP sets as this node stores them: avalanchego keeps only the ACPs in its own
 * constants.CurrentACPs (network/peer/peer.go), so with v1.14.2's empty set every peer shows
 * [] / []. The scenario's `acpStance` (acp-vote) gives the local validator peers' stance by
 * their stake order position; other peers keep their seeded stance; siblings their own
 * announced one. A peer also supports the ACPs its release schedules (v1.13.x ACP-176, v1.15.x
 * Helicon's) and cannot object to them (config.go refuses it), whatever the scenario.
 */
function peerAcps(m: PeersModel, a: PeerAttrs, version: string): { supported: number[]; objected: number[] } {
  const current = m.currentAcps();
  if (current.length === 0) return { supported: [], objected: [] };
  const stance = m.active.peers?.acpStance;
  const s = stance && a.key >= 1 && a.key <= m.others.length ? stance(m.stakePos[a.key - 1] as number) : { supported: a.supportedACPs, objected: a.objectedACPs };
  const sup = [...new Set([...s.supported, ...releaseSupportedAcps(version)])];
  const obj = s.objected.filter((x) => !sup.includes(x)); // an overlap closes the connection
  return {
    supported: sortByJson(sup.filter((x) => current.includes(x))),
    objected: sortByJson(obj.filter((x) => current.includes(x))),
  };
}

/** A sibling node as a peer of this one. */
function siblingPeer(m: PeersModel, sib: PeerSibling, nowMs: number, nowS: number): PeerInfo {
  const key = m.siblingKey(sib);
  const host = sib.nodeIp.slice(0, sib.nodeIp.lastIndexOf(':'));
  const inbound = hf(m.seed, key, 8) < 0.5;
  const stance = sib.announcedAcps();
  const version = sib.profile.nodeVersion.version;
  const a: PeerAttrs = {
    ip: inbound ? `${host}:${32768 + Math.floor(hf(m.seed, key, 9) * 28000)}` : sib.nodeIp,
    publicIP: sib.nodeIp,
    version,
    upgradeTime: announcesUpgradeTime(version) ? sib.localUpgradeUnix() : 0,
    trackedSubnets: sortByJson([PRIMARY_SUBNET_ID, sib.l1SubnetId]),
    supportedACPs: stance.supported,
    objectedACPs: stance.objected,
    key,
  };
  return peerJson(m, a, sib.nodeId, nowMs, nowS);
}

/** The seeded attributes of peer `key`. */
function peerAttrs(m: PeersModel, key: number): PeerAttrs {
  const r = (n: number): number => hf(m.seed, key, n);
  const host = `${[23, 34, 35, 44, 52, 54, 65, 78, 89, 95, 104, 136, 139, 142, 145, 157, 159, 164, 167, 178, 185, 188, 195, 213][Math.floor(r(1) * 24)]}.${Math.floor(r(2) * 256)}.${Math.floor(r(3) * 256)}.${1 + Math.floor(r(4) * 254)}`;
  const stakingPort = r(5) < 0.93 ? 9651 : 9000 + Math.floor(r(6) * 1000);
  const publicIP = r(7) < 0.003 ? '' : `${host}:${stakingPort}`;
  const inbound = r(8) < 0.5;
  const ip = inbound ? `${host}:${32768 + Math.floor(r(9) * 28000)}` : `${host}:${stakingPort}`;
  const vr = r(10);
  const version = m.profile.peerVersion(vr, stakeOrderPos(m, key));
  // Every node tracks the primary network (avalanchego adds constants.PrimaryNetworkID to its
  // tracked subnets); as a set sorted by JSON bytes it comes first ("111…LpoYY").
  const tracked: string[] = [PRIMARY_SUBNET_ID];
  if (r(11) < 0.12) tracked.push(m.l1SubnetId);
  if (r(12) < 0.05) tracked.push(cb58Encode(derivedBytes(`othersubnet/${Math.floor(r(13) * 5)}`, 32)));
  const acpRoll = r(14);
  const supportedACPs = acpRoll < 0.9 ? [] : acpRoll < 0.96 ? [247] : [236, 247];
  const objectedACPs = r(15) < 0.02 ? [236] : [];
  return {
    ip,
    publicIP,
    version,
    // A 1.15.0 peer runs with Helicon (the simulated 1.15.0's activation); the 1.14.x ones with Granite.
    upgradeTime: announcesUpgradeTime(version) ? (version.startsWith('avalanchego/1.15.') ? HELICON_UNIX : GRANITE_UNIX) : 0,
    trackedSubnets: sortByJson(tracked),
    supportedACPs: sortByJson(supportedACPs),
    objectedACPs: sortByJson(objectedACPs),
    key,
  };
}

/** The info.peers entry of a peer now (fields in avalanchego's order). */
function peerJson(m: PeersModel, a: PeerAttrs, nodeId: string, nowMs: number, nowS: number): PeerInfo {
  const key = a.key;
  const minute = Math.floor(nowS / 60);
  const silent = hf(m.seed, key, minute, 61) < 0.01;
  const lastRecvMs = silent ? nowMs - 90_000 - Math.floor(hf(m.seed, key, minute, 62) * 400_000) : nowMs - Math.floor(hf(m.seed, key, nowS, 63) * 4000);
  const lastSentMs = nowMs - Math.floor(hf(m.seed, key, nowS, 64) * 3000);
  const benchRoll = hf(m.seed, key, Math.floor(nowS / 300), 65);
  const benched = benchRoll < 0.01 ? ['C'] : benchRoll < 0.013 ? ['P'] : [];
  // Without inbound connections every peer is one this node dialled (ip = its public IP).
  const outboundOnly = m.active.peers?.inbound === false && a.publicIP !== '';
  const v = peerVersion(m, a);
  const acps = peerAcps(m, a, v.version);
  const head = { ip: outboundOnly ? a.publicIP : a.ip, publicIP: a.publicIP, nodeID: nodeId, version: v.version };
  const uptime = String(observedUptime(m, key, nowS));
  return {
    ...head,
    // info.peers has upgradeTime since v1.14.1 (between version and lastSent)
    ...(m.profile.peerUpgradeTime ? { upgradeTime: v.upgradeTime } : {}),
    lastSent: rfc3339(lastSentMs),
    lastReceived: rfc3339(lastRecvMs),
    observedUptime: uptime,
    // Until v1.11.11: per subnet this node tracks, the uptime the peer reported for it (a Go map: {} when none).
    ...(m.profile.observedSubnetUptimes ? { observedSubnetUptimes: subnetUptimes(m, a, uptime) } : {}),
    trackedSubnets: a.trackedSubnets,
    supportedACPs: acps.supported,
    objectedACPs: acps.objected,
    benched,
  };
}

/**
 * observedSubnetUptimes (network/peer/peer.go Info, v1.11): the uptimes the peer reported for the
 * subnets this node tracks; a peer reports one for a subnet it tracks too, where this node validates.
 * The simulated subnet: tracked unless l1-untracked; the peer sees the same uptime there as on the
 * primary network.
 */
function subnetUptimes(m: PeersModel, a: PeerAttrs, uptime: string): Record<string, string> {
  const shared = m.isValidator && m.active.l1?.chain !== 'untracked' && a.trackedSubnets.includes(m.l1SubnetId);
  return shared ? { [m.l1SubnetId]: uptime } : {};
}

/** All connected peers (cached per second). */
export function connectedPeers(m: PeersModel): PeerInfo[] {
  const nowMs = m.now();
  const nowS = Math.floor(nowMs / 1000);
  const key = `${m.active.name}/${nowS}/${m.siblingsKey()}`;
  if (m.caches.peers?.key === key) return m.caches.peers.peers;
  const attrs = m.caches.peerAttrs;
  const out: PeerInfo[] = [];
  for (const v of m.others) {
    if (v.idx >= m.vpCount || !validatorConnected(m, v, nowS)) continue;
    let a = attrs.get(v.nodeId);
    if (!a) {
      a = peerAttrs(m, v.idx + 1);
      attrs.set(v.nodeId, a);
    }
    out.push(peerJson(m, a, v.nodeId, nowMs, nowS));
  }
  for (const sib of m.siblings) if (m.linkedTo(sib)) out.push(siblingPeer(m, sib, nowMs, nowS));
  if (m.active.peers?.nonValidators !== false) {
    for (let s = 0; s < m.nvSlots; s++) {
      const life = 300 + (h32(m.seed, s, 71) % 1500);
      const phase = h32(m.seed, s, 72) % life;
      const gen = Math.floor((nowS + phase) / life);
      const idKey = `${s}/${gen}`;
      let nodeId = m.caches.nvId.get(idKey);
      if (!nodeId) {
        if (m.caches.nvId.size > 50_000) m.caches.nvId.clear();
        nodeId = nodeIdFromBytes(derivedBytes(`nv/${m.seed}/${s}/${gen}`, 20));
        m.caches.nvId.set(idKey, nodeId);
      }
      let a = attrs.get(nodeId);
      if (!a) {
        if (attrs.size > 60_000) attrs.clear();
        a = peerAttrs(m, 1_000_000 + h32(s, gen));
        attrs.set(nodeId, a);
      }
      out.push(peerJson(m, a, nodeId, nowMs, nowS));
    }
  }
  m.caches.peers = { key, peers: out };
  return out;
}

/** Inbound connections (for the network health check). */
export function ingressConnections(m: PeersModel): number {
  if (m.active.peers?.inbound === false) return 0;
  return connectedPeers(m).filter((p) => !p.ip.endsWith(':9651')).length;
}
