import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { isAutoRenewed, type PlatformValidatorUsed } from '../schemas/platform.js';
import { PChainAddress, PlatformGetBalanceResult, PlatformGetRewardUTXOsResult, PlatformGetTxStatusResult, rewardAutoRenewedValidatorTxId, rewardPaid } from '../schemas/platform-rewards.js';
import { navaxToAvax, u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, type CollectorContext, type CollectorValues, type CollectorOf } from './define.js';

/**
 * Reward outcome of the watched primary-network validations (issue 14 item 2), and of every cycle of a
 * watched auto-renewed validator (ACP-236, avalanchego v1.15.0).
 *
 * A validation with a fixed end leaves platform.getCurrentValidators only through its RewardValidatorTx,
 * which pays the reward (commit) or not (abort, e.g. uptime below the requirement); so once a validation
 * the exporter saw active is gone (or replaced by another txID of the same node) and its endTime has passed,
 * the node's platform.getRewardUTXOs(txID) is final: the UTXOs it paid, or none.
 *
 * An auto-renewed validator keeps its txID in every cycle; each cycle ends with a RewardAutoRenewedValidatorTx
 * {txID, cycle end} whose ID (computed: rewardAutoRenewedValidatorTxId) files that cycle's reward UTXOs.
 * platform-validators follows the cycles every 15 s and publishes how each ended (CycleEnd); judgeCycle says
 * what it paid (txs/executor/proposal_tx_executor.go):
 * - renewed (only a commit renews): rewarded. The UTXOs hold the withdrawn part, the weight grew by the
 *   re-staked part (autoCompoundRewardShares): reward = UTXOs + weight growth;
 * - left, graceful exit (commit, nextPeriod 0): the UTXOs hold the cycle's potential reward and delegation
 *   fees plus everything re-staked in earlier cycles, returned: reward = UTXOs − what it saw re-staked;
 * - left, abort (the cycle missed its requirement, ACP-267: 90 %): the validator is removed, the cycle's
 *   potential reward is not paid; the UTXOs hold only the returned re-staked rewards and delegation fees:
 *   reward 0. A commit always pays at least potential + seen re-staked + seen fees: less is an abort.
 *   When it pays that much although the validator was going to renew (nextPeriod > 0 within the last
 *   RENEWAL_INTENT_SECONDS), it either set period 0 at the last moment or re-staked more before this
 *   exporter saw it: platform.getTxStatus of the reward tx says Committed or Aborted; without either answer
 *   the last config decides (a renewing validator that is removed was not rewarded).
 * platform.getBalance of the reward owner addresses gives what the owner holds.
 *
 * Kept in memory only (ctx.memory, lost when the exporter restarts): the fixed validations seen active,
 * the cycle ends already judged and the last outcome per node. After a restart the last-reward series are
 * absent until the next end; an end while the exporter was down is never judged; re-staking before the
 * exporter first saw an auto-renewed validator is counted as that exit's reward.
 */

/** One subnet's answer for the watched IDs, as platform-validators publishes it (never imported: collectors stay apart). */
type WatchedSet = CollectorValues['platform-validators']['sets'][number];
/** How a cycle of a watched auto-renewed validator ended (platform-validators). */
export type CycleEnd = NonNullable<CollectorValues['platform-validators']['cycleEnds']>[number];

/** A watched validation with a fixed end seen active (primary network). */
export interface SeenValidation {
  readonly txID: string;
  readonly nodeId: string;
  /** Unix seconds. */
  readonly endTime: number;
  readonly potentialRewardNavax: bigint;
  readonly rewardOwner: readonly string[];
}

/** How a watched validation, or a cycle of an auto-renewed one, ended. */
export interface RewardOutcome {
  readonly txID: string;
  readonly nodeId: string;
  readonly endTime: number;
  /** The reward of the validation or cycle: paid out and re-staked; 0 = none. */
  readonly paidNavax: bigint;
  /** The part of it re-staked (an auto-renewed validator's weight growth); 0 otherwise. */
  readonly restakedNavax: bigint;
  readonly potentialRewardNavax: bigint;
  readonly rewardOwner: readonly string[];
}

