import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, PRIMARY_NETWORK_ID } from '../node-client/index.js';
import { InfoUpgradesResult } from '../schemas/info.js';
import { isL1Validator, PlatformGetCurrentValidatorsResult, type PlatformValidator } from '../schemas/platform.js';
import { navaxToAvax, u64ToNumber, UNSCHEDULED_SECONDS } from '../schemas/primitives.js';
import { fetchNodeId } from './node-info.js';
import { failures, onChange, settle, settleAll, percentToRatio } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

/** One platform.getCurrentValidators answer for the watched IDs of one subnet. */
export interface WatchedSet {
  /** CB58 subnet ID (PRIMARY_NETWORK_ID for the primary network). */
  readonly subnet: string;
  readonly watched: readonly string[];
  readonly validators: readonly PlatformValidator[];
}

export interface PlatformValidatorsContext {
  /** Helicon activation, Unix seconds; Infinity when unscheduled; undefined when unknown (→ 0.8). */
  readonly heliconTime?: number;
  /** The node's own NodeID and BLS public key (lower-case hex; '' = none): avax_validator_bls_key_matches. */
  readonly ownNodeId?: string;
  readonly ownBlsPublicKey?: string;
  /**
   * IDs that must be active validators (avax_validator_expected_active 1): the configured ones, and
   * the own ID with --validator.expect-active. Absent = no avax_validator_expected_active series.
   */
  readonly expectedActive?: ReadonlySet<string>;
}

/** Primary network (mainnet and Fuji): total weight ≤ 5 × own stake and ≤ 3,000,000 AVAX. */
export const MAX_VALIDATOR_WEIGHT_FACTOR = 5n;
export const MAX_VALIDATOR_WEIGHT_NAVAX = 3_000_000n * 1_000_000_000n;

/** Stake that can still be delegated to a primary-network validator, in nAVAX (never below 0). */
export function delegationCapacityNavax(own: bigint, delegated: bigint): bigint {
  const cap = own * MAX_VALIDATOR_WEIGHT_FACTOR < MAX_VALIDATOR_WEIGHT_NAVAX ? own * MAX_VALIDATOR_WEIGHT_FACTOR : MAX_VALIDATOR_WEIGHT_NAVAX;
  const left = cap - own - delegated;
  return left > 0n ? left : 0n;
}

/** Reward uptime requirement: 80 %, 90 % for validations starting at/after Helicon (ACP-267). */
export const UPTIME_REQUIREMENT = 0.8;
export const UPTIME_REQUIREMENT_HELICON = 0.9;

export function uptimeRequirement(startTime: bigint | undefined, heliconTime: number | undefined): number {
  if (startTime === undefined || heliconTime === undefined) return UPTIME_REQUIREMENT;
  return Number(startTime) >= heliconTime ? UPTIME_REQUIREMENT_HELICON : UPTIME_REQUIREMENT;
}

/**
 * Series of one validator entry; only the fields the entry has. L1 entries (ACP-77) have no
 * endTime/uptime/connected and a weight that is not stake: they give balance and weight. Legacy
 * permissioned-subnet entries (txID,startTime,endTime,weight,nodeID) give start and end only, as
 * their weight is not an AVAX amount either. The uptime requirement is a primary-network rule.
 */
export function entrySamples(subnet: string, v: PlatformValidator, c: PlatformValidatorsContext): Sample[] {
  const labels = { subnet, node_id: v.nodeID };
  const out: Sample[] = [sample('avax_validator_active', labels, 1)];
  if (v.connected !== undefined) out.push(sample('avax_validator_connected', labels, v.connected ? 1 : 0));
  if (v.uptime !== undefined) out.push(sample('avax_validator_uptime_ratio', labels, percentToRatio(v.uptime)));
  if (v.startTime !== undefined) out.push(sample('avax_validator_start_timestamp_seconds', labels, u64ToNumber(v.startTime)));
  if (isL1Validator(v)) {
    if (v.balance !== undefined) out.push(sample('avax_l1_validator_balance_avax', labels, navaxToAvax(v.balance)));
    if (v.weight !== undefined) out.push(sample('avax_l1_validator_weight', labels, u64ToNumber(v.weight)));
    return out;
  }
  if (v.endTime !== undefined) out.push(sample('avax_validator_end_timestamp_seconds', labels, u64ToNumber(v.endTime)));
  const staking = subnet === PRIMARY_NETWORK_ID || v.potentialReward !== undefined || v.delegatorWeight !== undefined;
  if (staking && v.weight !== undefined) out.push(sample('avax_validator_stake_avax', labels, navaxToAvax(v.weight)));
  if (v.delegatorCount !== undefined) out.push(sample('avax_validator_delegators', labels, v.delegatorCount));
  if (v.delegatorWeight !== undefined) out.push(sample('avax_validator_delegator_stake_avax', labels, navaxToAvax(v.delegatorWeight)));
  if (v.potentialReward !== undefined) out.push(sample('avax_validator_potential_reward_avax', labels, navaxToAvax(v.potentialReward)));
  if (v.delegationFee !== undefined) out.push(sample('avax_validator_delegation_fee_ratio', labels, percentToRatio(v.delegationFee)));
  if (subnet === PRIMARY_NETWORK_ID) {
    out.push(sample('avax_validator_uptime_requirement_ratio', labels, uptimeRequirement(v.startTime, c.heliconTime)));
    if (v.weight !== undefined && v.delegatorWeight !== undefined) {
      out.push(sample('avax_validator_delegation_capacity_avax', labels, navaxToAvax(delegationCapacityNavax(v.weight, v.delegatorWeight))));
    }
    // Only the node's own key is known (info.getNodeID); a registration without a signer does not match it.
    if (c.ownNodeId && v.nodeID === c.ownNodeId && c.ownBlsPublicKey) {
      const registered = v.signer?.publicKey?.toLowerCase();
      out.push(sample('avax_validator_bls_key_matches', { node_id: v.nodeID }, registered === c.ownBlsPublicKey ? 1 : 0));
    }
  }
  return out;
}

