// The state of one simulated avalanchego node. Everything is a pure function of (seed, start time,
// clock, scenario history): heights grow with the clock, peers connect and leave in deterministic
// windows, validators' end times are fixed and renew when they pass, uptimes drift smoothly.
// This class holds the state and the scenario; each concern is computed in its own file
// (validator-registry, primary-validator-set, l1-validators, chain-heights, index-containers,
// peers, uptime, acp-tally, future-upgrade-check). Those files declare the narrow interface they
// need of the model (ValidatorRegistryModel, PeersModel, …) and never import this file: NodeModel
// satisfies them structurally, so no import cycle (not even of types) ties them to it.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { acpTally, type AcpTally } from './acp-tally.js';
import { availableDisk } from './disk-space.js';
import { blsPopHex, blsPublicKeyHex, cb58Encode, nodeIdFromBytes } from './avalanche-ids.js';
import { l1ChainCheck } from './blockchains.js';
import { ChainHeights, type BlockRates } from './chain-heights.js';
import { Rng, derivedBytes, h32 } from './deterministic-random.js';
import { futureUpgradeCheck } from './future-upgrade-check.js';
import { rfc3339, rfc3339Nano } from './go-format.js';
import { IndexContainers, type Container } from './index-containers.js';
import { NodeHistory } from './own-history.js';
import { l1BlockId, l1Networking, l1TotalWeight, l1Validators, makeL1Validators, type L1ValidatorDef } from './l1-validators.js';
import type { ChainAlias } from './mainnet-constants.js';
import { SIBLING_KEY_BASE, connectedPeers, ingressConnections, type PeerAttrs, type PeerInfo } from './peers.js';
import { hasValidatorTx, ownRegistration, primaryNetworking, primaryTotalStake, primaryValidatorsJson, type OwnRegistration } from './primary-validator-set.js';
import { scenarioNamed, type Scenario, type ScenarioName } from './scenarios/index.js';
import { nodeUptime, uptimeError } from './uptime.js';
import { makeValidator, stakePositions, type ValidatorDef } from './validator-registry.js';
import { DEFAULT_SIM_VERSION, UNSCHEDULED, VERSION_PROFILES, type SimVersion, type VersionProfile } from './versions.js';

export type { AcpTally, BlockRates, Container, OwnRegistration, PeerInfo };

export interface ModelOptions {
  seed: number;
  validators: number;
  peers: number;
  blockRates: BlockRates;
  now: () => number;
  /**
   * --sybil-protection-enabled (default true, forced on mainnet and Fuji; local and test networks
   * may turn it off). Changes only the info.uptime error of a non-validator (see uptimeError).
   */
  sybilProtection?: boolean;
  /** the avalanchego version this node answers as (versions.ts); default 1.14.2 */
  version?: SimVersion;
  /** seeds the heights and the supply (default `seed`): nodes of one network share it (and their heights) */
  chainSeed?: number;
  /**
   * info.getNetworkID (default 1, mainnet). The nodes of a multi-node simulator are distinct networks
   * (each its own validator set, heights and L1): node 0 is network 1, node i network 1000 + i, so
   * that a client that shares network-wide answers between the nodes of one network does not mix them.
   */
  networkId?: number;
}

/** Per-node memo tables of the concern modules. */
export interface ModelCaches {
  /** AddValidatorTx IDs by "idx/period" */
  txId: Map<string, string>;
  /** non-validator peer IDs by "slot/generation" */
  nvId: Map<string, string>;
  /** seeded peer attributes by NodeID */
  peerAttrs: Map<string, PeerAttrs>;
  /** info.peers of the current second (keyed by scenario, second and siblings' states) */
  peers: { key: string; peers: PeerInfo[] } | null;
  /** the full primary getCurrentValidators of the current second */
  validators: { key: string; json: string } | null;
}

/** Whether a node in scenario `s` has connections to its siblings (and they to it). */
const linksSiblings = (s: Scenario): boolean => s.node?.linkedToSiblings !== false;

export class NodeModel {
  readonly seed: number;
  readonly t0: number; // ms
  readonly t0s: number; // s
  /** When the node's process started (ms, simulator clock): the start, and every restart. */
  processStartMs: number;
  processRestarts = 0; // restarts of the process during the run (node-instance.ts startHealth)
  readonly now: () => number;

