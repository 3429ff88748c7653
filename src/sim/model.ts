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
  h32,
  hf,
  nodeIdFromBytes,
  pAddress,
  rfc3339,
  rfc3339Nano,
  sha256,
} from './util.js';
import type { ScenarioName } from './scenarios.js';

export type ChainAlias = 'P' | 'X' | 'C';
export const CHAINS: readonly ChainAlias[] = ['P', 'X', 'C'];

// Mainnet constants (public facts of avalanchego v1.14.2).
export const P_CHAIN_ID = PRIMARY_SUBNET_ID;
export const X_CHAIN_ID = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
export const C_CHAIN_ID = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const AVAX_ASSET_ID = 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z';
export const GRANITE_UNIX = 1763568000; // 2025-11-19T16:00:00Z
export const NODE_VERSION = 'avalanchego/1.14.2';
export const GIT_COMMIT = '6e5acf909c7a16b991142d6b3979bac5699bdb68';

const DAY = 86400;
const NAVAX = 1_000_000_000n;

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
  upgradeTime: number;
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
  readonly nodeBlsPub: string;
  readonly nodeBlsPop: string;
  readonly nodeIp: string;
  readonly l1SubnetId: string;
  readonly l1ChainId: string;
  readonly networkPeersTarget: number;

  private readonly self: ValidatorDef;
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
    this.t0 = Math.floor(this.now());
    this.t0s = Math.floor(this.t0 / 1000);
    this.scenarioSinceMs = this.t0;
    const rng = new Rng(this.seed);

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
    const deleg = delegatorCount === 0 ? 0n : BigInt(delegAvax) * NAVAX + BigInt(Math.floor(rng.next() * 1e9));
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
    this.peersCache = null;
    this.validatorsCache = null;
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
    return this.basePeriod(v, nowS);
  }

  private basePeriod(v: ValidatorDef, nowS: number): { k: number; start: number; end: number } {
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

  /** Validators in the current set, sorted like the staker iterator (end time, then tx id). */
  private currentValidators(nowS: number): ValidatorDef[] {
    const list = this.isValidator ? [...this.others, this.self] : [...this.others];
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

  /** platform.getCurrentValidators for the primary network, serialized (cached per second). */
  primaryValidatorsJson(nodeIDs: string[] | null): string {
    const nowS = Math.floor(this.now() / 1000);
    if (nodeIDs === null) {
      const key = `${this.scenarioName}/${nowS}`;
      if (this.validatorsCache?.key === key) return this.validatorsCache.json;
      const list = this.currentValidators(nowS).map((v) => this.validatorJson(v, nowS, false));
      const json = JSON.stringify({ validators: list });
      this.validatorsCache = { key, json };
      return json;
    }
    const want = new Set(nodeIDs);
    const single = nodeIDs.length === 1;
    const list = this.currentValidators(nowS)
      .filter((v) => want.has(v.nodeId))
      .map((v) => this.validatorJson(v, nowS, single));
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
      let bal = v.initialBalance - 512n * BigInt(elapsed);
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
    return this.totalWeight(this.currentValidators(Math.floor(this.now() / 1000)));
  }

  currentSupply(): bigint {
    const h = this.height('P');
    return this.supplyBase + BigInt(h - this.baseHeight.P) * 1_137_000_000n;
  }

  hasTx(txId: string): boolean {
    const nowS = Math.floor(this.now() / 1000);
    for (const v of this.currentValidators(nowS)) if (this.txId(v, this.period(v, nowS).k) === txId) return true;
    return false;
  }

  // -------------------------------------------------------------------------
  // connectivity (health networking, info.uptime)

  /** Fraction of primary-network stake this node is connected to, and the disconnected validators. */
  networking(): { percentConnected: number; disconnected: string[] } {
    const nowS = Math.floor(this.now() / 1000);
    const list = this.currentValidators(nowS);
    let total = 0n;
    let connected = 0n;
    const disconnected: string[] = [];
    for (const v of list) {
      const w = v.own + v.deleg;
      total += w;
      if (this.validatorConnected(v, nowS)) connected += w;
      else disconnected.push(v.nodeId);
    }
    const pct = total === 0n ? 1 : Number((connected * 1_000_000_000n) / total) / 1e9;
    return { percentConnected: pct, disconnected: sortByJson(disconnected) };
  }

  /** info.uptime as avalanchego computes it from its peers' observed uptimes. */
  uptime(): { rewarding: number; weighted: number } | null {
    if (!this.isValidator) return null;
    const nowS = Math.floor(this.now() / 1000);
    const list = this.currentValidators(nowS);
    const total = Number(this.totalWeight(list));
    const my = Number(this.self.own + this.self.deleg);
    let weighted = 100 * my;
    let rewarding = my;
    for (const v of list) {
      if (v.idx === -1 || !this.validatorConnected(v, nowS)) continue;
      const w = Number(v.own + v.deleg);
      const obs = this.observedUptime(v.idx + 1, nowS);
      weighted += obs * w;
      if (obs / 100 >= 0.8) rewarding += w;
    }
    return { weighted: Math.abs(weighted / total), rewarding: Math.abs((100 * rewarding) / total) };
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

  private peerAttrs(key: number, nodeId: string): PeerAttrs {
    const r = (n: number): number => hf(this.seed, key, n);
    const host = `${[23, 34, 35, 44, 52, 54, 65, 78, 89, 95, 104, 136, 139, 142, 145, 157, 159, 164, 167, 178, 185, 188, 195, 213][Math.floor(r(1) * 24)]}.${Math.floor(r(2) * 256)}.${Math.floor(r(3) * 256)}.${1 + Math.floor(r(4) * 254)}`;
    const stakingPort = r(5) < 0.93 ? 9651 : 9000 + Math.floor(r(6) * 1000);
    const publicIP = r(7) < 0.003 ? '' : `${host}:${stakingPort}`;
    const inbound = r(8) < 0.5;
    const ip = inbound ? `${host}:${32768 + Math.floor(r(9) * 28000)}` : `${host}:${stakingPort}`;
    const vr = r(10);
    const version = vr < 0.8 ? NODE_VERSION : vr < 0.95 ? 'avalanchego/1.14.1' : 'avalanchego/1.14.0';
    const tracked: string[] = [];
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
      upgradeTime: version === 'avalanchego/1.14.0' ? 0 : GRANITE_UNIX,
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
    return {
      ip: outboundOnly ? a.publicIP : a.ip,
      publicIP: a.publicIP,
      nodeID: nodeId,
      version: a.version,
      upgradeTime: a.upgradeTime,
      lastSent: rfc3339(lastSentMs),
      lastReceived: rfc3339(lastRecvMs),
      observedUptime: String(this.observedUptime(key, nowS)),
      trackedSubnets: a.trackedSubnets,
      supportedACPs: a.supportedACPs,
      objectedACPs: a.objectedACPs,
      benched,
    };
  }

  private readonly attrCache = new Map<string, PeerAttrs>();

  /** All connected peers (cached per second). */
  peers(): PeerInfo[] {
    const nowMs = this.now();
    const nowS = Math.floor(nowMs / 1000);
    const key = `${this.scenarioName}/${nowS}`;
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
