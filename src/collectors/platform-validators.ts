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
   * Per watched ID, the subnets where it must be an active validator (avax_validator_expected_active 1 there,
   * 0 on the other watched subnets): expectedSubnets(). Absent = no avax_validator_expected_active series.
   */
  readonly expected?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Reward uptime requirement of the primary network: 80 % (avalanchego genesis/genesis_mainnet.go and
 * genesis_fuji.go, StakingConfig.UptimeRequirement = .8), 90 % for validations starting at or after the
 * Helicon activation (ACP-267; docs/avalanchego-wire.md §9). The one home of these numbers: the derivations
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

/** autoCompoundRewardShares are millionths (avalanchego reward.PercentDenominator). */
const SHARES_DENOMINATOR = 1_000_000;

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
  if (v.accruedDelegateeReward !== undefined) out.push(sample('avax_validator_accrued_delegatee_reward_avax', labels, navaxToAvax(v.accruedDelegateeReward)));
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
    // ACP-236 config of an auto-renewed validator only (every other entry has none: avalanchego v1.15.0 api).
    if (v.autoCompoundRewardShares !== undefined) out.push(sample('avax_validator_auto_compound_reward_ratio', labels, v.autoCompoundRewardShares / SHARES_DENOMINATOR));
    if (v.authority?.threshold !== undefined) out.push(sample('avax_validator_authority_threshold', labels, v.authority.threshold));
    if (v.authority !== undefined) out.push(sample('avax_validator_authority_addresses', labels, v.authority.addresses));
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
      if (c.expected) out.push(sample('avax_validator_expected_active', { subnet: set.subnet, node_id: id }, c.expected.get(id)?.has(set.subnet) ? 1 : 0));
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

/** A subnet of the configuration: `primary` is the primary network. */
const subnetId = (s: string): string => (s === 'primary' ? PRIMARY_NETWORK_ID : s);

/**
 * Where each watched ID must be an active validator, per (node ID, subnet) pair; never the cross product of
 * the watched IDs and the watched subnets (a fleet whose nodes run different L1s and watch each other would
 * page forever):
 * - an ID given as `{ nodeId, subnets }`: exactly those subnets;
 * - the node's own ID, when it is configured or --validator.expect-active is on: the primary network and the
 *   configured subnets (--node.subnet, `subnets:`: the L1s the operator runs this node on);
 * - another configured ID (another node's, watched as a vantage): the primary network. Where else it
 *   validates is that node's configuration, not this one's.
 * The own ID watched by default (nothing configured, no expect-active) is expected nowhere (an API node), and
 * an L1 found by itself (subnet-chains: the node runs its chain) nowhere either: the node may only track it.
 */
export function expectedSubnets(target: CollectorContext['target'], ownNodeId: string | undefined): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const ids = new Set(target.validatorNodeIds);
  if (target.expectActive && ownNodeId) ids.add(ownNodeId);
  for (const id of ids) {
    const given = target.validatorSubnets?.[id];
    if (given) out.set(id, new Set(given.map(subnetId)));
    else if (id === ownNodeId) out.set(id, new Set([PRIMARY_NETWORK_ID, ...target.subnets]));
    else out.set(id, new Set([PRIMARY_NETWORK_ID]));
  }
  return out;
}

/** The subnets asked besides the primary network: the configured ones and those named for a watched ID. */
export function configuredSubnets(target: CollectorContext['target']): string[] {
  const named = Object.values(target.validatorSubnets ?? {}).flat().map(subnetId);
  return [...new Set([...target.subnets, ...named])].filter((s) => s !== PRIMARY_NETWORK_ID);
}

/** An auto-renewed validator (ACP-236) of a watched ID, as last seen in its current cycle (primary network). */
export interface CycleSeen {
  readonly nodeId: string;
  /** The AddAutoRenewedValidatorTx ID: the same in every cycle. */
  readonly txID: string;
  /** The cycle's startTime and endTime, Unix seconds. */
  readonly start: number;
  readonly end: number;
  /** weight, potentialReward and accruedDelegateeReward of the cycle, nAVAX. */
  readonly weight: bigint;
  readonly potentialReward: bigint;
  readonly delegateeReward: bigint;
  /** nextPeriod, seconds (0: leaves at the end of this cycle). */
  readonly nextPeriod: number;
  readonly rewardOwner: readonly string[];
  /** The weight when this exporter first saw this txID: weight − firstWeight = what it saw re-staked. */
  readonly firstWeight: bigint;
  /** When it was last seen, Unix seconds. */
  readonly seenAt: number;
}