  readonly nodeId: string;
  /** The BLS key registered on the P-chain for this node (and held by it, except when re-keyed: bls-mismatch). */
  readonly nodeBlsPub: string;
  readonly nodeBlsPop: string;
  /** The key a re-keyed node holds in bls-mismatch (info.getNodeID), not the registered one. */
  private readonly rekeyedBlsPub: string;
  private readonly rekeyedBlsPop: string;
  readonly nodeIp: string;
  readonly l1SubnetId: string;
  readonly l1ChainId: string;
  readonly networkPeersTarget: number;
  readonly sybilProtection: boolean;
  /** what differs between avalanchego versions (versions.ts) */
  readonly profile: VersionProfile;
  readonly diskTotal: number;

  readonly heights: ChainHeights;
  readonly index: IndexContainers;
  /** the own validator as seeded (see selfNow) */
  readonly self: ValidatorDef;
  /** the other local primary-network validators; the first vpCount are peers */
  readonly others: ValidatorDef[];
  readonly l1: L1ValidatorDef[];
  readonly vpCount: number; // validator peers
  /** seeded stake-weighted order of `others` (validator-registry stakePositions) */
  readonly stakePos: Float64Array;
  readonly nvSlots: number; // non-validator peer slots
  readonly caches: ModelCaches = { txId: new Map(), nvId: new Map(), peerAttrs: new Map(), peers: null, validators: null };
  /** what happened to the node during the run besides its scenario (own-history.ts): kept over switches */
  readonly history = new NodeHistory();

  // scenario state (read through the getters below)
  private current: Scenario<ScenarioName> = scenarioNamed('healthy');
  private sinceMs: number;
  private switchedS: number;
  private selfNowDef: ValidatorDef;
  /** Bumped on every scenario switch; siblings key their caches on it. */
  private stateVersionN = 0;
  /** Other nodes of the same sim process (multi-node mode), see setSiblings(). */
  private siblingList: NodeModel[] = [];

  /** info.getNetworkID and info.getNetworkName of this node. */
  readonly networkId: number;
  readonly networkName: string;

  constructor(opts: ModelOptions) {
    this.networkId = opts.networkId ?? 1;
    this.networkName = this.networkId === 1 ? 'mainnet' : this.networkId === 5 ? 'fuji' : `network-${this.networkId}`;
    this.seed = opts.seed >>> 0;
    this.now = opts.now;
    this.sybilProtection = opts.sybilProtection ?? true;
    this.profile = VERSION_PROFILES[opts.version ?? DEFAULT_SIM_VERSION];
    this.t0 = Math.floor(this.now());
    this.t0s = Math.floor(this.t0 / 1000);
    this.processStartMs = this.t0;
    this.sinceMs = this.t0;
    this.switchedS = this.t0s;
    const rng = new Rng(this.seed);
    // A separate stream, so that the main one (and with it every other value) is unchanged.
    const rekey = new Rng(h32(this.seed, 0xb15));
    this.rekeyedBlsPub = blsPublicKeyHex(rekey);
    this.rekeyedBlsPop = blsPopHex(rekey);

    this.nodeId = nodeIdFromBytes(derivedBytes(`node/${this.seed}`, 20));
    this.nodeBlsPub = blsPublicKeyHex(rng);
    this.nodeBlsPop = blsPopHex(rng);
    this.nodeIp = `198.51.100.${1 + (h32(this.seed, 1) % 254)}:9651`;
    this.l1SubnetId = cb58Encode(derivedBytes(`l1subnet/${this.seed}`, 32));
    this.l1ChainId = cb58Encode(derivedBytes(`l1chain/${this.seed}`, 32));

    // The order of the draws from `rng` fixes every seeded value: validators, then self, then L1.
    const nVal = Math.max(1, Math.floor(opts.validators));
    const nPeers = Math.max(0, Math.floor(opts.peers));
    this.networkPeersTarget = nPeers;
    const others: ValidatorDef[] = [];
    for (let i = 0; i < nVal - 1; i++) others.push(makeValidator(this.seed, this.t0s, i, rng));
    this.others = others;
    this.self = makeValidator(this.seed, this.t0s, -1, rng);
    this.selfNowDef = this.self;
    this.vpCount = Math.min(others.length, nPeers);
    this.nvSlots = Math.max(0, nPeers - this.vpCount) + Math.round(this.vpCount * 0.01);
    this.l1 = makeL1Validators(this.seed, this.t0s, this.nodeId, this.nodeBlsPub, rng);
    this.stakePos = stakePositions(this.seed, others);

    this.heights = new ChainHeights((opts.chainSeed ?? this.seed) >>> 0, this.t0, this.now, opts.blockRates);
    this.index = new IndexContainers(this.seed, this.heights);
    this.diskTotal = 2_000_000_000_000 + (h32(this.seed, 8) % 1000) * 1_000_000_000;
  }

