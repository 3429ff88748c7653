import { z } from 'zod';
import { bool, cb58Id, hexBytes, leanReader, list, objectItem, nodeId, object, percent, requiredObject, requiredString, smallInt, u64, type Walk } from './lean.js';
import { CB58Id, HexBytes, memberOrAlias, NodeId, Percentage, Rfc3339Seconds, SmallInt, U64, nullableArray } from './primitives.js';

/**
 * P-Chain API (`POST /ext/bc/P`), docs/avalanchego-wire.md §5 (avalanchego v1.14.2).
 *
 * platform.getCurrentValidators element shapes, all accepted by one schema (optional fields):
 * 1. primary network: txID, startTime, endTime, weight, nodeID, validationRewardOwner,
 *    delegationRewardOwner, potentialReward, accruedDelegateeReward, delegationFee, uptime,
 *    connected, signer, delegatorCount, delegatorWeight[, delegators];
 * 2. elastic subnet: the same without uptime and connected;
 * 3. legacy permissioned subnet: txID, startTime, endTime, weight, nodeID;
 * 4. L1 (ACP-77, v1.12.2+): nodeID, weight, startTime, validationID, publicKey,
 *    remainingBalanceOwner, deactivationOwner, minNonce, balance (no txID/endTime/uptime/connected).
 * 5. auto-renewed primary-network validators (ACP-236, avalanchego v1.15.0, active with Helicon): shape 1
 *    plus `validatorAuthority` (the owner allowed to change the config: locktime, threshold, addresses),
 *    `nextPeriod` (the next cycle's length in seconds, quoted; 0 = the validator leaves at the end of this
 *    cycle) and `autoCompoundRewardShares` (millionths of each cycle's reward re-staked, quoted), after
 *    `signer` (vms/platformvm/api/validator.go AutoRenewedConfig; nil, so absent, for every other entry: a
 *    genesis validator has none, test/fixtures/real-node-helicon). startTime/endTime are the current
 *    cycle's; the txID stays the AddAutoRenewedValidatorTx's in every cycle. An earlier master named them
 *    `configOwner` and `period` (api/validator.go at 374be72): `period` is read as `nextPeriod` when absent.
 * `accruedDelegateeReward` (v1.15.0: on every permissionless entry, also a genesis one) is the delegation
 * fee earned in the current validation or cycle from delegations that already ended (StakingInfo
 * .DelegateeReward): paid at the validation's end, or at the cycle's end (re-staked by the same share).
 * The spec's `stakeAmount` (instead of weight) and signer typo `proofOfPosession` are accepted.
 * Owner objects are stripped (they are the bulk of a mainnet answer), except the addresses of
 * validationRewardOwner (validator-rewards asks platform.getBalance for them) and the size of
 * validatorAuthority (its threshold and how many addresses: no address is exported).
 */

const Signer = z
  .object({
    publicKey: HexBytes.optional(),
    proofOfPossession: HexBytes.optional(),
    proofOfPosession: HexBytes.optional(),
  })
  .transform((s) => ({ publicKey: s.publicKey, proofOfPossession: s.proofOfPossession ?? s.proofOfPosession }));

/** OutputOwners: only the addresses are kept (`{"locktime":"0","threshold":"1","addresses":["P-avax1…"]}`). */
const OwnerAddresses = z.object({ addresses: nullableArray(z.string().max(128)) }).transform((o) => o.addresses);

/** validatorAuthority (ACP-236): its threshold and how many addresses it has (the addresses are not kept). */
const AuthoritySize = z
  .object({ threshold: SmallInt.optional(), addresses: nullableArray(z.string().max(128)) })
  .transform((o) => ({ threshold: o.threshold, addresses: o.addresses.length }));

const Delegator = z.object({
  txID: CB58Id.optional(),
  startTime: U64.optional(),
  endTime: U64.optional(),
  weight: U64.optional(),
  stakeAmount: U64.optional(),
  nodeID: NodeId.optional(),
  potentialReward: U64.optional(),
});