/** Tolerated clock difference (s): chain time may run ahead of this host's clock (avalanchego allows 10 s). */
export const END_SKEW_SECONDS = 60;
/** Ended validations and cycles judged per run at most (each costs one getRewardUTXOs); the rest wait. */
export const MAX_REWARD_LOOKUPS_PER_RUN = 4;
/** Owner addresses passed to one platform.getBalance at most. */
export const MAX_OWNER_ADDRESSES = 16;
/** A validator seen with nextPeriod > 0 this close to its cycle's end was going to renew (platform-validators looks every 15 s). */
export const RENEWAL_INTENT_SECONDS = 60;

/** The owner's valid P-Chain addresses (others are dropped: they would fail the whole getBalance). */
export function ownerAddresses(addresses: readonly string[] | undefined): string[] {
  return (addresses ?? []).filter((a) => PChainAddress.safeParse(a).success).slice(0, MAX_OWNER_ADDRESSES);
}

/** The primary-network entries of the watched IDs that have what a reward outcome needs (`fixedOnly`: not auto-renewed). */
export function seenNow(set: WatchedSet, fixedOnly = false): SeenValidation[] {
  const out: SeenValidation[] = [];
  for (const v of set.validators as readonly PlatformValidatorUsed[]) {
    if (v.txID === undefined || v.endTime === undefined || v.potentialReward === undefined) continue;
    if (fixedOnly && isAutoRenewed(v)) continue;
    out.push({ txID: v.txID, nodeId: v.nodeID, endTime: u64ToNumber(v.endTime), potentialRewardNavax: v.potentialReward, rewardOwner: ownerAddresses(v.rewardOwnerAddresses) });
  }
  return out;
}

/**
 * Updates the remembered fixed validations with this cycle's primary set; returns those that ended (gone,
 * end passed) for a reward lookup. Validations of IDs no longer watched are forgotten, and so is one gone
 * before its end (a primary-network validation cannot leave early: no verdict is drawn from it). Auto-renewed
 * validators are platform-validators' cycles.
 */
export function track(seen: Map<string, SeenValidation>, set: WatchedSet, nowS: number): SeenValidation[] {
  const current = seenNow(set, true);
  const currentTx = new Set(current.map((v) => v.txID));
  const watched = new Set(set.watched);
  const ended: SeenValidation[] = [];
  for (const [tx, v] of seen) {
    if (currentTx.has(tx)) continue;
    if (watched.has(v.nodeId) && v.endTime <= nowS + END_SKEW_SECONDS) ended.push(v);
    else seen.delete(tx);
  }
  for (const v of current) seen.set(v.txID, v);
  ended.sort((a, b) => a.endTime - b.endTime);
  return ended;
}

/** What one cycle end paid: rewarded (with the cycle's reward and its re-staked part), not, or ask the node. */
export type CycleVerdict =
  | { readonly rewarded: true; readonly rewardNavax: bigint; readonly restakedNavax: bigint; readonly how: 'renewed' | 'renewed (re-staked inferred)' | 'exit' }
  | { readonly rewarded: false; readonly returnedNavax: bigint }
  | { readonly rewarded: undefined };

/** The verdict of one cycle end from the UTXOs its reward tx paid (`paid`, nAVAX); see the file's comment. */
export function judgeCycle(e: CycleEnd, paid: bigint): CycleVerdict {
  const c = e.cycle;
  if (e.how === 'renewed') {
    if (e.weightAfter !== undefined) return { rewarded: true, rewardNavax: paid + e.weightAfter - c.weight, restakedNavax: e.weightAfter - c.weight, how: 'renewed' };
    // The next cycle was not seen right after this one: withdrawn + re-staked = potential + fees (a commit).
    const restaked = c.potentialReward + c.delegateeReward > paid ? c.potentialReward + c.delegateeReward - paid : 0n;
    return { rewarded: true, rewardNavax: paid + restaked, restakedNavax: restaked, how: 'renewed (re-staked inferred)' };
  }
  const restakedBefore = c.weight - c.firstWeight;
  if (paid < c.potentialReward + restakedBefore + c.delegateeReward) return { rewarded: false, returnedNavax: paid };
  const wantedRenewal = c.nextPeriod > 0 && c.seenAt >= c.end - RENEWAL_INTENT_SECONDS;
  if (wantedRenewal) return { rewarded: undefined };
  return { rewarded: true, rewardNavax: paid - restakedBefore, restakedNavax: 0n, how: 'exit' };
}