/**
 * How a cycle of an auto-renewed validator ended, as platform.getCurrentValidators showed it (avalanchego
 * v1.15.0 txs/executor/proposal_tx_executor.go RewardAutoRenewedValidatorTx):
 * - `renewed`: the same txID again, startTime moved past this cycle's endTime. Only a committed reward tx
 *   renews (restakeAutoRenewedValidatorOnCommit), so the cycle was rewarded. `weightAfter` (the next
 *   cycle's weight) only when the next cycle starts at this one's end: no cycle was missed in between.
 * - `left`: the validator is gone and the cycle's end has passed: a graceful exit (nextPeriod 0, committed)
 *   or an abort (the requirement was missed). The reward UTXOs tell which (validator-rewards).
 */
export interface CycleEnd {
  readonly cycle: CycleSeen;
  readonly how: 'renewed' | 'left';
  readonly weightAfter?: bigint;
}

/** Cycle ends kept per watched ID in the published value (validator-rewards reads it every 5 minutes). */
export const CYCLE_ENDS_KEPT = 4;
/** Tolerated clock difference (s): the chain time may run ahead of this host's (avalanchego allows 10 s). */
export const CYCLE_END_SKEW_SECONDS = 60;

/** What platform-validators keeps between runs: the current cycle per watched ID and the last cycle ends. */
export interface CycleMemory {
  readonly current: Map<string, CycleSeen>;
  ends: CycleEnd[];
}

/** The cycle an auto-renewed primary-network entry is in, or undefined (not auto-renewed, or fields missing). */
export function cycleOf(v: PlatformValidatorUsed, nowS: number, previous: CycleSeen | undefined): CycleSeen | undefined {
  if (!isAutoRenewed(v) || v.txID === undefined || v.startTime === undefined || v.endTime === undefined || v.weight === undefined || v.potentialReward === undefined) return undefined;
  const same = previous?.txID === v.txID;
  return {
    nodeId: v.nodeID,
    txID: v.txID,
    start: u64ToNumber(v.startTime),
    end: u64ToNumber(v.endTime),
    weight: v.weight,
    potentialReward: v.potentialReward,
    delegateeReward: v.accruedDelegateeReward ?? 0n,
    nextPeriod: v.nextPeriod === undefined ? 0 : u64ToNumber(v.nextPeriod),
    rewardOwner: (v.rewardOwnerAddresses ?? []).slice(0, 16),
    firstWeight: same ? previous.firstWeight : v.weight,
    seenAt: nowS,
  };
}

/**
 * Follows the cycles of the watched auto-renewed validators through one primary-network answer. A cycle
 * ends when the same txID shows a later startTime (renewed) or when the validator is gone after the
 * cycle's end (left). Not judged: a validator gone before its cycle's end (the primary network has no
 * early exit: the answer or the watched IDs changed), and one last seen so long ago that a next cycle
 * could have begun and ended unseen (now ≥ end + nextPeriod).
 */
export function trackCycles(mem: CycleMemory, primary: WatchedSet, nowS: number): void {
  const byId = new Map(primary.validators.map((v) => [v.nodeID, v]));
  const watched = new Set(primary.watched);
  const ended: CycleEnd[] = [];
  for (const [id, prev] of mem.current) {
    const v = byId.get(id);
    if (watched.has(id) && v !== undefined && v.txID === prev.txID) continue;
    mem.current.delete(id);
    const due = prev.end <= nowS + CYCLE_END_SKEW_SECONDS;
    const unseenCycle = prev.nextPeriod > 0 && nowS >= prev.end + prev.nextPeriod;
    if (watched.has(id) && due && !unseenCycle) ended.push({ cycle: prev, how: 'left' });
  }
  for (const id of watched) {
    const v = byId.get(id);
    const prev = mem.current.get(id);
    const now = v === undefined ? undefined : cycleOf(v, nowS, prev);
    if (now === undefined) {
      mem.current.delete(id);
      continue;
    }
    if (prev !== undefined && now.start > prev.start) ended.push({ cycle: prev, how: 'renewed', ...(now.start === prev.end ? { weightAfter: now.weight } : {}) });
    mem.current.set(id, now);
  }
  if (ended.length === 0 && mem.ends.every((e) => watched.has(e.cycle.nodeId))) return;
  const ends = [...mem.ends, ...ended].filter((e) => watched.has(e.cycle.nodeId));
  mem.ends = ends.filter((e, i) => ends.slice(i + 1).filter((x) => x.cycle.nodeId === e.cycle.nodeId).length < CYCLE_ENDS_KEPT);
}