export const PlatformValidator = z
  .object({
    txID: CB58Id.optional(),
    startTime: U64.optional(),
    endTime: U64.optional(),
    weight: U64.optional(),
    stakeAmount: U64.optional(),
    nodeID: NodeId,
    validationRewardOwner: OwnerAddresses.nullish(),
    potentialReward: U64.optional(),
    accruedDelegateeReward: U64.optional(),
    delegationFee: Percentage.optional(),
    uptime: Percentage.optional(),
    connected: z.boolean().optional(),
    signer: Signer.nullish(),
    delegatorCount: SmallInt.optional(),
    delegatorWeight: U64.optional(),
    delegators: nullableArray(Delegator).optional(),
    // L1 (ACP-77)
    validationID: CB58Id.optional(),
    publicKey: HexBytes.optional(),
    minNonce: U64.optional(),
    balance: U64.optional(),
    // Auto-renewed validators (ACP-236, v1.15.0). Of the owners only the authority's size (configOwner: not read).
    validatorAuthority: AuthoritySize.nullish(),
    nextPeriod: U64.optional(),
    period: U64.optional(),
    autoCompoundRewardShares: SmallInt.optional(),
  })
  .transform(({ stakeAmount, validationRewardOwner, period, validatorAuthority, ...v }) => ({
    ...v,
    weight: v.weight ?? stakeAmount,
    rewardOwnerAddresses: validationRewardOwner ?? undefined,
    nextPeriod: v.nextPeriod ?? period,
    authority: validatorAuthority ?? undefined,
  }));
export type PlatformValidator = z.output<typeof PlatformValidator>;

/**
 * An auto-renewed validator (ACP-236): it has the next cycle's period or its auto-compound share. Every
 * other entry (v1.14.2, or a validation with a fixed end) is not: its endTime is the end of the validation.
 */
export function isAutoRenewed(v: Pick<PlatformValidator, 'nextPeriod' | 'autoCompoundRewardShares'>): boolean {
  return v.nextPeriod !== undefined || v.autoCompoundRewardShares !== undefined;
}

/** An L1 (ACP-77) validator entry: it has a validationID or a balance. */
export function isL1Validator(v: Pick<PlatformValidator, 'validationID' | 'balance'>): boolean {
  return v.validationID !== undefined || v.balance !== undefined;
}

/**
 * Whether an entry validates now: an L1 validator whose balance ran out (or that was disabled,
 * DisableL1ValidatorTx) is still listed, with balance 0, but is out of the validator set (it is not in
 * platform.getValidatorsAt). Every other entry of getCurrentValidators is active.
 */
export function isActive(v: Pick<PlatformValidator, 'validationID' | 'balance'>): boolean {
  return !isL1Validator(v) || v.balance === undefined || v.balance > 0n;
}

/** platform.getCurrentValidators {subnetID?, nodeIDs?}. Unknown nodeIDs are silently dropped. */
export const PlatformGetCurrentValidatorsResult = z.object({
  validators: nullableArray(PlatformValidator),
});
export type PlatformGetCurrentValidatorsResult = z.output<typeof PlatformGetCurrentValidatorsResult>;

/**
 * The fields of a validator entry the exporter reads: platform-validators (entrySamples, and the cycles
 * of auto-renewed validators), platform-validators-full (weight, delegatorWeight, connected, nodeID),
 * validator-rewards (txID, endTime, potentialReward, accruedDelegateeReward, rewardOwnerAddresses), the
 * derivations (delegation capacity, L1 runway, max achievable uptime) and isL1Validator (validationID,
 * balance). Of the signer, only publicKey; of validatorAuthority, its threshold and address count.
 * Not read: delegators, the L1 publicKey and minNonce, the proof of possession, the other owners. Every
 * PlatformValidator is one of these.
 */
export type PlatformValidatorUsed = Pick<
  PlatformValidator,
  | 'nodeID'
  | 'txID'
  | 'startTime'
  | 'endTime'
  | 'weight'
  | 'potentialReward'
  | 'accruedDelegateeReward'
  | 'delegationFee'
  | 'uptime'
  | 'connected'
  | 'delegatorCount'
  | 'delegatorWeight'
  | 'validationID'
  | 'balance'
  | 'rewardOwnerAddresses'
  | 'nextPeriod'
  | 'autoCompoundRewardShares'
  | 'authority'
> & { readonly signer?: { readonly publicKey: string | undefined } | null };

export interface PlatformGetCurrentValidatorsUsed {
  validators: PlatformValidatorUsed[];
}