/** Series of the last outcome per watched node and of the owners' balances. */
export function toSamples(outcomes: Iterable<RewardOutcome>, balances: ReadonlyMap<string, bigint>): Sample[] {
  const out: Sample[] = [];
  for (const o of outcomes) {
    const l = { node_id: o.nodeId };
    out.push(sample('avax_validator_last_reward_avax', l, navaxToAvax(o.paidNavax)));
    out.push(sample('avax_validator_last_reward_restaked_avax', l, navaxToAvax(o.restakedNavax)));
    out.push(sample('avax_validator_last_reward_timestamp_seconds', l, o.endTime));
    out.push(sample('avax_validator_last_potential_reward_avax', l, navaxToAvax(o.potentialRewardNavax)));
  }
  for (const [nodeId, b] of balances) out.push(sample('avax_reward_owner_balance_avax', { node_id: nodeId }, navaxToAvax(b)));
  return out;
}

/** What validator-rewards publishes: the last outcome per watched node. */
export interface ValidatorRewardsValue {
  readonly outcomes: readonly RewardOutcome[];
}

export const platformGetRewardUTXOsCall = rpcCall({
  method: 'platform.getRewardUTXOs',
  endpoint: ENDPOINTS.platform,
  wire: (txID: string) => ({ txID, encoding: 'hex' }),
  result: PlatformGetRewardUTXOsResult,
  absent: 'deprecated; still in v1.15.0: reward outcomes unknown',
  scope: 'network',
});
export const platformGetBalanceCall = rpcCall({
  method: 'platform.getBalance',
  endpoint: ENDPOINTS.platform,
  wire: (addresses: readonly string[]) => ({ addresses }),
  result: PlatformGetBalanceResult,
  absent: 'deprecated; still in v1.15.0: no reward owner balance',
  scope: 'network',
});
/** Only for a cycle end whose UTXOs and last config disagree (judgeCycle: rewarded undefined). */
export const platformGetTxStatusCall = rpcCall({
  method: 'platform.getTxStatus',
  endpoint: ENDPOINTS.platform,
  wire: (txID: string) => ({ txID }),
  result: PlatformGetTxStatusResult,
  absent: 'a disputed auto-renewed cycle end is judged by the last config seen (removed while renewing: no reward)',
  scope: 'network',
});

/** What validator-rewards remembers between runs (memory only: lost when the exporter restarts). */
interface RewardsMemory {
  /** Watched validations with a fixed end seen active, by txID. */
  readonly seen: Map<string, SeenValidation>;
  /** Cycle ends of auto-renewed validators already judged (or never to be), `txID/end`. */
  readonly judged: Set<string>;
  /** The last outcome per watched NodeID. */
  readonly outcomes: Map<string, RewardOutcome>;
}

type Ctx = CollectorContext<Record<never, never>, ValidatorRewardsValue, RewardsMemory>;