/** Per (subnet, watched ID): the entry's series, or avax_validator_active 0 when it is absent. */
export function toSamples(sets: readonly WatchedSet[], c: PlatformValidatorsContext): Sample[] {
  const out: Sample[] = [];
  for (const set of sets) {
    const byId = new Map(set.validators.map((v) => [v.nodeID, v]));
    for (const id of new Set(set.watched)) {
      const v = byId.get(id);
      if (v) out.push(...entrySamples(set.subnet, v, c));
      else out.push(sample('avax_validator_active', { subnet: set.subnet, node_id: id }, 0));
      if (c.expectedActive) out.push(sample('avax_validator_expected_active', { subnet: set.subnet, node_id: id }, c.expectedActive.has(id) ? 1 : 0));
    }
  }
  return out;
}

const HOUR_MS = 3_600_000;
const UPGRADES_RETRY_MS = 300_000;

/** info.upgrades heliconTime → Unix seconds; Infinity when unscheduled or unknown to the node. */
export function heliconFrom(u: InfoUpgradesResult): number {
  const t = u.heliconTime;
  return t === undefined || t >= UNSCHEDULED_SECONDS ? Number.POSITIVE_INFINITY : t;
}

/** Refreshes memo.heliconTime at most once an hour; a failure keeps 0.8 and never fails the collector. */
async function refreshHelicon(ctx: CollectorContext): Promise<void> {
  const now = ctx.now();
  if (ctx.memo.heliconAt !== undefined && now - ctx.memo.heliconAt < HOUR_MS) return;
  const failedAt = ctx.state.get('upgradesFailedAt') as number | undefined;
  if (failedAt !== undefined && now - failedAt < UPGRADES_RETRY_MS) return;
  const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.upgrades', {}, InfoUpgradesResult, { signal: ctx.signal }));
  if (r.ok) {
    ctx.memo.heliconTime = heliconFrom(r.value);
    ctx.memo.heliconAt = now;
    ctx.state.delete('upgradesFailedAt');
    onChange(ctx, 'upgrades', 'ok', () => {});
  } else {
    ctx.state.set('upgradesFailedAt', now);
    onChange(ctx, 'upgrades', 'failed', () =>
      ctx.log.warn({ err: r.error.message }, 'info.upgrades failed: assuming the 80 % uptime requirement'),
    );
  }
}

/**
 * The watched IDs: the configured ones; the node's own ID (memo, or info.getNodeID when unknown and
 * the target is not a reference) when none is configured, and also beside the configured ones with
 * --validator.expect-active (the flag is about the own ID). [] = nothing to watch.
 */
export async function watchedIds(ctx: CollectorContext): Promise<string[]> {
  const configured = ctx.target.validatorNodeIds;
  const needOwn = configured.length === 0 || ctx.target.expectActive === true;
  if (!needOwn) return [...configured];
  if (ctx.memo.nodeId === undefined && !ctx.target.reference) {
    ctx.memo.nodeId = await fetchNodeId(ctx);
    ctx.memo.nodeIdAt = ctx.now();
  }
  const own = ctx.memo.nodeId;
  return [...new Set([...configured, ...(own ? [own] : [])])];
}

export const platformValidators: Collector = {
  name: 'platform-validators',
  description: 'platform.getCurrentValidators for the watched node IDs on the primary network and every configured subnet.',
  needs: 'P-Chain API; the own NodeID (info.getNodeID) unless --validator.node-id is given',
  defaultIntervalSeconds: 15,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: (t) => 1 + t.subnets.length,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    let watched: string[];
    try {
      watched = await watchedIds(ctx);
    } catch (err) {
      return { samples: [], errors: [err instanceof Error ? err : new Error(String(err))] };
    }
    if (watched.length === 0) return { samples: [], errors: [] };
    const subnets = [PRIMARY_NETWORK_ID, ...ctx.target.subnets.filter((s) => s !== PRIMARY_NETWORK_ID)];
    const [, settled] = await Promise.all([
      refreshHelicon(ctx),
      settleAll(
        subnets.map((subnet) =>
          ctx.client.rpc(
            ENDPOINTS.platform,
            'platform.getCurrentValidators',
            subnet === PRIMARY_NETWORK_ID ? { nodeIDs: watched } : { subnetID: subnet, nodeIDs: watched },
            PlatformGetCurrentValidatorsResult,
            { signal: ctx.signal },
          ),
        ),
      ),
    ]);
    const sets: WatchedSet[] = [];
    settled.forEach((r, i) => {
      if (r.ok) sets.push({ subnet: subnets[i]!, watched, validators: r.value.validators });
    });
    const expected = new Set(ctx.target.validatorNodeIds);
    if (ctx.target.expectActive && ctx.memo.nodeId) expected.add(ctx.memo.nodeId);
    const c: PlatformValidatorsContext = {
      heliconTime: ctx.memo.heliconTime,
      ownNodeId: ctx.memo.nodeId,
      ownBlsPublicKey: ctx.memo.blsPublicKey,
      expectedActive: expected,
    };
    return { samples: toSamples(sets, c), errors: failures(settled) };
  },
};
