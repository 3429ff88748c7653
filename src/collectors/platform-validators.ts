import { gauge, gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, failures, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { isActive, isAutoRenewed, isL1Validator, PlatformGetCurrentValidatorsLean, type PlatformValidatorUsed } from '../schemas/platform.js';
import { navaxToAvax, percentToRatio, u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, type CollectorContext, type CollectorOf } from './define.js';

/** One platform.getCurrentValidators answer for the watched IDs of one subnet. */
export interface WatchedSet {
  /** CB58 subnet ID (PRIMARY_NETWORK_ID for the primary network). */
  readonly subnet: string;
  readonly watched: readonly string[];
  readonly validators: readonly PlatformValidatorUsed[];
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
  /**
   * Where they must be: the primary network and the configured subnets (--node.subnet). An L1 found by
   * itself (the node runs its chain) says nothing of the other IDs, and the node may only track it:
   * expected_active 0 there. Undefined: every subnet.
   */
  readonly expectedSubnets?: ReadonlySet<string>;
}

/**
 * Reward uptime requirement of the primary network: 80 % (avalanchego genesis/genesis_mainnet.go and
 * genesis_fuji.go, StakingConfig.UptimeRequirement = .8), 90 % for validations starting at or after the
 * Helicon activation (ACP-267; AVALANCHEGO.md §9). The one home of these numbers: the derivations
 * (max-achievable-uptime.ts) ask uptimeRequirement() too.
 */
export const UPTIME_REQUIREMENT = 0.8;
export const UPTIME_REQUIREMENT_HELICON = 0.9;

/**
 * The requirement the node's rules set for one validation (or one cycle of an auto-renewed validator:
 * its startTime is the cycle's start). Helicon time unknown (info-upgrades off or not answered yet): 80 %,
 * except for an auto-renewed validator (ACP-236), which exists only once Helicon is active (avalanchego
 * txs/executor: AddAutoRenewedValidatorTx before Helicon fails with errHeliconUpgradeNotActive): 90 %.
 */
export function uptimeRequirement(startTime: bigint | undefined, heliconTime: number | undefined, autoRenewed = false): number {
  if (autoRenewed) return UPTIME_REQUIREMENT_HELICON;
  if (startTime === undefined || heliconTime === undefined) return UPTIME_REQUIREMENT;
  return Number(startTime) >= heliconTime ? UPTIME_REQUIREMENT_HELICON : UPTIME_REQUIREMENT;
}

/**
 * Series of one validator entry; only the fields the entry has. L1 entries (ACP-77) have no
 * endTime/uptime/connected and a weight that is not stake: they give balance and weight. Legacy
 * permissioned-subnet entries (txID,startTime,endTime,weight,nodeID) give start and end only, as
 * their weight is not an AVAX amount either. The uptime requirement is a primary-network rule.
 */
export function entrySamples(subnet: string, v: PlatformValidatorUsed, c: PlatformValidatorsContext): Sample[] {
  const labels = { subnet, node_id: v.nodeID };
  // A listed L1 validator with balance 0 is out of the validator set (issue 23 item 6).
  const out: Sample[] = [sample('avax_validator_active', labels, isActive(v) ? 1 : 0)];
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
    const renewed = isAutoRenewed(v);
    out.push(sample('avax_validator_uptime_requirement_ratio', labels, uptimeRequirement(v.startTime, c.heliconTime, renewed)));
    // ACP-236: an auto-renewed validator's startTime/endTime are its current cycle's; the reward (and
    // whether it is re-staked or removed) is decided at that boundary. A fixed validation: its end.
    out.push(sample('avax_validator_auto_renewed', labels, renewed ? 1 : 0));
    if (v.endTime !== undefined) out.push(sample('avax_validator_cycle_end_timestamp_seconds', labels, u64ToNumber(v.endTime)));
    // A validation with a fixed end has no next period: 0, as for an auto-renewed one that asked to leave.
    const next = renewed ? (v.nextPeriod !== undefined ? u64ToNumber(v.nextPeriod) : undefined) : 0;
    if (next !== undefined) out.push(sample('avax_validator_next_period_seconds', labels, next));
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
      const expectedHere = c.expectedSubnets?.has(set.subnet) ?? true;
      if (c.expectedActive) out.push(sample('avax_validator_expected_active', { subnet: set.subnet, node_id: id }, expectedHere && c.expectedActive.has(id) ? 1 : 0));
    }
  }
  return out;
}

/**
 * The watched IDs: the configured ones; the node's own ID (node-info) when none is configured, and
 * also beside the configured ones with --validator.expect-active (the flag is about the own ID).
 * [] = nothing to watch (own ID unknown yet, or a public server).
 */
export function watchedIds(target: CollectorContext['target'], ownNodeId: string | undefined): string[] {
  const configured = target.validatorNodeIds;
  const needOwn = configured.length === 0 || target.expectActive === true;
  if (!needOwn) return [...configured];
  return [...new Set([...configured, ...(ownNodeId ? [ownNodeId] : [])])];
}

/** What platform-validators publishes: the watched entries per subnet (for the derivations). */
export interface PlatformValidatorsValue {
  readonly sets: readonly WatchedSet[];
  /** The primary-network call failed in this run (its set is missing because it is unknown, not empty). */
  readonly primaryFailed?: boolean;
}

const SNID = ['subnet', 'node_id'];

