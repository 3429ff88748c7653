// The primary-network validators the simulated node knows locally (itself and the others): their
// seeded registrations, validation periods (fixed end times, renewed once they pass), txIDs,
// connection windows, local uptimes, the getCurrentValidators entry and its delegators.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { autoCompoundShares, autoRenewMembers, cycleLedgers, delegateeRewardOf, isAutoRenewed, ownCycleLength, ownRegisteredAt, potentialRewardOf, type CycleLedger } from './auto-renew.js';
import { blsPopHex, blsPublicKeyHex, cb58Encode, nodeIdFromBytes, pAddress } from './avalanche-ids.js';
import { Rng, derivedBytes, h32, hf } from './deterministic-random.js';
import { fixed4 } from './go-format.js';
import { DAY, NAVAX } from './mainnet-constants.js';
import { AUTO_RENEW_KEY, ownAutoRenewRegistrations, rewardOutcomePeriod, type OwnRegistration } from './reward-period.js';
import { RESTAKE_NOTICE_S, type NodeHistory } from './own-history.js';
import type { ScenarioModel } from './scenarios/scenario.js';

export interface ValidatorDef {
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

/** What stakeOrderPos needs of the node model: the seeded stake order of the other validators. */
export interface StakeOrderModel {
  readonly seed: number;
  readonly others: readonly ValidatorDef[];
  /** seeded stake-weighted order of `others` (stakePositions) */
  readonly stakePos: Float64Array;
}

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface ValidatorRegistryModel extends StakeOrderModel, ScenarioModel {
  /** validator peers: the first vpCount of `others` */
  readonly vpCount: number;
  /** the BLS key registered for this node */
  readonly nodeBlsPub: string;
  readonly nodeBlsPop: string;
  /** AddValidatorTx IDs by "idx/period" */
  readonly caches: { readonly txId: Map<string, string> };
  /** versions.ts: the deprecated `rewardOwner` and `stakeAmount` fields; ACP-236 auto-renewed validators */
  readonly profile: ScenarioModel['profile'] & { readonly rewardOwner: boolean; readonly stakeAmount: boolean; readonly autoRenewedStakers: boolean };
  /** the own registrations made during the run and the peers' restarts (own-history.ts) */
  readonly history: Pick<NodeHistory, 'registrations' | 'peerRestarts'>;
}

/** One validation period: the k-th renewal, start and end (unix s). */
export interface Period {
  k: number;
  start: number;
  end: number;
}

/** The own validation is renewed this long before it ends (healthy never shows an expiry within 20 days). */
const SELF_RENEW_BEFORE = 20 * DAY + 3600;

/** A seeded validator (idx -1: this node) drawn from `rng`; `t0s` = start of the simulation (unix s). */
export function makeValidator(seed: number, t0s: number, idx: number, rng: Rng): ValidatorDef {
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
  const nodeIdBytes = idx === -1 ? derivedBytes(`node/${seed}`, 20) : derivedBytes(`val/${seed}/${idx}`, 20);
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

export function totalWeight(list: ValidatorDef[]): bigint {
  let t = 0n;
  for (const v of list) t += v.own + v.deleg;
  return t;
}

/**
 * Position of each validator in a seeded stake-weighted order (0..1), used to pick which share of
 * the stake sees this node above the uptime requirement, runs another version, votes, …
 */
export function stakePositions(seed: number, others: ValidatorDef[]): Float64Array {
  const order = others.map((v) => v.idx).sort((a, b) => h32(seed, a, 55) - h32(seed, b, 55));
  const total = Number(totalWeight(others)) || 1;
  const pos = new Float64Array(others.length);
  let cum = 0;
  for (const i of order) {
    const v = others[i] as ValidatorDef;
    const w = Number(v.own + v.deleg);
    pos[i] = (cum + w / 2) / total;
    cum += w;
  }
  return pos;
}

/**
 * Position of peer `key` in the seeded stake-weighted order of the validators (so that
 * "pos < 0.7" selects ~70 % of the stake and ~70 % of the validators), or a seeded fraction for
 * other peers.
 */
export function stakeOrderPos(m: StakeOrderModel, key: number): number {
  if (key >= 1 && key <= m.others.length) return m.stakePos[key - 1] as number;
  return hf(m.seed, key, 17);
}

/**
 * The validation period of `v` at `nowS`; for the own validator as the scenario has it (`ownPeriod`:
 * validator-expiring, rewards-lost; `rewardOutcome`: reward-paid, reward-missed). An auto-renewed validator's
 * period is its current cycle, and its `k` the key of its AddAutoRenewedValidatorTx (the same txID in every
 * cycle; the own one's registrations: reward-period.ts ownAutoRenewRegistrations).
 */
export function validatorPeriod(m: ValidatorRegistryModel, v: ValidatorDef, nowS: number): Period {
  const hooks = v.idx === -1 ? m.active.validators : undefined;
  const base = (atS: number): Period => {
    if (!renewed(m, v, atS)) return v.idx === -1 ? ownFixedPeriod(m, v, atS) : basePeriod(v, atS);
    if (v.idx !== -1) return { ...basePeriod(v, atS), k: AUTO_RENEW_KEY };
    const reg = ownRegistrations(m, undefined, atS).at(-1)!;
    return { k: reg.key, ...reg.cycles.at(-1)! };
  };
  if (hooks?.ownPeriod) return hooks.ownPeriod(m, base, nowS);
  if (hooks?.rewardOutcome && renewed(m, v, nowS)) {
    const reg = ownRegistrations(m, hooks.rewardOutcome, nowS).at(-1)!;
    return { k: reg.key, ...reg.cycles.at(-1)! };
  }
  if (hooks?.rewardOutcome) return rewardOutcomePeriod(hooks.rewardOutcome, m.switchS, base(m.switchS), nowS);
  return base(nowS);
}

/** The own validator's auto-renewed registrations up to `nowS` (reward-period.ts), oldest first; from its last join of the run on, if any. */
export function ownRegistrations(m: ValidatorRegistryModel, outcome: 'paid' | 'missed' | 'missed-watched' | undefined, nowS: number): OwnRegistration[] {
  const join = lastRunRegistration(m, nowS, 'join');
  const regs = ownAutoRenewRegistrations(outcome, m.switchS, join?.atS ?? ownRegisteredAt(m.seed), ownCycleLength(m.seed), nowS);
  return join ? regs.map((r) => ({ ...r, key: r.key - runKey(join.n) })) : regs;
}

/** Length of a fixed-end validation registered during the run (a join, a re-stake); renewed like the seeded one. */
export const RUN_VALIDATION_S = 28 * DAY;

/** The txID key of the n-th registration of the run: apart from every seeded period's and the reward scenarios'. */
const runKey = (n: number): number => 10_000 * (n + 1);

/** The last registration of the run at or before `atS` (of `kind`, when given), with its index. */
function lastRunRegistration(m: ValidatorRegistryModel, atS: number, kind?: 'join' | 'restake'): { n: number; atS: number } | undefined {
  const regs = m.history.registrations;
  for (let n = regs.length - 1; n >= 0; n--) if (regs[n]!.atS <= atS && (kind === undefined || regs[n]!.kind === kind)) return { n, atS: regs[n]!.atS };
  return undefined;
}

/**
 * The own fixed-end validation at `atS`: the seeded one, or the one the run's last registration started (a join
 * or a re-stake: RUN_VALIDATION_S from it, renewed ahead of its end like the seeded one). A re-stake ends the
 * validation before it at its second, shown RESTAKE_NOTICE_S ahead (own-history.ts).
 */
function ownFixedPeriod(m: ValidatorRegistryModel, v: ValidatorDef, atS: number): Period {
  const last = lastRunRegistration(m, atS);
  let p = basePeriod(v, atS);
  if (last) {
    const q = basePeriod({ ...v, end0: last.atS + RUN_VALIDATION_S, dur: RUN_VALIDATION_S }, atS);
    p = { ...q, k: runKey(last.n) + q.k };
  }
  const next = m.history.registrations[last ? last.n + 1 : 0];
  if (next?.kind === 'restake' && atS >= next.atS - RESTAKE_NOTICE_S) p = { ...p, end: next.atS };
  return p;
}

/**
 * What each cycle of the own auto-renewed registration `reg` settled (auto-renew.ts cycleLedgers): its weight
 * grows by the re-staked share of every committed cycle. Only the own validator's (its rewards are judged);
 * the others keep their seeded stake, which the set's totals and the ACP tally use.
 */
export function ownLedgers(m: ValidatorRegistryModel, v: ValidatorDef, reg: OwnRegistration): CycleLedger[] {
  return cycleLedgers(v.own, v.deleg, v.fee, autoCompoundShares(m.seed, v), reg.cycles);
}

/**
 * An ACP-236 auto-renewed validator (auto-renew.ts): its periods are cycles (the others' fixed periods
 * already follow one another; the own one runs in cycles of its own length) and its txID is the one of its
 * AddAutoRenewedValidatorTx, the same in every cycle.
 */
function renewed(m: ValidatorRegistryModel, v: ValidatorDef, nowS: number): boolean {
  return isAutoRenewed(m.seed, m.profile.autoRenewedStakers, v, nowS);
}

function basePeriod(v: ValidatorDef, nowS: number): Period {
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

/** The AddValidatorTx ID of period `k` of `v` (k -1: the AddAutoRenewedValidatorTx of an auto-renewed one). */
export function validatorTxId(m: ValidatorRegistryModel, v: ValidatorDef, k: number): string {
  const key = `${v.idx}/${k}`;
  let id = m.caches.txId.get(key);
  if (!id) {
    id = cb58Encode(derivedBytes(`addval/${m.seed}/${v.idx}/${k}`, 32));
    m.caches.txId.set(key, id);
  }
  return id;
}

/** Whether validator `v` (another node) is currently connected to this node. */
export function validatorConnected(m: ValidatorRegistryModel, v: ValidatorDef, nowS: number): boolean {
  if (v.idx === -1) return true;
  if (v.idx >= m.vpCount) return false;
  if (peerRestarting(m, v.idx, nowS)) return false;
  // unhealthy-network: only the first few validator peers stay connected.
  const few = m.active.validators?.connectedPeers;
  if (few !== undefined) return v.idx < few;
  // 60 s windows, ~1 % of validators disconnected in each: ~2 % of the peer set
  // changes every minute (plus the short-lived non-validator peers).
  const W = 60;
  const phase = h32(m.seed, v.idx, 31) % W;
  const win = Math.floor((nowS + phase) / W);
  return hf(m.seed, v.idx, win, 32) >= 0.01;
}

/** Whether validator peer `idx` is one of a run's restarting peers (own-history.ts) and restarting at `nowS`. */
export function peerRestarting(m: ValidatorRegistryModel, idx: number, nowS: number): boolean {
  return m.history.peerRestarts.some((r) => nowS >= r.fromS && nowS < r.toS && restartsIn(m, idx, r));
}

/** When validator peer `idx` last came back from a run's restart at or before `nowS` (unix s), if it did. */
export function peerBackAt(m: ValidatorRegistryModel, idx: number, nowS: number): number | undefined {
  let back: number | undefined;
  for (const r of m.history.peerRestarts) if (r.toS <= nowS && restartsIn(m, idx, r)) back = r.toS;
  return back;
}

const restartsIn = (m: ValidatorRegistryModel, idx: number, r: { share: number; id: number }): boolean => hf(m.seed, idx, r.id, 53) < r.share;

/** This node's local view of `v`'s uptime (getCurrentValidators `uptime`, 0-100). */
function localUptime(v: ValidatorDef, nowS: number, connected: boolean): number {
  if (v.idx === -1) return 100;
  const drift = 0.6 * Math.sin(nowS / 5400 + v.uptimePhase);
  let u = v.uptimeBase + drift - (connected ? 0 : 0.8);
  if (u > 100) u = 100;
  if (u < 0) u = 0;
  return u;
}

/**
 * The weight of `v` at `nowS` (getCurrentValidators `weight`, without delegations): its stake, and for the own
 * auto-renewed validator every share re-staked so far (ACP-236). The set's totals, the ACP tally and the
 * scenarios that size the own delegation or the minimum stake still take the seeded stake (`own`).
 */
export function validatorWeight(m: ValidatorRegistryModel, v: ValidatorDef, nowS: number): bigint {
  if (v.idx !== -1 || !renewed(m, v, nowS)) return v.own;
  return ownLedgers(m, v, ownRegistrations(m, m.active.validators?.rewardOutcome, nowS).at(-1)!).at(-1)?.weight ?? v.own;
}

/** platform.getCurrentValidators entry of `v` (fields in avalanchego's order). */
export function validatorJson(m: ValidatorRegistryModel, v: ValidatorDef, nowS: number, withDelegators: boolean): Record<string, unknown> {
  const p = validatorPeriod(m, v, nowS);
  let connected = validatorConnected(m, v, nowS);
  // A real node always counts itself as connected. The 'validator-disconnected'
  // scenario (`ownConnected: false`) shows the own entry as connected:false anyway, i.e.
  // the answer an operator sees from the network's point of view (another node's API, or
  // this node's view once the network drops it): that is the condition the exporter's
  // avax_validator_connected alert must catch.
  if (v.idx === -1 && m.active.validators?.ownConnected === false) connected = false;
  const auto = renewed(m, v, nowS);
  const weight = validatorWeight(m, v, nowS);
  const potentialReward = potentialRewardOf(weight, p.start, p.end);
  const accrued = delegateeRewardOf(v.deleg, v.fee, Math.max(0, Math.min(nowS, p.end) - p.start));
  const blsPub = v.idx === -1 ? m.nodeBlsPub : v.blsPub;
  const blsPop = v.idx === -1 ? m.nodeBlsPop : v.blsPop;
  const rewardOwner = { locktime: '0', threshold: '1', addresses: [v.rewardAddr] };
  const out: Record<string, unknown> = {
    txID: validatorTxId(m, v, p.k),
    startTime: String(p.start),
    endTime: String(p.end),
    weight: weight.toString(),
    nodeID: v.nodeId,
    // Deprecated fields of older versions: the Staker's stakeAmount (v1.11), rewardOwner (to v1.12).
    ...(m.profile.stakeAmount ? { stakeAmount: v.own.toString() } : {}),
    ...(m.profile.rewardOwner ? { rewardOwner } : {}),
    validationRewardOwner: rewardOwner,
    delegationRewardOwner: { locktime: '0', threshold: '1', addresses: [v.delegRewardAddr] },
    potentialReward: potentialReward.toString(),
    accruedDelegateeReward: accrued.toString(),
    delegationFee: fixed4(v.fee),
    uptime: fixed4(Math.round(localUptime(v, nowS, connected) * 10000) / 10000),
    connected,
    signer: { publicKey: blsPub, proofOfPossession: blsPop },
    ...(auto ? autoRenewMembers(m.seed, v, v.idx === -1 ? ownCycleLength(m.seed) : v.dur) : {}),
    delegatorCount: String(v.delegatorCount),
    delegatorWeight: v.deleg.toString(),
  };
  if (withDelegators) out['delegators'] = delegators(m, v, p);
  return out;
}

/** The delegators of `v` in period `p` (listed when exactly one nodeID is asked for). */
function delegators(m: ValidatorRegistryModel, v: ValidatorDef, p: Period): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const n = v.delegatorCount;
  if (n === 0) return out;
  const rng = new Rng(h32(m.seed, v.idx, p.k, 41));
  let remaining = v.deleg;
  for (let i = 0; i < n; i++) {
    const share = i === n - 1 ? remaining : (v.deleg / BigInt(n)) * BigInt(50 + Math.floor(rng.next() * 100)) / 100n;
    const w = share > remaining ? remaining : share;
    remaining -= w;
    const start = p.start + Math.floor(rng.next() * Math.max(1, p.end - p.start - 14 * DAY));
    const end = Math.min(p.end, start + 14 * DAY + Math.floor(rng.next() * 200 * DAY));
    const reward = (w * BigInt(Math.round(((0.072 * (end - start)) / (365 * DAY)) * (1 - v.fee / 100) * 1e6))) / 1_000_000n;
    out.push({
      txID: cb58Encode(derivedBytes(`deleg/${m.seed}/${v.idx}/${p.k}/${i}`, 32)),
      startTime: String(start),
      endTime: String(end),
      weight: w.toString(),
      nodeID: v.nodeId,
      // A delegator is a Staker too (v1.11: the same apiStaker, stakeAmount included).
      ...(m.profile.stakeAmount ? { stakeAmount: w.toString() } : {}),
      rewardOwner: { locktime: '0', threshold: '1', addresses: [pAddress(rng.bytes(20))] },
      potentialReward: reward.toString(),
    });
  }
  return out;
}
