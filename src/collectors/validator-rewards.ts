import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import type { PlatformValidatorUsed } from '../schemas/platform.js';
import { PChainAddress, PlatformGetBalanceResult, PlatformGetRewardUTXOsResult, rewardPaid } from '../schemas/platform-rewards.js';
import { navaxToAvax, u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, type CollectorValues, type CollectorOf } from './define.js';

/**
 * Reward outcome of the watched primary-network validations (issue 14 item 2).
 *
 * A validation leaves platform.getCurrentValidators only through its RewardValidatorTx, which pays the
 * reward (commit) or not (abort, e.g. uptime below the requirement); so once a validation the exporter
 * saw active is gone (or replaced by another txID of the same node) and its endTime has passed, the
 * node's platform.getRewardUTXOs(txID) is final: the UTXOs it paid, or none. It is called once per
 * ended validation, never per cycle. platform.getBalance of the validation's reward owner addresses
 * gives what the owner holds (unlocked + locked, over all its addresses).
 *
 * What is kept in memory only (ctx.memory), and lost when the exporter restarts: the validations seen
 * active (txID, end, potential reward, owner) and the last outcome per node. The node cannot give
 * them back: no API lists a node's past staking txIDs. After a restart the last-reward series are
 * absent until the next watched validation ends, and a validation that ended while the exporter was
 * down (or before its first successful platform-validators run) is never judged. The validation
 * active at the first cycle is re-read from the node, so its end is judged normally.
 */

/** One subnet's answer for the watched IDs, as platform-validators publishes it (never imported: collectors stay apart). */
type WatchedSet = CollectorValues['platform-validators']['sets'][number];

/** A watched validation seen active (primary network). */
export interface SeenValidation {
  readonly txID: string;
  readonly nodeId: string;
  /** Unix seconds. */
  readonly endTime: number;
  readonly potentialRewardNavax: bigint;
  readonly rewardOwner: readonly string[];
}

/** How a watched validation ended. */
export interface RewardOutcome {
  readonly txID: string;
  readonly nodeId: string;
  readonly endTime: number;
  readonly paidNavax: bigint;
  readonly potentialRewardNavax: bigint;
  readonly rewardOwner: readonly string[];
}

/** Tolerated clock difference (s): chain time may run ahead of this host's clock (avalanchego allows 10 s). */
export const END_SKEW_SECONDS = 60;
/** Ended validations judged per run at most (each costs one getRewardUTXOs); the rest wait for the next run. */
export const MAX_REWARD_LOOKUPS_PER_RUN = 4;
/** Owner addresses passed to one platform.getBalance at most. */
export const MAX_OWNER_ADDRESSES = 16;

/** The owner's valid P-Chain addresses (others are dropped: they would fail the whole getBalance). */
export function ownerAddresses(v: PlatformValidatorUsed): string[] {
  return (v.rewardOwnerAddresses ?? []).filter((a) => PChainAddress.safeParse(a).success).slice(0, MAX_OWNER_ADDRESSES);
}

/** The primary-network entries of the watched IDs that have what a reward outcome needs. */
export function seenNow(set: WatchedSet): SeenValidation[] {
  const out: SeenValidation[] = [];
  for (const v of set.validators) {
    if (v.txID === undefined || v.endTime === undefined || v.potentialReward === undefined) continue;
    out.push({ txID: v.txID, nodeId: v.nodeID, endTime: u64ToNumber(v.endTime), potentialRewardNavax: v.potentialReward, rewardOwner: ownerAddresses(v) });
  }
  return out;
}

/**
 * Updates the remembered validations with this cycle's primary set; returns those that ended (gone,
 * end passed) for a reward lookup. Validations of IDs no longer watched are forgotten, and so is one
 * gone before its end (a primary-network validation cannot leave early: no verdict is drawn from it).
 */
export function track(seen: Map<string, SeenValidation>, set: WatchedSet, nowS: number): SeenValidation[] {
  const current = seenNow(set);
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

/** Series of the last outcome per watched node and of the owners' balances. */
export function toSamples(outcomes: Iterable<RewardOutcome>, balances: ReadonlyMap<string, bigint>): Sample[] {
  const out: Sample[] = [];
  for (const o of outcomes) {
    const l = { node_id: o.nodeId };
    out.push(sample('avax_validator_last_reward_avax', l, navaxToAvax(o.paidNavax)));
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
  absent: 'deprecated; still in v1.14.2: reward outcomes unknown',
  scope: 'network',
});
export const platformGetBalanceCall = rpcCall({
  method: 'platform.getBalance',
  endpoint: ENDPOINTS.platform,
  wire: (addresses: readonly string[]) => ({ addresses }),
  result: PlatformGetBalanceResult,
  absent: 'deprecated; still in v1.14.2: no reward owner balance',
  scope: 'network',
});

/** What validator-rewards remembers between runs (memory only: lost when the exporter restarts). */
interface RewardsMemory {
  /** Watched validations seen active, by txID. */
  readonly seen: Map<string, SeenValidation>;
  /** The last outcome per watched NodeID. */
  readonly outcomes: Map<string, RewardOutcome>;
}

export const validatorRewards: CollectorOf<'validator-rewards', ValidatorRewardsValue> = defineCollector({
  name: 'validator-rewards',
  description: 'Reward outcome of each watched primary-network validation that ends (platform.getRewardUTXOs) and the balance of its reward owner (platform.getBalance).',
  needs: 'P-Chain API (deprecated getRewardUTXOs and getBalance, still in v1.14.2; absent = no series); the watched validations of platform-validators. Memory only: a restart forgets the last outcomes',
  // Slow: the balance changes rarely and an end is judged within 5 minutes (request budget, bench row 4).
  interval: 300,
  metrics: [
    ...gauges(['node_id'], {
      avax_validator_last_reward_avax: 'Reward paid for the last watched primary-network validation of the node that ended while the exporter ran (platform.getRewardUTXOs), in AVAX; 0 = it ended without reward.',
      avax_validator_last_reward_timestamp_seconds: 'End time of that validation, Unix seconds.',
      avax_validator_last_potential_reward_avax: 'Potential reward that validation showed while it was active (what was expected), in AVAX.',
      avax_reward_owner_balance_avax: "Balance of the validation's reward owner addresses (platform.getBalance: unlocked + locked, summed over the addresses), in AVAX.",
    }),
  ],
  calls: [platformGetBalanceCall, platformGetRewardUTXOsCall],
  memory: (): RewardsMemory => ({ seen: new Map(), outcomes: new Map() }),
  reads: ['platform-validators'],
  // One getBalance per watched ID; getRewardUTXOs only when a validation ends (a few times a year).
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
      for (const v of ended.slice(0, MAX_REWARD_LOOKUPS_PER_RUN)) {
        const r = await ctx.call(platformGetRewardUTXOsCall, v.txID);
        if (!r.ok) {
          if (!r.normal) errors.push(r.error); // judged again next run
          else seen.delete(v.txID); // absent: never known
          continue;
        }
        const paid = rewardPaid(r.value);
        seen.delete(v.txID);
        outcomes.set(v.nodeId, { ...v, paidNavax: paid });
        const fields = { node_id: v.nodeId, tx_id: v.txID, end_time: v.endTime, reward_avax: navaxToAvax(paid), potential_reward_avax: navaxToAvax(v.potentialRewardNavax) };
        if (paid === 0n && v.potentialRewardNavax > 0n) ctx.log.warn(fields, 'watched validation ended without reward');
        else ctx.log.info(fields, 'watched validation ended, reward paid');
      }
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