  // -------------------------------------------------------------------------
  // scenario

  get scenario(): ScenarioName {
    return this.current.name;
  }
  /** the active scenario's module: the hooks the concern files consult (scenarios/scenario.ts) */
  get active(): Scenario {
    return this.current;
  }
  /** when the current scenario started (ms) */
  get scenarioSinceMs(): number {
    return this.sinceMs;
  }
  /** Unix second of the last scenario switch: the fixed reference of the time-based scenarios. */
  get switchS(): number {
    return this.switchedS;
  }
  /** the own validator as registered in the current scenario (see effectiveSelf) */
  get selfNow(): ValidatorDef {
    return this.selfNowDef;
  }
  get stateVersion(): number {
    return this.stateVersionN;
  }
  get siblings(): readonly NodeModel[] {
    return this.siblingList;
  }

  setScenario(name: ScenarioName): void {
    if (name === this.current.name) return;
    const next = scenarioNamed(name);
    const now = this.now();
    // Freeze the index when it starts to stall; un-freeze when leaving.
    if (next.index === 'stalled') this.index.stall();
    else this.index.resume();
    // chains slowed from the switch on (consensus stuck, falling behind); leaving catches up
    const progress = next.node?.chainProgress;
    progress ? this.heights.slow(progress.chains, progress.rate, progress.graceMs) : this.heights.resume();
    this.current = next;
    this.sinceMs = now;
    this.switchedS = Math.floor(now / 1000);
    this.selfNowDef = this.effectiveSelf();
    this.stateVersionN++;
    this.caches.peers = null;
    this.caches.validators = null;
  }

  /**
   * The other nodes of the same sim process (multi-node mode). Each one is a validator peer of
   * this node, with its own registration, unless one of the two is cut off (see linkedTo).
   */
  setSiblings(list: readonly NodeModel[]): void {
    this.siblingList = list.filter((m) => m !== this);
    this.caches.peers = null;
    this.caches.validators = null;
  }

  /** What this node's siblings' health checks depend on (link, registration weight, upgrade time). */
  siblingFacingState(): string {
    return `${!linksSiblings(this.current)}/${this.isValidator}/${this.selfNowDef.deleg}/${this.localUpgradeUnix()}`;
  }

  /** Changes whenever a sibling switches scenario, or this node's or a sibling's history changes (part of the cache keys). */
  siblingsKey(): string {
    return `${this.history.version}|${this.siblingList.map((s) => `${s.stateVersion}.${s.history.version}`).join(',')}`;
  }

  /**
   * Whether this node and a sibling are connected. A connection is one TCP link, so it is
   * symmetric: it is gone when either side's scenario cuts it (down, vantage-isolated,
   * unhealthy-network: `node.linkedToSiblings`).
   */
  linkedTo(other: { readonly active: Scenario }): boolean {
    return linksSiblings(this.current) && linksSiblings(other.active);
  }

  /** The peer key of a sibling (for its seeded peer values on this node). */
  siblingKey(sib: { readonly seed: number }): number {
    return SIBLING_KEY_BASE + sib.seed;
  }

  /** The own validator as registered now: the scenario may change its delegation (delegation-full). */
  private effectiveSelf(): ValidatorDef {
    const delegation = this.current.validators?.ownDelegation;
    return delegation ? { ...this.self, ...delegation(this.self) } : this.self;
  }

  get isValidator(): boolean {
    return this.current.node?.validator !== false;
  }

  get bootstrapped(): boolean {
    return this.current.node?.bootstrapped !== false;
  }

  // -------------------------------------------------------------------------
  // keys, upgrades, ACPs (per scenario and version)

  /** info.getNodeID nodePOP: the key the node holds (re-keyed in bls-mismatch). */
  localBls(): { publicKey: string; proofOfPossession: string } {
    if (this.current.node?.blsKey === 'rekeyed') return { publicKey: this.rekeyedBlsPub, proofOfPossession: this.rekeyedBlsPop };
    return { publicKey: this.nodeBlsPub, proofOfPossession: this.nodeBlsPop };
  }

