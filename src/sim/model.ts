// The state of one simulated avalanchego node. Everything is a pure function of
// (seed, start time, clock, scenario history): heights grow with the clock, peers
// connect and leave in deterministic windows, validators' end times are fixed and
// renew when they pass, uptimes drift smoothly.
import {
  PRIMARY_SUBNET_ID,
  Rng,
  blsPopHex,
  blsPublicKeyHex,
  cb58Encode,
  derivedBytes,
  fixed4,
  goDuration,
  h32,
  hf,
  nodeIdFromBytes,
  pAddress,
  rfc3339,
  rfc3339Nano,
  sha256,
} from './util.js';
import type { ScenarioName } from './scenarios.js';
import {
  DEFAULT_SIM_VERSION,
  GRANITE_UNIX,
  UNSCHEDULED,
  VERSION_PROFILES,
  announcesUpgradeTime,
  releaseSupportedAcps,
  type SimVersion,
  type VersionProfile,
} from './versions.js';

export type ChainAlias = 'P' | 'X' | 'C';
export const CHAINS: readonly ChainAlias[] = ['P', 'X', 'C'];

// Mainnet constants (public facts of avalanchego v1.14.2).
export const P_CHAIN_ID = PRIMARY_SUBNET_ID;
export const X_CHAIN_ID = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
export const C_CHAIN_ID = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const AVAX_ASSET_ID = 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z';
/** platform.getValidatorFeeState price (mainnet minimum), nAVAX per second per L1 validator. */
export const L1_FEE_PRICE = 512;

const DAY = 86400;
const NAVAX = 1_000_000_000n;
/** The own validation is renewed this long before it ends (healthy never shows an expiry within 20 days). */
const SELF_RENEW_BEFORE = 20 * DAY + 3600;
/** The own L1 validator is topped up (by 60 days of fees) before its runway drops below 20 days. */
const L1_MIN_RUNWAY = 20 * DAY;
const L1_TOP_UP = 60 * DAY;
/** Peer keys of sibling nodes (above every validator and non-validator peer key). */
const SIBLING_KEY_BASE = 5_000_000_000;
/** Fixed in every sibling's order after the local validators (ties on end time). */
const SIBLING_ORDER_BASE = 1_000_000_000;
/** Scenarios in which a node has no connection to its siblings (and they none to it). */
const CUT_OFF: ReadonlySet<ScenarioName> = new Set<ScenarioName>(['down', 'vantage-isolated', 'unhealthy-network']);

/** Time after which X/tx and X/vtx stopped growing (Cortina). */
const CORTINA_MS = Date.UTC(2023, 3, 25, 15, 0, 0);
/** This simulated node has had its index enabled since this moment. */
const INDEX_START_MS = Date.UTC(2022, 8, 1, 12, 0, 0);

export interface BlockRates {
  P: number;
  C: number;
  X: number;
}

export interface ModelOptions {
  seed: number;
  validators: number;
  peers: number;
  blockRates: BlockRates;
  now: () => number;
  /**
   * --sybil-protection-enabled (default true, forced on mainnet and Fuji; local and test networks
   * may turn it off). Changes only the info.uptime error text of a non-validator (see uptimeError).
   */
  sybilProtection?: boolean;
  /** the avalanchego version this node answers as (versions.ts); default 1.14.2 */
  version?: SimVersion;
}

interface ValidatorDef {
  idx: number; // -1 = this node
  nodeId: string;
  own: bigint; // nAVAX
  deleg: bigint; // nAVAX
  delegatorCount: number;
  fee: number; // percent
  end0: number; // unix s, end of period 0
  dur: number; // seconds
  blsPub: string;
  blsPop: string;
  rewardAddr: string;
  delegRewardAddr: string;
  uptimeBase: number;
  uptimePhase: number;
  peerCandidate: boolean;
}

interface L1ValidatorDef {
  nodeId: string;
  weight: number;
  startTime: number;
  validationID: string;
  publicKey: string;
  remainingOwner: string;
  deactivationOwner: string;
  minNonce: number;
  initialBalance: bigint; // nAVAX at t0
  self: boolean;
}

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
  trackedSubnets: string[];
  supportedACPs: number[];
  objectedACPs: number[];
  benched: string[];
}

interface PeerAttrs {
  ip: string;
  publicIP: string;
  version: string;
  upgradeTime: number;
  trackedSubnets: string[];
  supportedACPs: number[];
  objectedACPs: number[];
  key: number;
}

/** One primary-network validator as this node's P-chain state has it (local validators and siblings). */
interface PrimaryEntry {
  nodeId: string;
  end: number;
  order: number;
  weight: bigint; // own + delegated (the validator manager's weight)
  connected: boolean;
  self: boolean;
  /** peer key for observedUptime (how that validator sees this node); null for the node itself */
  key: number | null;
  txID: () => string;
  json: (withDelegators: boolean) => Record<string, unknown>;
}

/** This node's own registration, as every node of the network has it (see NodeModel.ownRegistration). */
export interface OwnRegistration {
  nodeId: string;
  end: number;
  weight: bigint;
  txID: string;
  json: (withDelegators: boolean) => Record<string, unknown>;
}

export interface AcpTally {
  supportWeight: string;
  supporters: string[];
  objectWeight: string;
  objectors: string[];
  abstainWeight: string;
}

export interface Container {
  id: string;
  bytes: Buffer;
  timestampMs: number;
  timestampNs: number;
  index: number;
}