/** What platform-validators publishes: the watched entries per subnet (for the derivations). */
export interface PlatformValidatorsValue {
  readonly sets: readonly WatchedSet[];
  /** The primary-network call failed in this run (its set is missing because it is unknown, not empty). */
  readonly primaryFailed?: boolean;
  /** The last cycle ends of the watched auto-renewed validators (oldest first, CYCLE_ENDS_KEPT per ID). */
  readonly cycleEnds?: readonly CycleEnd[];
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
  description: 'platform.getCurrentValidators for the watched node IDs on the primary network and every watched subnet (configured, named for a watched ID, or an L1 whose chains the node runs).',
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
      avax_validator_accrued_delegatee_reward_avax:
        "Delegation fees earned in the current validation (an auto-renewed validator: its current cycle) from delegations that already ended (accruedDelegateeReward, on every permissionless entry), in AVAX: paid at the validation's end even without its reward; for an auto-renewed validator at the cycle's end, re-staked by the auto-compound share.",
      avax_validator_auto_compound_reward_ratio:
        "Share of each cycle's reward (validation reward and delegation fees) an auto-renewed validator re-stakes (ACP-236 autoCompoundRewardShares / 1,000,000): its weight grows by it at each renewal (up to the maximum validator stake), the rest is paid to the reward owners. Auto-renewed validators only.",
      avax_validator_authority_threshold:
        "Signatures the validatorAuthority of an auto-renewed validator needs: the owner that may change its next period and auto-compound share (ACP-236 SetAutoRenewedValidatorConfigTx). Auto-renewed validators only.",
      avax_validator_authority_addresses: 'Number of addresses of that validatorAuthority (1 with threshold 1: one key controls the config). Auto-renewed validators only.',
    }),
    gauge('avax_validator_bls_key_matches', "1 if the node's BLS public key (info.getNodeID) is the signer key registered on the P-Chain, 0 if not (or none is registered).", ['node_id']),
    ...gauges(SNID, {
      avax_validator_expected_active:
        "1 if the watched node ID must be an active validator of the subnet, per (node ID, subnet): an ID configured with its subnets ({ nodeId, subnets }) there; the node's own ID (configured, or with --validator.expect-active) on the primary network and the configured subnets (--node.subnet); another configured ID on the primary network. 0 on the other watched subnets (an L1 found by itself, another node's L1).",
      avax_l1_validator_balance_avax: 'L1 validator balance left for continuous fees, in AVAX.',
      avax_l1_validator_weight: 'L1 validator weight.',
    }),
  ],
  calls: [getWatchedValidatorsCall],
  // The cycles of the watched auto-renewed validators (memory only: an exporter restart starts over).
  memory: (): CycleMemory => ({ current: new Map(), ends: [] }),
  reads: ['node-info', 'info-upgrades'],
  // The subnets subnet-chains watches besides the configured ones (the L1s whose chains the node runs:
  // issue 23 item 1), as of its last run.
  readsLatest: ['subnet-chains'],
  requestsPerRun: (t) => 1 + configuredSubnets(t).length,
  async collect(ctx) {
    const own = ctx.read('node-info');
    const watched = watchedIds(ctx.target, own?.nodeId);
    if (watched.length === 0) return { value: { sets: [] }, samples: [], errors: [] };
    const found = ctx.read('subnet-chains')?.subnets ?? [];
    const subnets = [...new Set([PRIMARY_NETWORK_ID, ...configuredSubnets(ctx.target), ...found])];
    const answers = await Promise.all(subnets.map((subnet) => ctx.call(getWatchedValidatorsCall, { subnet, nodeIDs: watched })));
    const sets: WatchedSet[] = [];
    answers.forEach((r, i) => {
      if (r.ok) sets.push({ subnet: subnets[i]!, watched, validators: r.value.validators });
    });
    const c: PlatformValidatorsContext = {
      // Unknown (info-upgrades disabled or not answered yet): the 80 % requirement.
      heliconTime: ctx.read('info-upgrades')?.heliconTime,
      ownNodeId: own?.nodeId,
      ownBlsPublicKey: own?.blsPublicKey,
      expected: expectedSubnets(ctx.target, own?.nodeId || undefined),
    };
    // Each cycle is seen at this collector's pace (15 s): its last state before it ends, every renewal.
    const primary = answers[0]!.ok ? sets[0] : undefined;
    if (primary) trackCycles(ctx.memory, primary, Math.floor(ctx.now() / 1000));
    return { value: { sets, primaryFailed: !answers[0]!.ok, cycleEnds: ctx.memory.ends }, samples: toSamples(sets, c), errors: failures(answers) };
  },
});
