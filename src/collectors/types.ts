import type { Logger } from 'pino';
import type { NodeClient } from '../node-client/client.js';
import type { Sample } from '../metrics/model.js';
import type { NodeIdSet } from './node-id-set.js';

/** What a collector knows about the target it collects from (resolved from the config). */
export interface TargetSpec {
  /** Configured name; the `target` label. */
  readonly name: string;
  /** A trusted reference node or public API: node-specific calls (health, getNodeID, uptime) are skipped. */
  readonly reference: boolean;
  /** Watched validator node IDs; empty = the node's own ID (learned from info.getNodeID). */
  readonly validatorNodeIds: readonly string[];
  /** --validator.expect-active: the node's own ID must be an active validator (IDs given explicitly always must). */
  readonly expectActive?: boolean;
  /** Subnets besides the primary network whose validators are watched (CB58 subnet IDs). */
  readonly subnets: readonly string[];
  /** Chains besides P, X and C checked by info-is-bootstrapped (alias or blockchain ID). */
  readonly chains: readonly string[];
}

export interface IndexSpec {
  readonly chain: 'P' | 'C' | 'X';
  readonly kind: 'block' | 'tx' | 'vtx';
}

/** Collector options that apply to every target (from the config). */
export interface CollectorSettings {
  /** --collector.info-peers.per-peer: one avax_peer_info series per peer. */
  readonly infoPeersPerPeer: boolean;
  /** --collector.info-peers.silence-window: a peer is silent when lastReceived is older (seconds). */
  readonly infoPeersSilenceSeconds: number;
  /** Index routes polled by index-last-accepted (default P/block, C/block, X/block). */
  readonly indexes: readonly IndexSpec[];
}

/**
 * Facts about a target shared between its collectors and kept across cycles.
 * Written by one collector, read by others; every reader copes with `undefined`.
 */
export interface TargetMemo {
  /** The node's own NodeID (info.getNodeID); '' on a public server; undefined until known. */
  nodeId?: string;
  /** Unix ms when nodeId was last refreshed. */
  nodeIdAt?: number;
  /** Helicon activation (Unix seconds) from info.upgrades; undefined until known. */
  heliconTime?: number;
  heliconAt?: number;
  /** The node's own version string (info.getNodeVersion), for avax_peers_newer_version_ratio. */
  nodeVersion?: string;
  /** The node's own BLS public key (info.getNodeID nodePOP.publicKey, lower case); '' when it has none. */
  blsPublicKey?: string;
  /**
   * ACP stance of the peers that are validators watched anywhere in the fleet, as this node sees them
   * (info.peers supportedACPs/objectedACPs), by NodeID. Read across targets for avax_acp_node_vote.
   */
  peerAcps?: ReadonlyMap<string, { readonly supported: readonly number[]; readonly objected: readonly number[] }>;
  /** Open ACP numbers from the last info.acps answer (undefined until known). */
  openAcps?: readonly number[];
  /**
   * NodeIDs of the current primary-network validators (platform-validators-full; kept until its next
   * successful run). info-peers counts observedUptime only from peers in this set.
   */
  primaryValidators?: NodeIdSet;
}

export interface CollectorContext {
  readonly target: TargetSpec;
  readonly settings: CollectorSettings;
  readonly client: NodeClient;
  /** Aborted at the collector's deadline or at shutdown; pass it to every client call. */
  readonly signal: AbortSignal;
  /** Wall clock in ms (injectable for golden tests). */
  now(): number;
  /** Per-target facts shared between collectors. */
  readonly memo: TargetMemo;
  /** Per-(target, collector) state kept across runs (e.g. what was already logged). */
  readonly state: Map<string, unknown>;
  /** pino child logger with target and collector bound. One line per state change, never per cycle. */
  readonly log: Logger;
}

/**
 * A collector's outcome. Samples from the calls that succeeded are exported even when another call
 * of the same collector failed; `errors` non-empty means avax_collector_success 0.
 */
export interface CollectResult {
  readonly samples: readonly Sample[];
  readonly errors: readonly Error[];
}

export interface Collector {
  /** Spelled like its file; the `collector` label and the `--collector.NAME` flag. */
  readonly name: string;
  /** One line for the README and landing page. */
  readonly description: string;
  /** What it needs from the node (README column), e.g. `--index-enabled`. */
  readonly needs: string;
  /** Default interval in seconds (a multiple of the base 15 s cycle). */
  readonly defaultIntervalSeconds: number;
  /** Default on? */
  readonly defaultEnabled: boolean;
  /** Skipped on `reference` targets (node-specific APIs). */
  readonly nodeSpecific: boolean;
  /**
   * Requests one run makes (an estimate). The runner uses it to spread collectors with longer
   * intervals over different cycles, so that no cycle bursts; default 1.
   */
  requestsPerRun?(target: TargetSpec, settings: CollectorSettings): number;
  /**
   * Collectors whose facts (TargetMemo) this one reads: when both run in a cycle, this one runs
   * after them, so a fact is never one cycle late (e.g. info-peers after platform-validators-full).
   */
  readonly after?: readonly string[];
  collect(ctx: CollectorContext): Promise<CollectResult>;
}