/** Go's set.Set marshalling: elements sorted by their JSON bytes. */
function sortByJson<T>(arr: T[]): T[] {
  return arr
    .map((v) => [JSON.stringify(v), v] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((x) => x[1]);
}

export class NodeModel {
  readonly seed: number;
  readonly t0: number; // ms
  readonly t0s: number; // s
  readonly now: () => number;
  readonly rates: BlockRates;

  readonly nodeId: string;
  /** The BLS key registered on the P-chain for this node (and held by it, except in bls-mismatch). */
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

  private readonly self: ValidatorDef;
  /** `self` as registered in the current scenario (effectiveSelf) */
  private selfNow: ValidatorDef;
  private readonly others: ValidatorDef[];
  private readonly l1: L1ValidatorDef[];
  private readonly vpCount: number; // validator peers
  private readonly stakePos: Float64Array;
  private readonly nvSlots: number; // non-validator peer slots
  private readonly baseHeight: Record<ChainAlias | 'L1', number>;
  private readonly lastHeight: Record<ChainAlias | 'L1', number>;
  private readonly supplyBase: bigint;
  readonly diskTotal: number;
  readonly frozen: { tx: { index: number; ms: number; ns: number }; vtx: { index: number; ms: number; ns: number } };

  // scenario state
  private scenarioName: ScenarioName = 'healthy';
  private scenarioSinceMs: number;
  private stalled: Partial<Record<ChainAlias, number>> = {};
  private expiringEnd: number | null = null;
  /** Unix second of the last scenario switch: the fixed reference of the time-based scenarios. */
  private switchS: number;
  /** Bumped on every scenario switch; siblings key their caches on it. */
  private stateVersion = 0;
  /** Other nodes of the same sim process (multi-node mode), see setSiblings(). */
  private siblings: NodeModel[] = [];

  // caches
  private readonly txIdCache = new Map<string, string>();
  private readonly nvIdCache = new Map<string, string>();
  private readonly containerCache = new Map<string, Container>();
  private readonly idToContainer = new Map<string, { chain: ChainAlias; height: number }>();
  private peersCache: { key: string; peers: PeerInfo[] } | null = null;
  private validatorsCache: { key: string; json: string } | null = null;

  constructor(opts: ModelOptions) {
    this.seed = opts.seed >>> 0;
    this.now = opts.now;
    this.rates = opts.blockRates;
    this.sybilProtection = opts.sybilProtection ?? true;
    this.profile = VERSION_PROFILES[opts.version ?? DEFAULT_SIM_VERSION];
    this.t0 = Math.floor(this.now());
    this.t0s = Math.floor(this.t0 / 1000);
    this.scenarioSinceMs = this.t0;
    this.switchS = this.t0s;
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

    const nVal = Math.max(1, Math.floor(opts.validators));
    const nPeers = Math.max(0, Math.floor(opts.peers));
    this.networkPeersTarget = nPeers;
    const others: ValidatorDef[] = [];
    for (let i = 0; i < nVal - 1; i++) others.push(this.makeValidator(i, rng));
    this.others = others;
    this.self = this.makeValidator(-1, rng);
    this.selfNow = this.self;
    this.vpCount = Math.min(others.length, nPeers);
    this.nvSlots = Math.max(0, nPeers - this.vpCount) + Math.round(this.vpCount * 0.01);

    this.l1 = this.makeL1(rng);

    // Position of each validator in a seeded stake-weighted order (0..1), used to pick
    // which share of the stake sees this node above the uptime requirement.
    const order = others.map((v) => v.idx).sort((a, b) => h32(this.seed, a, 55) - h32(this.seed, b, 55));
    const total = Number(this.totalWeight(others)) || 1;
    this.stakePos = new Float64Array(others.length);
    let cum = 0;
    for (const i of order) {
      const v = others[i] as ValidatorDef;
      const w = Number(v.own + v.deleg);
      this.stakePos[i] = (cum + w / 2) / total;
      cum += w;
    }

    this.baseHeight = {
      P: 23_961_402 + (h32(this.seed, 2) % 200_000),
      C: 71_284_913 + (h32(this.seed, 3) % 500_000),
      X: 517_990 + (h32(this.seed, 4) % 50_000),
      L1: 1_204_551 + (h32(this.seed, 5) % 100_000),
    };
    this.lastHeight = { ...this.baseHeight };
    this.supplyBase = 468_000_000n * NAVAX + BigInt(h32(this.seed, 6) % 5_000_000) * NAVAX + BigInt(h32(this.seed, 7));
    this.diskTotal = 2_000_000_000_000 + (h32(this.seed, 8) % 1000) * 1_000_000_000;
    this.frozen = {
      tx: { index: 5_232_391 + (h32(this.seed, 9) % 10_000), ms: CORTINA_MS - 60_000 - (h32(this.seed, 10) % 600_000), ns: h32(this.seed, 11) % 1_000_000 },
      vtx: { index: 3_203_412 + (h32(this.seed, 12) % 10_000), ms: CORTINA_MS - 120_000 - (h32(this.seed, 13) % 600_000), ns: h32(this.seed, 14) % 1_000_000 },
    };
  }

  private makeValidator(idx: number, rng: Rng): ValidatorDef {
    const t0s = this.t0s;
    const ownAvax = Math.min(2_900_000, Math.round(2000 * Math.exp(rng.next() * 5.2)));
    const own = BigInt(ownAvax) * NAVAX + BigInt(Math.floor(rng.next() * 1e9));
    const maxDeleg = Math.min(4 * ownAvax, 3_000_000 - ownAvax);
    const delegFrac = rng.next() < 0.35 ? 0 : rng.next() ** 2;
    const delegAvax = Math.floor(maxDeleg * delegFrac);
    const delegatorCount = delegAvax === 0 ? 0 : Math.max(1, Math.min(400, Math.round(delegAvax / (2000 + rng.next() * 20000))));
    const delegRaw = delegatorCount === 0 ? 0n : BigInt(delegAvax) * NAVAX + BigInt(Math.floor(rng.next() * 1e9));
    const feeRoll = rng.next();
    const fee = feeRoll < 0.7 ? 2 : feeRoll < 0.8 ? 3 : feeRoll < 0.88 ? 5 : feeRoll < 0.93 ? 10 : feeRoll < 0.97 ? 4.5 : 20;
    let end0: number;
    let dur: number;
    if (idx === -1) {
      end0 = t0s + 20 * DAY + Math.floor(rng.next() * 180 * DAY);
      dur = Math.min(365 * DAY, end0 - t0s + 14 * DAY + Math.floor(rng.next() * 150 * DAY));
    } else {
      end0 = t0s + 3600 + Math.floor(rng.next() * 364 * DAY);
      dur = Math.max(end0 - t0s + DAY, 14 * DAY + Math.floor(rng.next() * 351 * DAY));
      dur = Math.min(dur, 365 * DAY);
      if (dur <= end0 - t0s) dur = end0 - t0s + 3600;
    }
    // The own validator always has delegation capacity left in healthy (at most 90 % of 4 x own).
    const deleg = idx === -1 && delegRaw > (own * 36n) / 10n ? (own * 36n) / 10n : delegRaw;
    const nodeIdBytes = idx === -1 ? derivedBytes(`node/${this.seed}`, 20) : derivedBytes(`val/${this.seed}/${idx}`, 20);
    const uptimeRoll = rng.next();
    return {
      idx,
      nodeId: nodeIdFromBytes(nodeIdBytes),
      own,
      deleg,
      delegatorCount,
      fee,
      end0,
      dur,
      blsPub: idx === -1 ? '' : blsPublicKeyHex(rng),
      blsPop: idx === -1 ? '' : blsPopHex(rng),
      rewardAddr: pAddress(rng.bytes(20)),
      delegRewardAddr: pAddress(rng.bytes(20)),
      uptimeBase: uptimeRoll < 0.9 ? 97 + rng.next() * 2.9 : uptimeRoll < 0.97 ? 85 + rng.next() * 12 : 55 + rng.next() * 30,
      uptimePhase: rng.next() * Math.PI * 2,
      peerCandidate: true,
    };
  }

  private makeL1(rng: Rng): L1ValidatorDef[] {
    const out: L1ValidatorDef[] = [];
    const n = 7;
    for (let i = 0; i < n; i++) {
      const self = i === 2;
      const runwayDays = self ? 45 + rng.next() * 75 : 5 + rng.next() * 200;
      const inactive = i === n - 1;
      const owner = pAddress(rng.bytes(20));
      out.push({
        nodeId: self ? this.nodeId : nodeIdFromBytes(derivedBytes(`l1val/${this.seed}/${i}`, 20)),
        weight: self ? 100 : [20, 50, 100, 100, 200, 20, 10][i] ?? 20,
        startTime: this.t0s - 10 * DAY - Math.floor(rng.next() * 200 * DAY),
        validationID: cb58Encode(derivedBytes(`l1vid/${this.seed}/${i}`, 32)),
        publicKey: self ? this.nodeBlsPub : blsPublicKeyHex(rng),
        remainingOwner: owner,
        deactivationOwner: owner,
        minNonce: Math.floor(rng.next() * 3),
        initialBalance: inactive ? 0n : BigInt(Math.floor(512 * DAY * runwayDays)),
        self,
      });
    }
    return out;
  }

  // -------------------------------------------------------------------------
  // scenario

  get scenario(): ScenarioName {
    return this.scenarioName;
  }

  setScenario(name: ScenarioName): void {
    if (name === this.scenarioName) return;
    const now = this.now();
    // Freeze the index when it starts to stall; un-freeze when leaving.
    if (name === 'index-stalled') {
      for (const c of CHAINS) this.stalled[c] = this.height(c);
    } else {
      this.stalled = {};
    }
    if (name === 'validator-expiring') {
      // Fixed end timestamp ~30 h ahead, chosen when the scenario starts.
      this.expiringEnd = Math.floor(now / 1000) + 30 * 3600 - (h32(this.seed, 77) % 3600);
    } else {
      this.expiringEnd = null;
    }
    this.scenarioName = name;
    this.scenarioSinceMs = now;
    this.switchS = Math.floor(now / 1000);
    this.selfNow = this.effectiveSelf();
    this.stateVersion++;
    this.peersCache = null;
    this.validatorsCache = null;
  }

  /**
   * The other nodes of the same sim process (multi-node mode). Each one is a validator peer of
   * this node, with its own registration, unless one of the two is cut off (see linkedTo).
   */
  setSiblings(list: readonly NodeModel[]): void {
    this.siblings = list.filter((m) => m !== this);
    this.peersCache = null;
    this.validatorsCache = null;
  }

  /** What this node's siblings' health checks depend on (link, registration weight, upgrade time). */
  siblingFacingState(): string {
    return `${CUT_OFF.has(this.scenarioName)}/${this.isValidator}/${this.selfNow.deleg}/${this.localUpgradeUnix()}`;
  }

  /** Changes whenever a sibling switches scenario (part of the cache keys). */
  private siblingsKey(): string {
    return this.siblings.map((s) => s.stateVersion).join('.');
  }

  /**
   * Whether this node and a sibling are connected. A connection is one TCP link, so it is
   * symmetric: it is gone when either side is down, vantage-isolated or in unhealthy-network
   * (3 peers only).
   */
  private linkedTo(other: NodeModel): boolean {
    return !CUT_OFF.has(this.scenarioName) && !CUT_OFF.has(other.scenarioName);
  }

  private siblingKey(sib: NodeModel): number {
    return SIBLING_KEY_BASE + sib.seed;
  }

  /** The own validator as registered now: delegation-full fills its delegation capacity. */
  private effectiveSelf(): ValidatorDef {
    if (this.scenarioName !== 'delegation-full') return this.self;
    // min(5 x own, 3,000,000 AVAX) - own - delegations = 0: own stake is at most ~362,000 AVAX
    // (see makeValidator), so the 3,000,000 AVAX cap never bites and delegations = 4 x own.
    return { ...this.self, deleg: this.self.own * 4n, delegatorCount: Math.max(150, this.self.delegatorCount) };
  }

  // -------------------------------------------------------------------------
  // keys, upgrades, ACPs (per scenario)

  /** info.getNodeID nodePOP: the key the node holds (re-keyed in bls-mismatch). */
  localBls(): { publicKey: string; proofOfPossession: string } {
    if (this.scenarioName === 'bls-mismatch') return { publicKey: this.rekeyedBlsPub, proofOfPossession: this.rekeyedBlsPop };
    return { publicKey: this.nodeBlsPub, proofOfPossession: this.nodeBlsPop };
  }

  /** The `bls` health check (node/node.go wrongBLSKeyCheck). */
  blsCheck(): { message?: string; error?: string } {
    if (!this.isValidator) return { message: 'node is not a validator' };
    const local = this.localBls().publicKey;
    if (local !== this.nodeBlsPub) {
      // Go returns (nil, err): no message.
      return { error: `node has BLS key ${local}, but is registered to the validator set with ${this.nodeBlsPub}` };
    }
    return { message: 'node has the correct BLS key' };
  }

  /**
   * Unix time of this version's next upgrade (Helicon for v1.14.2, Granite for v1.13.5) in the
   * node's upgrade config, or null when unscheduled (9999-12-01): scheduled in upgrade-pending.
   */
  nextUpgradeUnix(): number | null {
    return this.scenarioName === 'upgrade-pending' ? this.switchS + 3 * DAY : null;
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

  /** constants.CurrentACPs of this node: empty in v1.14.2, {176} in v1.13.5; {236, 247} in acp-vote. */
  currentAcps(): number[] {
    return this.scenarioName === 'acp-vote' ? [236, 247] : [...this.profile.currentAcps];
  }

  /** The stance this node announces to its peers (--acp-support / --acp-object; v1.13.x: its release's ACPs). */
  announcedAcps(): { supported: number[]; objected: number[] } {
    return this.scenarioName === 'acp-vote'
      ? { supported: [247], objected: [236] }
      : { supported: [...this.profile.announcedSupport], objected: [] };
  }

  get isValidator(): boolean {
    return this.scenarioName !== 'not-a-validator';
  }

  get bootstrapped(): boolean {
    return this.scenarioName !== 'bootstrapping';
  }

  // -------------------------------------------------------------------------
  // heights and containers

  private rate(chain: ChainAlias | 'L1'): number {
    const r = chain === 'L1' ? this.rates.C * 0.5 : this.rates[chain];
    return Number.isFinite(r) && r > 0 ? r : 0;
  }

  /** Height of the last accepted block; grows with the clock, never decreases. */
  height(chain: ChainAlias | 'L1'): number {
    const elapsed = Math.max(0, this.now() - this.t0);
    const h = this.baseHeight[chain] + Math.floor((elapsed * this.rate(chain)) / 1000);
    if (h > this.lastHeight[chain]) this.lastHeight[chain] = h;
    return this.lastHeight[chain];
  }

  /** When this node accepted block `h` (ms). */
  acceptedAtMs(chain: ChainAlias | 'L1', h: number): number {
    const r = this.rate(chain);
    const base = this.baseHeight[chain];
    if (r === 0) return this.t0;
    return Math.max(INDEX_START_MS, this.t0 + Math.floor(((h - base) * 1000) / r));
  }

  /** P-chain time (1 s precision): time of the last accepted P block. */
  pChainTimeMs(): number {
    const ms = this.acceptedAtMs('P', this.height('P'));
    return Math.floor(Math.min(ms, this.now()) / 1000) * 1000;
  }

  private indexOffset(chain: ChainAlias): number {
    // Relation between index and height is unverified on real nodes; keep them different.
    return chain === 'X' ? 0 : 1;
  }

  containerAt(chain: ChainAlias, height: number): Container {
    const key = `${chain}/${height}`;
    const hit = this.containerCache.get(key);
    if (hit) return hit;
    const acceptedMs = this.acceptedAtMs(chain, height);
    const size = chain === 'C' ? 700 + (h32(this.seed, height, 21) % 1500) : 180 + (h32(this.seed, height, 22) % 400);
    const bytes = Buffer.alloc(size);
    // proposervm-like header: codec version, type, parent id, timestamp, P-chain height
    bytes.writeUInt16BE(0, 0);
    bytes.writeUInt32BE(chain === 'P' ? 0 : 1, 2);
    derivedBytes(`blk/${this.seed}/${chain}/${height - 1}`, 32).copy(bytes, 6);
    bytes.writeBigUInt64BE(BigInt(Math.floor(acceptedMs / 1000)), 38);
    bytes.writeBigUInt64BE(BigInt(height), 46);
    derivedBytes(`body/${this.seed}/${chain}/${height}`, size - 54).copy(bytes, 54);
    const id = cb58Encode(sha256(bytes));
    const c: Container = {
      id,
      bytes,
      timestampMs: acceptedMs + 3 + (h32(this.seed, height, 23) % 60),
      timestampNs: h32(this.seed, height, 24) % 1_000_000,
      index: height - this.indexOffset(chain),
    };
    if (this.containerCache.size > 5000) this.containerCache.clear();
    if (this.idToContainer.size > 50000) this.idToContainer.clear();
    this.containerCache.set(key, c);
    this.idToContainer.set(id, { chain, height });
    return c;
  }

  blockId(chain: ChainAlias, height: number): string {
    return this.containerAt(chain, height).id;
  }

  /** Last accepted container of the block index (frozen in index-stalled). */
  lastIndexed(chain: ChainAlias): Container {
    const h = this.stalled[chain] ?? this.height(chain);
    return this.containerAt(chain, h);
  }

  containerByIndex(chain: ChainAlias, index: number): Container | null {
    const last = this.lastIndexed(chain);
    if (index < 0 || index > last.index) return null;
    return this.containerAt(chain, index + this.indexOffset(chain));
  }

  /** Looks up a container id among the ones served so far. */
  lookupContainer(chain: ChainAlias, id: string): Container | null {
    const ref = this.idToContainer.get(id);
    if (!ref || ref.chain !== chain) return null;
    const last = this.lastIndexed(chain);
    const c = this.containerAt(chain, ref.height);
    return c.index <= last.index ? c : null;
  }

  // -------------------------------------------------------------------------
  // validators

  private period(v: ValidatorDef, nowS: number): { k: number; start: number; end: number } {
    if (v.idx === -1 && this.expiringEnd !== null) {
      const p = this.basePeriod(v, nowS);
      return { k: p.k, start: Math.min(p.start, this.expiringEnd - 14 * DAY), end: this.expiringEnd };
    }
    if (v.idx === -1 && this.scenarioName === 'rewards-lost') {
      // 24 of 30 days done at ~60 %: at best 0.6 x 0.8 + 0.2 = 0.68 < 0.8 by the end.
      const p = this.basePeriod(v, nowS);
      return { k: p.k, start: this.switchS - 24 * DAY, end: this.switchS + 6 * DAY };
    }
    return this.basePeriod(v, nowS);
  }

  private basePeriod(v: ValidatorDef, nowS: number): { k: number; start: number; end: number } {
    if (v.idx === -1) {
      // The own validation is renewed SELF_RENEW_BEFORE ahead of its end (a simulation shortcut:
      // a healthy node never shows an expiry within 20 days, however long the run).
      const renewAt = v.end0 - SELF_RENEW_BEFORE;
      if (nowS < renewAt) return { k: 0, start: v.end0 - v.dur, end: v.end0 };
      const step = v.dur - SELF_RENEW_BEFORE; // > 13 days: dur >= end0 - t0 + 14 days >= 34 days
      const k = Math.floor((nowS - renewAt) / step) + 1;
      const start = renewAt + (k - 1) * step;
      return { k, start, end: start + v.dur };
    }
    if (nowS < v.end0) return { k: 0, start: v.end0 - v.dur, end: v.end0 };
    const k = Math.floor((nowS - v.end0) / v.dur) + 1;
    const start = v.end0 + (k - 1) * v.dur;
    return { k, start, end: start + v.dur };
  }

  private txId(v: ValidatorDef, k: number): string {
    const key = `${v.idx}/${k}`;
    let id = this.txIdCache.get(key);
    if (!id) {
      id = cb58Encode(derivedBytes(`addval/${this.seed}/${v.idx}/${k}`, 32));
      this.txIdCache.set(key, id);
    }
    return id;
  }

  /** Whether validator `v` (another node) is currently connected to this node. */
  private validatorConnected(v: ValidatorDef, nowS: number): boolean {
    if (v.idx === -1) return true;
    if (v.idx >= this.vpCount) return false;
    if (this.scenarioName === 'unhealthy-network') return v.idx < 3;
    // 60 s windows, ~1 % of validators disconnected in each: ~2 % of the peer set
    // changes every minute (plus the short-lived non-validator peers).
    const W = 60;
    const phase = h32(this.seed, v.idx, 31) % W;
    const win = Math.floor((nowS + phase) / W);
    return hf(this.seed, v.idx, win, 32) >= 0.01;
  }

  private localUptime(v: ValidatorDef, nowS: number, connected: boolean): number {
    if (v.idx === -1) return 100;
    const drift = 0.6 * Math.sin(nowS / 5400 + v.uptimePhase);
    let u = v.uptimeBase + drift - (connected ? 0 : 0.8);
    if (u > 100) u = 100;
    if (u < 0) u = 0;
    return u;
  }

  /** Local validators in the current set, sorted like the staker iterator (end time, then tx id). */
  private currentValidators(nowS: number): ValidatorDef[] {
    const list = this.isValidator ? [...this.others, this.selfNow] : [...this.others];
    const withEnd = list.map((v) => ({ v, end: this.period(v, nowS).end }));
    withEnd.sort((a, b) => a.end - b.end || a.v.idx - b.v.idx);
    return withEnd.map((x) => x.v);
  }

  private totalWeight(list: ValidatorDef[]): bigint {
    let t = 0n;
    for (const v of list) t += v.own + v.deleg;
    return t;
  }

  private validatorJson(v: ValidatorDef, nowS: number, withDelegators: boolean): Record<string, unknown> {
    const p = this.period(v, nowS);
    let connected = this.validatorConnected(v, nowS);
    // A real node always counts itself as connected. The 'validator-disconnected'
    // scenario shows the own entry as connected:false anyway, i.e. the answer an
    // operator sees from the network's point of view (another node's API, or this
    // node's view once the network drops it): that is the condition the exporter's
    // avax_validator_connected alert must catch.
    if (v.idx === -1 && this.scenarioName === 'validator-disconnected') connected = false;
    const durFrac = BigInt(Math.round(((0.072 * (p.end - p.start)) / (365 * DAY)) * 1e6));
    const potentialReward = (v.own * durFrac) / 1_000_000n;
    const elapsed = Math.max(0, Math.min(nowS, p.end) - p.start);
    const accFrac = BigInt(Math.round(((0.072 * elapsed) / (365 * DAY)) * (v.fee / 100) * 1e6));
    const accrued = (v.deleg * accFrac) / 1_000_000n;
    const blsPub = v.idx === -1 ? this.nodeBlsPub : v.blsPub;
    const blsPop = v.idx === -1 ? this.nodeBlsPop : v.blsPop;
    const out: Record<string, unknown> = {
      txID: this.txId(v, p.k),
      startTime: String(p.start),
      endTime: String(p.end),
      weight: v.own.toString(),
      nodeID: v.nodeId,
      validationRewardOwner: { locktime: '0', threshold: '1', addresses: [v.rewardAddr] },
      delegationRewardOwner: { locktime: '0', threshold: '1', addresses: [v.delegRewardAddr] },
      potentialReward: potentialReward.toString(),
      accruedDelegateeReward: accrued.toString(),
      delegationFee: fixed4(v.fee),
      uptime: fixed4(Math.round(this.localUptime(v, nowS, connected) * 10000) / 10000),
      connected,
      signer: { publicKey: blsPub, proofOfPossession: blsPop },
      delegatorCount: String(v.delegatorCount),
      delegatorWeight: v.deleg.toString(),
    };
    if (withDelegators) out['delegators'] = this.delegators(v, p);
    return out;
  }

  private delegators(v: ValidatorDef, p: { k: number; start: number; end: number }): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const n = v.delegatorCount;
    if (n === 0) return out;
    const rng = new Rng(h32(this.seed, v.idx, p.k, 41));
    let remaining = v.deleg;
    for (let i = 0; i < n; i++) {
      const share = i === n - 1 ? remaining : (v.deleg / BigInt(n)) * BigInt(50 + Math.floor(rng.next() * 100)) / 100n;
      const w = share > remaining ? remaining : share;
      remaining -= w;
      const start = p.start + Math.floor(rng.next() * Math.max(1, p.end - p.start - 14 * DAY));
      const end = Math.min(p.end, start + 14 * DAY + Math.floor(rng.next() * 200 * DAY));
      const reward = (w * BigInt(Math.round(((0.072 * (end - start)) / (365 * DAY)) * (1 - v.fee / 100) * 1e6))) / 1_000_000n;
      out.push({
        txID: cb58Encode(derivedBytes(`deleg/${this.seed}/${v.idx}/${p.k}/${i}`, 32)),
        startTime: String(start),
        endTime: String(end),
        weight: w.toString(),
        nodeID: v.nodeId,
        rewardOwner: { locktime: '0', threshold: '1', addresses: [pAddress(rng.bytes(20))] },
        potentialReward: reward.toString(),
      });
    }
    return out;
  }

  /**
   * This node's own primary-network registration as the P-chain has it, the same on every node
   * (txID, times, weights, delegations, signer); connected/uptime are each observer's own view.
   */
  ownRegistration(nowS: number): OwnRegistration | null {
    if (!this.isValidator) return null;
    const v = this.selfNow;
    const p = this.period(v, nowS);
    return { nodeId: v.nodeId, end: p.end, weight: v.own + v.deleg, txID: this.txId(v, p.k), json: (d) => this.validatorJson(v, nowS, d) };
  }

  /** How this node sees a sibling validator's uptime (getCurrentValidators `uptime`). */
  private siblingUptime(sib: NodeModel, nowS: number, linked: boolean): number {
    const r = hf(this.seed, sib.seed, 34);
    const drift = 0.4 * Math.sin(nowS / 5400 + r * 6.28);
    const u = linked ? 99.2 + r * 0.6 + drift : 31 + r * 8 + drift * 5;
    return Math.round(Math.max(0, Math.min(100, u)) * 10000) / 10000;
  }

  /** The primary-network validator set: local validators plus sibling nodes, in staker order. */
  private primaryEntries(nowS: number): PrimaryEntry[] {
    const out: PrimaryEntry[] = this.currentValidators(nowS).map((v) => ({
      nodeId: v.nodeId,
      end: this.period(v, nowS).end,
      order: v.idx,
      weight: v.own + v.deleg,
      connected: this.validatorConnected(v, nowS),
      self: v.idx === -1,
      key: v.idx === -1 ? null : v.idx + 1,
      txID: () => this.txId(v, this.period(v, nowS).k),
      json: (d: boolean) => this.validatorJson(v, nowS, d),
    }));
    if (this.siblings.length === 0) return out;
    for (const sib of this.siblings) {
      const reg = sib.ownRegistration(nowS);
      if (!reg) continue;
      const linked = this.linkedTo(sib);
      out.push({
        nodeId: reg.nodeId,
        end: reg.end,
        order: SIBLING_ORDER_BASE + sib.seed,
        weight: reg.weight,
        connected: linked,
        self: false,
        key: this.siblingKey(sib),
        txID: () => reg.txID,
        json: (d: boolean) => {
          const j = reg.json(d);
          j['connected'] = linked;
          j['uptime'] = fixed4(this.siblingUptime(sib, nowS, linked));
          return j;
        },
      });
    }
    out.sort((a, b) => a.end - b.end || a.order - b.order);
    return out;
  }

  /** platform.getCurrentValidators for the primary network, serialized (cached per second). */
  primaryValidatorsJson(nodeIDs: string[] | null): string {
    const nowS = Math.floor(this.now() / 1000);
    if (nodeIDs === null) {
      const key = `${this.scenarioName}/${nowS}/${this.siblingsKey()}`;
      if (this.validatorsCache?.key === key) return this.validatorsCache.json;
      const list = this.primaryEntries(nowS).map((e) => e.json(false));
      const json = JSON.stringify({ validators: list });
      this.validatorsCache = { key, json };
      return json;
    }
    const want = new Set(nodeIDs);
    const single = nodeIDs.length === 1;
    const list = this.primaryEntries(nowS)
      .filter((e) => want.has(e.nodeId))
      .map((e) => e.json(single));
    return JSON.stringify({ validators: list });
  }

  l1Validators(nodeIDs: string[] | null): Record<string, unknown>[] {
    const nowS = Math.floor(this.now() / 1000);
    const elapsed = Math.max(0, nowS - this.t0s);
    const want = nodeIDs ? new Set(nodeIDs) : null;
    const out: Record<string, unknown>[] = [];
    for (const v of this.l1) {
      if (v.self && !this.isValidator) continue;
      if (want && !want.has(v.nodeId)) continue;
      let bal = v.self ? this.ownL1Balance(v, nowS, elapsed) : v.initialBalance - BigInt(L1_FEE_PRICE) * BigInt(elapsed);
      if (bal < 0n) bal = 0n;
      out.push({
        nodeID: v.nodeId,
        weight: String(v.weight),
        startTime: String(v.startTime),
        validationID: v.validationID,
        publicKey: v.publicKey,
        remainingBalanceOwner: { locktime: '0', threshold: '1', addresses: [v.remainingOwner] },
        deactivationOwner: { locktime: '0', threshold: '1', addresses: [v.deactivationOwner] },
        minNonce: String(v.minNonce),
        balance: bal.toString(),
      });
    }
    return out;
  }

  /** The own L1 validator's balance (nAVAX); fees drain L1_FEE_PRICE per second. */
  private ownL1Balance(v: L1ValidatorDef, nowS: number, elapsed: number): bigint {
    const price = BigInt(L1_FEE_PRICE);
    switch (this.scenarioName) {
      case 'l1-inactive':
        return 0n; // inactive validators are listed with "balance":"0"
      case 'l1-fee-low':
        // 20 h of fees at the switch, draining since (inactive once it reaches 0).
        return price * BigInt(20 * 3600 - Math.max(0, nowS - this.switchS));
      default: {
        let bal = v.initialBalance - price * BigInt(elapsed);
        // Topped up by 60 days of fees before the runway drops below 20 days.
        const min = price * BigInt(L1_MIN_RUNWAY);
        if (bal < min) {
          const top = price * BigInt(L1_TOP_UP);
          bal += ((min - bal + top - 1n) / top) * top;
        }
        return bal;
      }
    }
  }

  l1BlockId(height: number): string {
    return cb58Encode(derivedBytes(`l1blk/${this.seed}/${height}`, 32));
  }

  /** Chain-health networking of the L1 chain (active L1 validators only). */
  l1Networking(): { disconnectedValidators: string[]; percentConnected: number } {
    let total = 0;
    let connected = 0;
    const disconnected: string[] = [];
    for (const v of this.l1Validators(null)) {
      if (v['balance'] === '0') continue; // inactive: not in the active set
      const w = Number(v['weight']);
      total += w;
      const self = v['nodeID'] === this.nodeId;
      if (self || this.scenarioName !== 'unhealthy-network') connected += w;
      else disconnected.push(v['nodeID'] as string);
    }
    return { disconnectedValidators: sortByJson(disconnected), percentConnected: total === 0 ? 1 : connected / total };
  }

  l1TotalWeight(): bigint {
    let t = 0n;
    for (const v of this.l1Validators(null)) t += BigInt(v['weight'] as string);
    return t;
  }

  primaryTotalStake(): bigint {
    let t = 0n;
    for (const e of this.primaryEntries(Math.floor(this.now() / 1000))) t += e.weight;
    return t;
  }

  currentSupply(): bigint {
    const h = this.height('P');
    return this.supplyBase + BigInt(h - this.baseHeight.P) * 1_137_000_000n;
  }

  hasTx(txId: string): boolean {
    const nowS = Math.floor(this.now() / 1000);
    for (const e of this.primaryEntries(nowS)) if (e.txID() === txId) return true;
    return false;
  }

  // -------------------------------------------------------------------------
  // connectivity (health networking, info.uptime)

  /** Fraction of primary-network stake this node is connected to, and the disconnected validators. */
  networking(): { percentConnected: number; disconnected: string[] } {
    const nowS = Math.floor(this.now() / 1000);
    let total = 0n;
    let connected = 0n;
    const disconnected: string[] = [];
    for (const e of this.primaryEntries(nowS)) {
      total += e.weight;
      if (e.connected) connected += e.weight;
      else disconnected.push(e.nodeId);
    }
    const pct = total === 0n ? 1 : Number((connected * 1_000_000_000n) / total) / 1e9;
    return { percentConnected: pct, disconnected: sortByJson(disconnected) };
  }

  /** info.uptime as avalanchego computes it from its peers' observed uptimes. */
  uptime(): { rewarding: number; weighted: number } | null {
    if (!this.isValidator) return null;
    const nowS = Math.floor(this.now() / 1000);
    const list = this.primaryEntries(nowS);
    let totalW = 0n;
    for (const e of list) totalW += e.weight;
    const total = Number(totalW);
    const my = Number(this.selfNow.own + this.selfNow.deleg);
    let weighted = 100 * my;
    let rewarding = my;
    for (const e of list) {
      if (e.self || !e.connected || e.key === null) continue;
      const w = Number(e.weight);
      const obs = this.observedUptime(e.key, nowS);
      weighted += obs * w;
      if (obs / 100 >= 0.8) rewarding += w;
    }
    return { weighted: Math.abs(weighted / total), rewarding: Math.abs((100 * rewarding) / total) };
  }

  /**
   * The info.uptime error of a node that is not a primary-network validator (uptime() === null).
   * api/info/service.go Info.Uptime wraps the error of network.NodeUptime() as
   * "couldn't get node uptime: %w". With sybil protection on (mainnet, Fuji), network/network.go
   * NodeUptime returns errNotValidator ("node is not a validator") because
   * Validators.GetWeight(PrimaryNetworkID, MyNodeID) is 0. With sybil protection off (local and
   * test networks) that weight check does not stop it (without sybil protection the node does
   * not take its validator manager from the P-chain stakers) and the failure comes from the
   * uptime calculator: snow/uptime/manager.go CalculateUptimePercent -> state.GetStartTime(nodeID)
   * returns database.ErrNotFound ("not found") for a node the P-chain has no staker for, wrapped
   * as "error while fetching local validator start time %w". The wrapping site was not found in
   * the searchable avalanchego source; the text is the one a real v1.14.2 node answers (issue 11).
   */
  uptimeError(): string {
    return this.sybilProtection
      ? "couldn't get node uptime: node is not a validator"
      : "couldn't get node uptime: error while fetching local validator start time not found";
  }

  /** How peer `key` sees this node's uptime (integer 0-100). */
  private observedUptime(key: number, nowS: number): number {
    const r = hf(this.seed, key, 51);
    const drift = Math.sin(nowS / 3600 + r * 6.28);
    let u: number;
    switch (this.scenarioName) {
      case 'low-uptime': {
        // Peers holding ~40 % of the stake still see us above 80 %, the rest well below,
        // so info.uptime reports rewarding ~40 % and weighted ~75 %.
        const pos = key >= 1 && key <= this.others.length ? (this.stakePos[key - 1] as number) : r;
        u = pos < 0.4 ? 81 + r * 12 + drift : 58 + r * 22 + drift;
        break;
      }
      case 'rewards-lost': {
        // ~10 % of the stake still sees us above 80 %, the rest around 59 %: info.uptime ~60 / ~10.
        u = this.peerPos(key) < 0.1 ? 81 + r * 4 + drift * 0.5 : 54 + r * 10 + drift;
        break;
      }
      case 'validator-disconnected': {
        const hours = (this.now() - this.scenarioSinceMs) / 3_600_000;
        u = 96 + r * 4 - Math.min(30, hours * 2) + drift;
        break;
      }
      default:
        u = r < 0.97 ? 98 + r * 2.2 + drift * 0.5 : 88 + r * 8;
    }
    return Math.max(0, Math.min(100, Math.floor(u)));
  }

  // -------------------------------------------------------------------------
  // peers

  /**
   * Position of peer `key` in the seeded stake-weighted order of the validators (so that
   * "pos < 0.7" selects ~70 % of the stake and ~70 % of the validators), or a seeded fraction for
   * other peers.
   */
  private peerPos(key: number): number {
    if (key >= 1 && key <= this.others.length) return this.stakePos[key - 1] as number;
    return hf(this.seed, key, 17);
  }

  /** Version and announced upgrade time of a peer in the current scenario. */
  private peerVersion(a: PeerAttrs): { version: string; upgradeTime: number } {
    if (a.key < SIBLING_KEY_BASE && this.peerPos(a.key) < 0.7) {
      switch (this.scenarioName) {
        case 'upgrade-pending':
          return { version: this.profile.nextRelease, upgradeTime: this.nextUpgradeUnix() as number };
        case 'upgrade-unknown':
          return { version: this.profile.nextRelease, upgradeTime: this.switchS + 20 * 3600 };
        case 'version-drift':
          return { version: this.profile.driftRelease, upgradeTime: GRANITE_UNIX };
        default:
          break;
      }
    }
    return { version: a.version, upgradeTime: a.upgradeTime };
  }

  /**
   * A peer's ACP sets as this node stores them: avalanchego keeps only the ACPs in its own
   * constants.CurrentACPs (network/peer/peer.go), so with v1.14.2's empty set every peer shows
   * [] / []. In acp-vote validators below 0.6 of the stake order support 247 (below 0.1 also
   * 236) and those in [0.6, 0.75) object to 236; other peers keep their seeded stance; siblings
   * their own announced one.
   */
  private peerAcps(a: PeerAttrs, version: string): { supported: number[]; objected: number[] } {
    const current = this.currentAcps();
    if (current.length === 0) return { supported: [], objected: [] };
    let sup: number[];
    let obj: number[];
    if (a.key >= 1 && a.key <= this.others.length) {
      const pos = this.stakePos[a.key - 1] as number;
      sup = pos < 0.1 ? [236, 247] : pos < 0.6 ? [247] : [];
      obj = pos >= 0.6 && pos < 0.75 ? [236] : [];
    } else {
      sup = a.supportedACPs;
      obj = a.objectedACPs.filter((x) => !sup.includes(x)); // an overlap closes the connection
    }
    // v1.13.x peers also announce the ACPs of their release (ACP-176), whatever the scenario.
    const release = releaseSupportedAcps(version).filter((x) => !sup.includes(x));
    if (release.length > 0) sup = [...sup, ...release];
    return {
      supported: sortByJson(sup.filter((x) => current.includes(x))),
      objected: sortByJson(obj.filter((x) => current.includes(x))),
    };
  }

  /** A sibling node as a peer of this one. */
  private siblingPeer(sib: NodeModel, nowMs: number, nowS: number): PeerInfo {
    const key = this.siblingKey(sib);
    const host = sib.nodeIp.slice(0, sib.nodeIp.lastIndexOf(':'));
    const inbound = hf(this.seed, key, 8) < 0.5;
    const stance = sib.announcedAcps();
    const version = sib.profile.nodeVersion.version;
    const a: PeerAttrs = {
      ip: inbound ? `${host}:${32768 + Math.floor(hf(this.seed, key, 9) * 28000)}` : sib.nodeIp,
      publicIP: sib.nodeIp,
      version,
      upgradeTime: announcesUpgradeTime(version) ? sib.localUpgradeUnix() : 0,
      trackedSubnets: sortByJson([PRIMARY_SUBNET_ID, sib.l1SubnetId]),
      supportedACPs: stance.supported,
      objectedACPs: stance.objected,
      key,
    };
    return this.peerJson(a, sib.nodeId, nowMs, nowS);
  }

  /**
   * info.acps like avalanchego's Info.Acps: every connected peer with primary-network weight
   * (validator manager weight = own stake + delegations, as getValidatorsAt) is added to the
   * supporters / objectors of the ACPs in its sets with its weight; every ACP of CurrentACPs gets
   * abstainWeight = total weight - support - object. The node itself is never counted (not a peer).
   */
  acps(): Record<string, AcpTally> {
    const nowS = Math.floor(this.now() / 1000);
    const weights = new Map<string, bigint>();
    let total = 0n;
    for (const e of this.primaryEntries(nowS)) {
      weights.set(e.nodeId, e.weight);
      total += e.weight;
    }
    const acc = new Map<number, { sw: bigint; sup: string[]; ow: bigint; obj: string[]; abstain: boolean }>();
    const get = (n: number): { sw: bigint; sup: string[]; ow: bigint; obj: string[]; abstain: boolean } => {
      let t = acc.get(n);
      if (!t) {
        t = { sw: 0n, sup: [], ow: 0n, obj: [], abstain: false };
        acc.set(n, t);
      }
      return t;
    };
    for (const p of this.peers()) {
      const w = weights.get(p.nodeID) ?? 0n;
      if (w === 0n) continue;
      for (const n of p.supportedACPs) {
        const t = get(n);
        t.sup.push(p.nodeID);
        t.sw += w;
      }
      for (const n of p.objectedACPs) {
        const t = get(n);
        t.obj.push(p.nodeID);
        t.ow += w;
      }
    }
    for (const n of this.currentAcps()) get(n).abstain = true;
    const out: Record<string, AcpTally> = {};
    // encoding/json writes map keys sorted as strings.
    for (const n of [...acc.keys()].map(String).sort()) {
      const t = acc.get(Number(n)) as { sw: bigint; sup: string[]; ow: bigint; obj: string[]; abstain: boolean };
      out[n] = {
        supportWeight: t.sw.toString(),
        supporters: sortByJson(t.sup),
        objectWeight: t.ow.toString(),
        objectors: sortByJson(t.obj),
        abstainWeight: (t.abstain ? total - t.sw - t.ow : 0n).toString(),
      };
    }
    return out;
  }

  /**
   * The futureupgrade health check (node/node.go): stake-weighted mode of the upgrade times
   * announced by connected validator peers, against the node's own upgrade time.
   */
  futureUpgrade(): { message?: Record<string, unknown>; error?: string } {
    const nowMs = this.now();
    const nowS = Math.floor(nowMs / 1000);
    const weights = new Map<string, bigint>();
    let total = 0n;
    for (const e of this.primaryEntries(nowS)) {
      weights.set(e.nodeId, e.weight);
      total += e.weight;
    }
    if (total === 0n) return { error: 'no validators in the current validator set' };
    const times = new Map<number, bigint>();
    let mode = 0;
    let modeW = 0n;
    for (const p of this.peers()) {
      const w = weights.get(p.nodeID);
      if (w === undefined) continue; // PeerInfo(validator IDs): validators only
      const t = p.upgradeTime ?? 0;
      const uw = (times.get(t) ?? 0n) + w;
      times.set(t, uw);
      if (uw > modeW) {
        mode = t;
        modeW = uw;
      }
    }
    const portion = Number(modeW) / Number(total);
    const local = this.localUpgradeUnix();
    const message: Record<string, unknown> = {
      localUpgradeTime: rfc3339(local * 1000),
      modeUpgradeTime: rfc3339(mode * 1000),
      modeUpgradeWeightPercentage: 100 * portion,
      numUpgradeTimes: times.size,
    };
    if (local >= mode || portion < 0.5) return { message };
    const untilMs = mode * 1000 - nowMs;
    message['timeUntilUpgrade'] = goDuration(untilMs * 1_000_000);
    let error: string | undefined;
    if (untilMs > 3 * DAY * 1000) error = undefined;
    else if (untilMs > DAY * 1000) error = 'unknown network upgrade detected';
    else if (untilMs > 3_600_000) error = 'unknown network upgrade detected - update as soon as possible';
    else error = 'imminent network upgrade detected - update immediately';
    return error === undefined ? { message } : { message, error };
  }

  private peerAttrs(key: number, nodeId: string): PeerAttrs {
    const r = (n: number): number => hf(this.seed, key, n);
    const host = `${[23, 34, 35, 44, 52, 54, 65, 78, 89, 95, 104, 136, 139, 142, 145, 157, 159, 164, 167, 178, 185, 188, 195, 213][Math.floor(r(1) * 24)]}.${Math.floor(r(2) * 256)}.${Math.floor(r(3) * 256)}.${1 + Math.floor(r(4) * 254)}`;
    const stakingPort = r(5) < 0.93 ? 9651 : 9000 + Math.floor(r(6) * 1000);
    const publicIP = r(7) < 0.003 ? '' : `${host}:${stakingPort}`;
    const inbound = r(8) < 0.5;
    const ip = inbound ? `${host}:${32768 + Math.floor(r(9) * 28000)}` : `${host}:${stakingPort}`;
    const vr = r(10);
    const version = this.profile.peerVersion(vr, this.peerPos(key));
    // Every node tracks the primary network (avalanchego adds constants.PrimaryNetworkID to its
    // tracked subnets); as a set sorted by JSON bytes it comes first ("111…LpoYY").
    const tracked: string[] = [PRIMARY_SUBNET_ID];
    if (r(11) < 0.12) tracked.push(this.l1SubnetId);
    if (r(12) < 0.05) tracked.push(cb58Encode(derivedBytes(`othersubnet/${Math.floor(r(13) * 5)}`, 32)));
    const acpRoll = r(14);
    const supportedACPs = acpRoll < 0.9 ? [] : acpRoll < 0.96 ? [247] : [236, 247];
    const objectedACPs = r(15) < 0.02 ? [236] : [];
    void nodeId;
    return {
      ip,
      publicIP,
      version,
      upgradeTime: announcesUpgradeTime(version) ? GRANITE_UNIX : 0,
      trackedSubnets: sortByJson(tracked),
      supportedACPs: sortByJson(supportedACPs),
      objectedACPs: sortByJson(objectedACPs),
      key,
    };
  }

  private peerJson(a: PeerAttrs, nodeId: string, nowMs: number, nowS: number): PeerInfo {
    const key = a.key;
    const minute = Math.floor(nowS / 60);
    const silent = hf(this.seed, key, minute, 61) < 0.01;
    const lastRecvMs = silent ? nowMs - 90_000 - Math.floor(hf(this.seed, key, minute, 62) * 400_000) : nowMs - Math.floor(hf(this.seed, key, nowS, 63) * 4000);
    const lastSentMs = nowMs - Math.floor(hf(this.seed, key, nowS, 64) * 3000);
    const benchRoll = hf(this.seed, key, Math.floor(nowS / 300), 65);
    const benched = benchRoll < 0.01 ? ['C'] : benchRoll < 0.013 ? ['P'] : [];
    // Without inbound connections every peer is one this node dialled (ip = its public IP).
    const outboundOnly = this.scenarioName === 'validator-disconnected' && a.publicIP !== '';
    const v = this.peerVersion(a);
    const acps = this.peerAcps(a, v.version);
    const head = { ip: outboundOnly ? a.publicIP : a.ip, publicIP: a.publicIP, nodeID: nodeId, version: v.version };
    return {
      ...head,
      // info.peers has upgradeTime since v1.14.1 (between version and lastSent)
      ...(this.profile.peerUpgradeTime ? { upgradeTime: v.upgradeTime } : {}),
      lastSent: rfc3339(lastSentMs),
      lastReceived: rfc3339(lastRecvMs),
      observedUptime: String(this.observedUptime(key, nowS)),
      trackedSubnets: a.trackedSubnets,
      supportedACPs: acps.supported,
      objectedACPs: acps.objected,
      benched,
    };
  }

  private readonly attrCache = new Map<string, PeerAttrs>();

  /** All connected peers (cached per second). */
  peers(): PeerInfo[] {
    const nowMs = this.now();
    const nowS = Math.floor(nowMs / 1000);
    const key = `${this.scenarioName}/${nowS}/${this.siblingsKey()}`;
    if (this.peersCache?.key === key) return this.peersCache.peers;
    const out: PeerInfo[] = [];
    for (const v of this.others) {
      if (v.idx >= this.vpCount || !this.validatorConnected(v, nowS)) continue;
      let a = this.attrCache.get(v.nodeId);
      if (!a) {
        a = this.peerAttrs(v.idx + 1, v.nodeId);
        this.attrCache.set(v.nodeId, a);
      }
      out.push(this.peerJson(a, v.nodeId, nowMs, nowS));
    }
    for (const sib of this.siblings) if (this.linkedTo(sib)) out.push(this.siblingPeer(sib, nowMs, nowS));
    if (this.scenarioName !== 'unhealthy-network') {
      for (let s = 0; s < this.nvSlots; s++) {
        const life = 300 + (h32(this.seed, s, 71) % 1500);
        const phase = h32(this.seed, s, 72) % life;
        const gen = Math.floor((nowS + phase) / life);
        const idKey = `${s}/${gen}`;
        let nodeId = this.nvIdCache.get(idKey);
        if (!nodeId) {
          if (this.nvIdCache.size > 50_000) this.nvIdCache.clear();
          nodeId = nodeIdFromBytes(derivedBytes(`nv/${this.seed}/${s}/${gen}`, 20));
          this.nvIdCache.set(idKey, nodeId);
        }
        let a = this.attrCache.get(nodeId);
        if (!a) {
          if (this.attrCache.size > 60_000) this.attrCache.clear();
          a = this.peerAttrs(1_000_000 + h32(s, gen), nodeId);
          this.attrCache.set(nodeId, a);
        }
        out.push(this.peerJson(a, nodeId, nowMs, nowS));
      }
    }
    this.peersCache = { key, peers: out };
    return out;
  }

  /** Inbound connections (for the network health check). */
  ingressConnections(): number {
    if (this.scenarioName === 'validator-disconnected') return 0;
    return this.peers().filter((p) => !p.ip.endsWith(':9651')).length;
  }

  // -------------------------------------------------------------------------
  // misc

  availableDisk(): { bytes: number; percent: number } {
    const hours = (this.now() - this.t0) / 3_600_000;
    const used = 0.55 * this.diskTotal + hours * 150_000_000;
    const avail = Math.max(0, Math.floor(this.diskTotal - used));
    return { bytes: avail, percent: Math.floor((avail * 100) / this.diskTotal) };
  }

  timestampNow(): string {
    return rfc3339Nano(this.now());
  }
}
