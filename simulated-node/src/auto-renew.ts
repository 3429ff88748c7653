// ACP-236 auto-renewed validators of the simulated node (version 1.15.0: Helicon active): which validators
// are auto-renewed, the own validator's cycles, the members avalanchego v1.15.0 adds to their
// getCurrentValidators entries, and what each cycle pays. Sources: ACP-236 "Auto-Renewed Staking" (a cycle
// of `period` seconds, renewed at its end; nextPeriod 0 = leave then); avalanchego v1.15.0
// vms/platformvm/txs/executor/proposal_tx_executor.go (RewardAutoRenewedValidatorTx: a commit re-stakes
// reward.Split(reward, autoCompoundRewardShares) of the potential reward and of the delegation fees into the
// weight, up to MaxValidatorStake, and pays the rest; an abort removes the validator, returns the re-staked
// rewards and the fees and forfeits the cycle's potential reward), reward/calculator.go (Split),
// api/validator.go (the members follow `signer`, only on auto-renewed entries: a genesis validator has none,
// test/fixtures/real-node-helicon); HeliconMinStakeDuration (ACP-273): 48 hours.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { hf } from './deterministic-random.js';
import { DAY } from './mainnet-constants.js';
import { HELICON_UNIX } from './versions.js';

/** What this file needs of a validator (validator-registry.ts's ValidatorDef satisfies it). */
export interface RenewableValidator {
  readonly idx: number; // -1 = this node
  readonly end0: number;
  readonly dur: number;
  readonly rewardAddr: string;
}

/** A cycle: the k-th since registration, start and end (unix s). */
export interface Cycle {
  k: number;
  start: number;
  end: number;
}

/** ACP-273: the minimum stake duration after Helicon (HeliconMinStakeDuration). */
const MIN_CYCLE = 2 * DAY;

/**
 * Whether `v` is auto-renewed at `nowS` on a node whose version has them: the own validator always (its
 * operator chose auto-renewal), about 40 % of the others (seeded); none before Helicon's activation.
 */
export function isAutoRenewed(seed: number, enabled: boolean, v: RenewableValidator, nowS: number): boolean {
  if (!enabled || nowS < HELICON_UNIX) return false;
  return v.idx === -1 || hf(seed, v.idx, 236) < 0.4;
}

/** The own validator's cycle length: 48 hours (ACP-273's minimum) to 7 days, seeded. */
export function ownCycleLength(seed: number): number {
  return MIN_CYCLE + Math.floor(hf(seed, -1, 237) * 5) * DAY;
}

/** When the own validator was registered (AddAutoRenewedValidatorTx): a seeded time in the day after Helicon. */
export function ownRegisteredAt(seed: number): number {
  return HELICON_UNIX + Math.floor(hf(seed, -1, 238) * DAY);
}

/**
 * The own validator's cycle at `nowS`: registered (AddAutoRenewedValidatorTx) a seeded day after Helicon,
 * then one cycle after the other without a gap.
 */
export function ownCycle(seed: number, nowS: number): Cycle {
  const registered = ownRegisteredAt(seed);
  const len = ownCycleLength(seed);
  const k = Math.max(0, Math.floor((nowS - registered) / len));
  const start = registered + k * len;
  return { k, start, end: start + len };
}

/** The share of each cycle's reward `v` re-stakes, millionths: 0, 30 % or all, seeded. */
export function autoCompoundShares(seed: number, v: RenewableValidator): number {
  const roll = hf(seed, v.idx, 239);
  return roll < 0.3 ? 0 : roll < 0.7 ? 300_000 : 1_000_000;
}

/**
 * The members of an auto-renewed entry, after `signer` (v1.15.0's order): the config owner
 * (`validatorAuthority`), the next cycle's length (the same as this one: nobody changes the config here)
 * and the share of the reward re-staked.
 */
export function autoRenewMembers(seed: number, v: RenewableValidator, cycleLength: number): Record<string, unknown> {
  return {
    validatorAuthority: { locktime: '0', threshold: '1', addresses: [v.rewardAddr] },
    nextPeriod: String(cycleLength),
    autoCompoundRewardShares: String(autoCompoundShares(seed, v)),
  };
}

// --- What the cycles pay (the own validator's: the one whose rewards are judged) ---------------------------

const YEAR = 365 * DAY;
const MILLION = 1_000_000n;
/** avalanchego's MaxValidatorStake on mainnet: 3,000,000 AVAX. */
const MAX_VALIDATOR_STAKE = 3_000_000n * 1_000_000_000n;

/** The simulator's potential reward of a validation or cycle [start, end] of `weight`: 7.2 % a year. */
export function potentialRewardOf(weight: bigint, start: number, end: number): bigint {
  return (weight * BigInt(Math.round(((0.072 * (end - start)) / YEAR) * 1e6))) / MILLION;
}

/** The delegation fees earned after `elapsed` seconds on `deleg` at `fee` % (accruedDelegateeReward). */
export function delegateeRewardOf(deleg: bigint, fee: number, elapsed: number): bigint {
  return (deleg * BigInt(Math.round(((0.072 * elapsed) / YEAR) * (fee / 100) * 1e6))) / MILLION;
}

/** reward.Split: the part of `amount` taken by `shares` millionths (the rest is floor((1e6 - shares) x amount / 1e6)). */
export function restakedPart(amount: bigint, shares: number): bigint {
  return amount - ((MILLION - BigInt(shares)) * amount) / MILLION;
}

/** One cycle of an auto-renewed validator as the P-Chain settled it (or will, for the current one). */
export interface CycleLedger {
  readonly start: number;
  readonly end: number;
  /** The weight during the cycle; the potential reward and the delegation fees at its end, nAVAX. */
  readonly weight: bigint;
  readonly potential: bigint;
  readonly delegatee: bigint;
  /** Re-staked at a commit (into the next cycle's weight), and paid out (the reward UTXOs). */
  readonly restakedValidation: bigint;
  readonly restakedDelegatee: bigint;
  readonly withdrawnValidation: bigint;
  readonly withdrawnDelegatee: bigint;
}

/**
 * The ledger of a registration's cycles, each committed (proposal_tx_executor.go
 * restakeAutoRenewedValidatorOnCommit): the weight starts at `own` and grows by what each cycle re-stakes,
 * capped at MaxValidatorStake (split between validation and delegation rewards like avalanchego).
 */
export function cycleLedgers(own: bigint, deleg: bigint, fee: number, shares: number, cycles: readonly { start: number; end: number }[]): CycleLedger[] {
  const out: CycleLedger[] = [];
  let weight = own;
  for (const c of cycles) {
    const potential = potentialRewardOf(weight, c.start, c.end);
    const delegatee = delegateeRewardOf(deleg, fee, c.end - c.start);
    let rv = restakedPart(potential, shares);
    let rd = restakedPart(delegatee, shares);
    const capacity = MAX_VALIDATOR_STAKE > weight ? MAX_VALIDATOR_STAKE - weight : 0n;
    if (rv + rd > capacity) {
      const total = rv + rd;
      rv = (rv * capacity) / total;
      rd = capacity - rv;
    }
    out.push({ start: c.start, end: c.end, weight, potential, delegatee, restakedValidation: rv, restakedDelegatee: rd, withdrawnValidation: potential - rv, withdrawnDelegatee: delegatee - rd });
    weight += rv + rd;
  }
  return out;
}