/** The watched IDs' entries on one subnet: always with the nodeIDs filter (the full list is platform-validators-full's). */
export const getWatchedValidatorsCall = rpcCall({
  method: 'platform.getCurrentValidators',
  endpoint: ENDPOINTS.platform,
  wire: (p: { subnet: string; nodeIDs: readonly string[] }) => (p.subnet === PRIMARY_NETWORK_ID ? { nodeIDs: p.nodeIDs } : { subnetID: p.subnet, nodeIDs: p.nodeIDs }),
  result: PlatformGetCurrentValidatorsLean,
  recognise: (p) => Array.isArray(p['nodeIDs']),
});

export const platformValidators: CollectorOf<'platform-validators', PlatformValidatorsValue> = defineCollector({
  name: 'platform-validators',
  description: 'platform.getCurrentValidators for the watched node IDs on the primary network and every watched subnet (configured, or an L1 whose chains the node runs).',
  needs: 'P-Chain API; the own NodeID (node-info) unless --validator.node-id is given; Helicon time (info-upgrades) for the 90 % requirement',
  interval: 15,
  metrics: [
    ...gauges(SNID, {
      avax_validator_active: '1 if the watched node ID is an active validator of the subnet (platform.getCurrentValidators), 0 if absent or an L1 validator with balance 0 (disabled or out of balance: listed, but out of the validator set).',
      avax_validator_connected: 'connected, as the queried node sees the validator.',
      avax_validator_uptime_ratio: "The queried node's local view of the validator's uptime, as a ratio.",
      avax_validator_start_timestamp_seconds: 'Start of the validation, Unix seconds.',
      avax_validator_end_timestamp_seconds: 'End of the validation, Unix seconds.',
      avax_validator_stake_avax: "The validator's own stake (weight), in AVAX.",
      avax_validator_delegators: 'Number of current delegators.',
      avax_validator_delegator_stake_avax: 'Stake delegated to the validator, in AVAX.',
      avax_validator_potential_reward_avax: 'Reward of the validation if the uptime requirement is met, in AVAX.',
      avax_validator_delegation_fee_ratio: 'Delegation fee, as a ratio.',
      avax_validator_uptime_requirement_ratio: 'Uptime needed for rewards in this validation (for an auto-renewed validator: in its current cycle), primary network: 0.8, or 0.9 for validations started at or after the Helicon upgrade (ACP-267) and for every auto-renewed cycle (ACP-236).',
      avax_validator_auto_renewed: '1 if the primary-network validation is auto-renewed (ACP-236, avalanchego master: nextPeriod or autoCompoundRewardShares in getCurrentValidators), 0 for a validation with a fixed end (every v1.14.2 validation).',
      avax_validator_cycle_end_timestamp_seconds: 'The reward boundary, Unix seconds: the end of the current cycle of an auto-renewed validator (re-staked there if the uptime requirement is met, removed without reward if not), the end of the validation otherwise.',
      avax_validator_next_period_seconds: "Length of an auto-renewed validator's next cycle (ACP-236 nextPeriod), seconds; 0 = it leaves at the end of the current cycle or validation (every validation with a fixed end).",
    }),
    gauge('avax_validator_bls_key_matches', "1 if the node's BLS public key (info.getNodeID) is the signer key registered on the P-Chain, 0 if not (or none is registered).", ['node_id']),
    ...gauges(SNID, {
      avax_validator_expected_active: '1 if the watched node ID must be an active validator of the subnet (--validator.node-id, or the own ID with --validator.expect-active): on the primary network and the configured subnets (--node.subnet); 0 on an L1 found by itself.',
      avax_l1_validator_balance_avax: 'L1 validator balance left for continuous fees, in AVAX.',
      avax_l1_validator_weight: 'L1 validator weight.',
    }),
  ],
  calls: [getWatchedValidatorsCall],
  reads: ['node-info', 'info-upgrades'],
  // The subnets subnet-chains watches besides the configured ones (the L1s whose chains the node runs:
  // issue 23 item 1), as of its last run.
  readsLatest: ['subnet-chains'],
  requestsPerRun: (t) => 1 + t.subnets.length,
  async collect(ctx) {
    const own = ctx.read('node-info');
    const watched = watchedIds(ctx.target, own?.nodeId);
    if (watched.length === 0) return { value: { sets: [] }, samples: [], errors: [] };
    const found = ctx.read('subnet-chains')?.subnets ?? [];
    const subnets = [...new Set([PRIMARY_NETWORK_ID, ...ctx.target.subnets, ...found])];
    const answers = await Promise.all(subnets.map((subnet) => ctx.call(getWatchedValidatorsCall, { subnet, nodeIDs: watched })));
    const sets: WatchedSet[] = [];
    answers.forEach((r, i) => {
      if (r.ok) sets.push({ subnet: subnets[i]!, watched, validators: r.value.validators });
    });
    const expected = new Set(ctx.target.validatorNodeIds);
    if (ctx.target.expectActive && own?.nodeId) expected.add(own.nodeId);
    const c: PlatformValidatorsContext = {
      // Unknown (info-upgrades disabled or not answered yet): the 80 % requirement.
      heliconTime: ctx.read('info-upgrades')?.heliconTime,
      ownNodeId: own?.nodeId,
      ownBlsPublicKey: own?.blsPublicKey,
      expectedActive: expected,
      expectedSubnets: new Set([PRIMARY_NETWORK_ID, ...ctx.target.subnets]),
    };
    return { value: { sets, primaryFailed: !answers[0]!.ok }, samples: toSamples(sets, c), errors: failures(answers) };
  },
});