  /**
   * Unix time of this version's next upgrade (v1.14.2 Helicon, v1.13.5 Granite, v1.12.2 Fortuna) in
   * the node's upgrade config, or null when unscheduled (9999-12-01): scheduled in upgrade-pending.
   */
  nextUpgradeUnix(): number | null {
    const at = this.current.node?.nextUpgradeAt;
    return at ? at(this) : null;
  }

  /** info.upgrades value of the next upgrade (`profile.nextUpgrade`: heliconTime on v1.14.2). */
  nextUpgradeTime(): string {
    const h = this.nextUpgradeUnix();
    return h === null ? UNSCHEDULED : rfc3339(h * 1000);
  }

  /**
   * The upgrade time this node announces to peers and compares in its futureupgrade check:
   * Granite for v1.14.2; the next upgrade once its config schedules it (upgrade-pending).
   */
  localUpgradeUnix(): number {
    return this.nextUpgradeUnix() ?? this.profile.currentUpgradeUnix;
  }

  /** constants.CurrentACPs of this node: {176} in v1.13.5, empty in the other versions; {236, 247} in acp-vote. */
  currentAcps(): number[] {
    const acps = this.current.node?.acps;
    return [...(acps ? acps.current : this.profile.currentAcps)];
  }

  /** The stance this node announces to its peers (--acp-support / --acp-object; v1.13.x: its release's ACPs). */
  announcedAcps(): { supported: number[]; objected: number[] } {
    const acps = this.current.node?.acps;
    return acps ? { supported: [...acps.supported], objected: [...acps.objected] } : { supported: [...this.profile.announcedSupport], objected: [] };
  }

  // -------------------------------------------------------------------------
  // the concerns, computed in their own files

  height(chain: ChainAlias | 'L1'): number {
    return this.heights.height(chain);
  }
  /** The L1 chain, when the node runs it (its series in /ext/metrics). */
  l1Running(): { id: string; height: number } | undefined {
    return l1ChainCheck(this) === 'running' ? { id: this.l1ChainId, height: this.height('L1') } : undefined;
  }
  acceptedAtMs(chain: ChainAlias | 'L1', h: number): number {
    return this.heights.acceptedAtMs(chain, h);
  }
  /** the height the network reaches at `ms` (no scenario slowing it) */
  networkHeightAt(chain: ChainAlias | 'L1', ms: number): number {
    return this.heights.networkHeightAt(chain, ms);
  }
  pChainTimeMs(): number {
    return this.heights.pChainTimeMs();
  }
  currentSupply(): bigint {
    return this.heights.currentSupply();
  }
  blockId(chain: ChainAlias, height: number): string {
    return this.index.blockId(chain, height);
  }
  lastIndexed(chain: ChainAlias): Container {
    return this.index.lastIndexed(chain);
  }
  containerByIndex(chain: ChainAlias, index: number): Container | null {
    return this.index.containerByIndex(chain, index);
  }
  lookupContainer(chain: ChainAlias, id: string): Container | null {
    return this.index.lookupContainer(chain, id);
  }
  ownRegistration(nowS: number): OwnRegistration | null {
    return ownRegistration(this, nowS);
  }
  primaryValidatorsJson(nodeIDs: string[] | null): string {
    return primaryValidatorsJson(this, nodeIDs);
  }
  primaryTotalStake(): bigint {
    return primaryTotalStake(this);
  }
  hasTx(txId: string): boolean {
    return hasValidatorTx(this, txId);
  }
  networking(): { percentConnected: number; disconnected: string[] } {
    return primaryNetworking(this);
  }
  l1Validators(nodeIDs: string[] | null): Record<string, unknown>[] {
    return l1Validators(this, nodeIDs);
  }
  l1BlockId(height: number): string {
    return l1BlockId(this, height);
  }
  l1Networking(): { disconnectedValidators: string[]; percentConnected: number } {
    return l1Networking(this);
  }
  l1TotalWeight(): bigint {
    return l1TotalWeight(this);
  }
  uptime(): { rewarding: number; weighted: number } | null {
    return nodeUptime(this);
  }
  uptimeError(): string {
    return uptimeError(this);
  }
  peers(): PeerInfo[] {
    return connectedPeers(this);
  }
  ingressConnections(): number {
    return ingressConnections(this);
  }
  acps(): Record<string, AcpTally> {
    return acpTally(this);
  }
  futureUpgrade(): { message?: Record<string, unknown>; error?: string } {
    return futureUpgradeCheck(this);
  }
  availableDisk(): { bytes: number; percent: number } {
    return availableDisk(this);
  }

  timestampNow(): string {
    return rfc3339Nano(this.now());
  }
}