/** Judges the cycle ends not judged yet (at most `budget` lookups); returns the lookups made. */
async function judgeCycleEnds(ctx: Ctx, ends: readonly CycleEnd[], budget: number, errors: Error[]): Promise<number> {
  const { judged, outcomes } = ctx.memory;
  const listed = new Set(ends.map((e) => `${e.cycle.txID}/${e.cycle.end}`));
  for (const k of judged) if (!listed.has(k)) judged.delete(k);
  let used = 0;
  for (const e of ends) {
    const c = e.cycle;
    const key = `${c.txID}/${c.end}`;
    if (judged.has(key) || used >= budget) continue;
    const rewardTx = rewardAutoRenewedValidatorTxId(c.txID, c.end);
    if (rewardTx === undefined) {
      judged.add(key);
      continue;
    }
    used++;
    const r = await ctx.call(platformGetRewardUTXOsCall, rewardTx);
    if (!r.ok) {
      if (r.normal) judged.add(key); // absent: never known
      else errors.push(r.error); // judged again next run
      continue;
    }
    const paid = rewardPaid(r.value);
    const judged1 = judgeCycle(e, paid);
    let v: Exclude<CycleVerdict, { rewarded: undefined }>;
    let how: string;
    if (judged1.rewarded !== undefined) {
      v = judged1;
      how = v.rewarded ? v.how : 'removed';
    } else {
      const s = await ctx.call(platformGetTxStatusCall, rewardTx);
      if (!s.ok && !s.normal) {
        errors.push(s.error); // asked again next run
        continue;
      }
      const status = s.ok ? s.value.status : 'absent';
      if (status === 'Committed') v = { rewarded: true, rewardNavax: paid - (c.weight - c.firstWeight), restakedNavax: 0n, how: 'exit' };
      else v = { rewarded: false, returnedNavax: paid }; // Aborted; or no answer: it was renewing, and was removed
      how = status === 'Committed' ? 'exit (getTxStatus)' : status === 'Aborted' ? 'removed (getTxStatus)' : `removed (last seen renewing; getTxStatus ${status})`;
    }
    judged.add(key);
    const fields = { node_id: c.nodeId, tx_id: c.txID, reward_tx_id: rewardTx, cycle_start: c.start, end_time: c.end, potential_reward_avax: navaxToAvax(c.potentialReward), utxos_avax: navaxToAvax(paid), how };
    const reward = v.rewarded ? v.rewardNavax : 0n;
    const restaked = v.rewarded ? v.restakedNavax : 0n;
    outcomes.set(c.nodeId, { txID: c.txID, nodeId: c.nodeId, endTime: c.end, paidNavax: reward, restakedNavax: restaked, potentialRewardNavax: c.potentialReward, rewardOwner: ownerAddresses(c.rewardOwner) });
    if (v.rewarded) ctx.log.info({ ...fields, reward_avax: navaxToAvax(reward), restaked_avax: navaxToAvax(restaked) }, 'auto-renewed cycle ended, reward paid');
    else if (c.potentialReward > 0n) ctx.log.warn({ ...fields, reward_avax: 0, returned_avax: navaxToAvax(v.returnedNavax) }, 'watched validation ended without reward');
    else ctx.log.info({ ...fields, reward_avax: 0 }, 'auto-renewed cycle ended, reward paid');
  }
  return used;
}