const readValidator = objectItem((w, o): PlatformValidatorUsed => {
  const id = nodeId(w, o['nodeID'], 'nodeID') as string;
  const weight = u64(w, o['weight'], 'weight');
  // The spec's name of weight: validated whenever present, as the schema does.
  const stakeAmount = u64(w, o['stakeAmount'], 'stakeAmount');
  let signer: PlatformValidatorUsed['signer'];
  const s = o['signer'];
  if (s === null) signer = null;
  else {
    const so = object(w, s, 'signer');
    if (so !== undefined) {
      w.in('signer');
      signer = { publicKey: hexBytes(w, so['publicKey'], 'publicKey') };
      w.out();
    }
  }
  let rewardOwnerAddresses: string[] | undefined;
  const owner = object(w, o['validationRewardOwner'] ?? undefined, 'validationRewardOwner');
  if (owner !== undefined) {
    w.in('validationRewardOwner');
    rewardOwnerAddresses = list(w, owner['addresses'], 'addresses', readAddress);
    w.out();
  }
  return {
    nodeID: id,
    txID: cb58Id(w, o['txID'], 'txID'),
    startTime: u64(w, o['startTime'], 'startTime'),
    endTime: u64(w, o['endTime'], 'endTime'),
    weight: weight ?? stakeAmount,
    potentialReward: u64(w, o['potentialReward'], 'potentialReward'),
    accruedDelegateeReward: u64(w, o['accruedDelegateeReward'], 'accruedDelegateeReward'),
    delegationFee: percent(w, o['delegationFee'], 'delegationFee'),
    uptime: percent(w, o['uptime'], 'uptime'),
    connected: bool(w, o['connected'], 'connected'),
    delegatorCount: smallInt(w, o['delegatorCount'], 'delegatorCount'),
    delegatorWeight: u64(w, o['delegatorWeight'], 'delegatorWeight'),
    validationID: cb58Id(w, o['validationID'], 'validationID'),
    balance: u64(w, o['balance'], 'balance'),
    // ACP-236 (master): `period` is the earlier name of `nextPeriod`; both validated when present, as the schema does.
    ...autoRenewFields(w, o),
    signer,
    rewardOwnerAddresses,
  };
});

/**
 * nextPeriod (or its earlier name period), autoCompoundRewardShares and the size of validatorAuthority,
 * only when present (v1.14.2, and every entry that is not auto-renewed, has none).
 */
function autoRenewFields(w: Walk, o: Record<string, unknown>): Pick<PlatformValidatorUsed, 'nextPeriod' | 'autoCompoundRewardShares' | 'authority'> {
  const next = u64(w, o['nextPeriod'], 'nextPeriod');
  const period = u64(w, o['period'], 'period');
  const shares = smallInt(w, o['autoCompoundRewardShares'], 'autoCompoundRewardShares');
  let authority: PlatformValidatorUsed['authority'];
  const a = object(w, o['validatorAuthority'] ?? undefined, 'validatorAuthority');
  if (a !== undefined) {
    w.in('validatorAuthority');
    authority = { threshold: smallInt(w, a['threshold'], 'threshold'), addresses: list(w, a['addresses'], 'addresses', readAddress).length };
    w.out();
  }
  return { nextPeriod: next ?? period, autoCompoundRewardShares: shares, authority };
}

/** An owner address: a string of at most 128 characters (validator-rewards checks the P-Chain address). */
function readAddress(w: Walk, v: unknown, i: number): string | undefined {
  return requiredString(w, v, i, 128);
}

/**
 * Lean reader of platform.getCurrentValidators (full list and nodeIDs-filtered): the used fields of
 * each entry (PlatformValidatorUsed), validated like PlatformGetCurrentValidatorsResult; the rest of
 * the 1.4 MB mainnet answer is not looked at.
 */
export const PlatformGetCurrentValidatorsLean = leanReader((w, v): PlatformGetCurrentValidatorsUsed => {
  const o = requiredObject(w, v, undefined);
  return { validators: o === undefined ? [] : list(w, o['validators'], 'validators', readValidator) };
});

/** platform.getHeight: `{"height":"23961402"}`. */
export const PlatformGetHeightResult = z.object({ height: U64 });
export type PlatformGetHeightResult = z.output<typeof PlatformGetHeightResult>;

/**
 * platform.getTimestamp: `{"timestamp":"2026-05-14T09:21:31Z"}` (node-local zone, 1 s precision).
 * The spec's signature names the member `time`; both are accepted, output is `timestamp` (Unix s).
 */
export const PlatformGetTimestampResult = memberOrAlias('timestamp', 'time', Rfc3339Seconds);
export type PlatformGetTimestampResult = z.output<typeof PlatformGetTimestampResult>;

/**
 * platform.getValidatorFeeState (v1.12.2+): `{"excess":0,"price":512,"timestamp":"…"}`, numbers on the
 * wire (strings tolerated). `price` is the continuous L1 validator fee in nAVAX per second.
 */
export const PlatformGetValidatorFeeStateResult = z.object({
  excess: U64.optional(),
  price: U64,
  timestamp: Rfc3339Seconds.optional(),
});
export type PlatformGetValidatorFeeStateResult = z.output<typeof PlatformGetValidatorFeeStateResult>;