export const validatorRewards: CollectorOf<'validator-rewards', ValidatorRewardsValue> = defineCollector({
  name: 'validator-rewards',
  description:
    'Reward outcome of each watched primary-network validation that ends, and of each cycle of a watched auto-renewed validator (platform.getRewardUTXOs of the validation, or of the cycle\'s reward tx), and the balance of its reward owner (platform.getBalance).',
  needs: 'P-Chain API (deprecated getRewardUTXOs and getBalance, still in v1.15.0; absent = no series); the watched validations and cycles of platform-validators. Memory only: a restart forgets the last outcomes',
  // Slow: the balance changes rarely and an end is judged within 5 minutes (request budget, bench row 4).
  interval: 300,
  metrics: [
    ...gauges(['node_id'], {
      avax_validator_last_reward_avax:
        "Reward of the node's last watched primary-network validation that ended while the exporter ran, or of the last cycle of an auto-renewed validator (ACP-236: the UTXOs of the cycle's RewardAutoRenewedValidatorTx plus what it re-staked; at a graceful exit the UTXOs less the earlier re-staked rewards they return), in AVAX; 0 = it ended without reward (an aborted cycle: removed from the validator set).",
      avax_validator_last_reward_restaked_avax: "The part of that reward re-staked: an auto-renewed validator's weight growth at its renewal (autoCompoundRewardShares), in AVAX; 0 when everything was paid out.",
      avax_validator_last_reward_timestamp_seconds: 'End time of that validation or cycle, Unix seconds.',
      avax_validator_last_potential_reward_avax: 'Potential reward that validation or cycle showed while it was active (what was expected), in AVAX.',
      avax_reward_owner_balance_avax: "Balance of the validation's reward owner addresses (platform.getBalance: unlocked + locked, summed over the addresses), in AVAX.",
    }),
  ],
  calls: [platformGetBalanceCall, platformGetRewardUTXOsCall, platformGetTxStatusCall],
  memory: (): RewardsMemory => ({ seen: new Map(), judged: new Set(), outcomes: new Map() }),
  reads: ['platform-validators'],
  // One getBalance per watched ID; getRewardUTXOs only when a validation or a cycle ends (a few times a year).
  requestsPerRun: (t) => Math.max(1, t.validatorNodeIds.length + (t.expectActive ? 1 : 0)),
  async collect(ctx) {
    const { seen, outcomes } = ctx.memory;
    const validators = ctx.read('platform-validators');
    const set = validators?.sets.find((s) => s.subnet === PRIMARY_NETWORK_ID);
    const errors: Error[] = [];
    // The watched validations are unknown this cycle: fail with platform-validators, without asking a
    // node that just failed (no extra deadline in the cycle, and no success without a request while the
    // node does not answer). The last outcomes stay exported.
    if (validators?.primaryFailed) {
      const err = new Error('the watched validations are unknown: platform.getCurrentValidators failed in this cycle');
      return { value: { outcomes: [...outcomes.values()] }, samples: toSamples(outcomes.values(), new Map()), errors: [err] };
    }
    if (set) {
      const ended = track(seen, set, Math.floor(ctx.now() / 1000));
      let budget = MAX_REWARD_LOOKUPS_PER_RUN;
      for (const v of ended.slice(0, budget)) {
        budget--;
        const r = await ctx.call(platformGetRewardUTXOsCall, v.txID);
        if (!r.ok) {
          if (!r.normal) errors.push(r.error); // judged again next run
          else seen.delete(v.txID); // absent: never known
          continue;
        }
        const paid = rewardPaid(r.value);
        seen.delete(v.txID);
        outcomes.set(v.nodeId, { ...v, paidNavax: paid, restakedNavax: 0n });
        const fields = { node_id: v.nodeId, tx_id: v.txID, end_time: v.endTime, reward_avax: navaxToAvax(paid), potential_reward_avax: navaxToAvax(v.potentialRewardNavax) };
        if (paid === 0n && v.potentialRewardNavax > 0n) ctx.log.warn(fields, 'watched validation ended without reward');
        else ctx.log.info(fields, 'watched validation ended, reward paid');
      }
      await judgeCycleEnds(ctx, validators?.cycleEnds ?? [], budget, errors);
      for (const id of outcomes.keys()) if (!set.watched.includes(id)) outcomes.delete(id);
    }
    // Reward owner per watched node: the active validation's, else the last ended one's.
    const owners = new Map<string, readonly string[]>();
    for (const o of outcomes.values()) if (o.rewardOwner.length > 0) owners.set(o.nodeId, o.rewardOwner);
    if (set) for (const v of seenNow(set)) if (v.rewardOwner.length > 0) owners.set(v.nodeId, v.rewardOwner);
    const byKey = new Map<string, readonly string[]>();
    for (const a of owners.values()) byKey.set([...a].sort().join(','), a);
    const keys = [...byKey.keys()];
    const answers = await Promise.all(keys.map((k) => ctx.call(platformGetBalanceCall, byKey.get(k)!)));
    const balanceByKey = new Map<string, bigint>();
    answers.forEach((r, i) => {
      if (r.ok) balanceByKey.set(keys[i]!, r.value.balance);
      else if (!r.normal) errors.push(r.error);
    });
    const balances = new Map<string, bigint>();
    for (const [nodeId, a] of owners) {
      const b = balanceByKey.get([...a].sort().join(','));
      if (b !== undefined) balances.set(nodeId, b);
    }
    return { value: { outcomes: [...outcomes.values()] }, samples: toSamples(outcomes.values(), balances), errors };
  },
});
