// ACP-236 auto-renewed validators of the simulated node (version 1.15.0: Helicon active): which validators
// are auto-renewed, the own validator's cycles, and the members avalanchego master adds to their
// getCurrentValidators entries. Sources: ACP-236 "Auto-Renewed Staking" (a cycle of `period` seconds,
// renewed at its end; a config change takes effect at the end of the cycle; nextPeriod 0 = leave then);
// avalanchego vms/platformvm/txs/executor/standard_tx_executor_auto_renewed_test.go (the staker's
// StartTime/EndTime are the cycle's, StakingInfo.NextPeriod; HeliconMinStakeDuration, ACP-273: 48 hours);
// vms/platformvm/api/validator.go (the members follow `signer`).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
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

/**
 * The own validator's cycle at `nowS`: registered (AddAutoRenewedValidatorTx) a seeded day after Helicon,
 * then one cycle after the other without a gap.
 */
export function ownCycle(seed: number, nowS: number): Cycle {
  const registered = HELICON_UNIX + Math.floor(hf(seed, -1, 238) * DAY);
  const len = ownCycleLength(seed);
  const k = Math.max(0, Math.floor((nowS - registered) / len));
  const start = registered + k * len;
  return { k, start, end: start + len };
}

/**
 * The members of an auto-renewed entry, after `signer` (master's order): the config owner
 * (`validatorAuthority`), the next cycle's length (the same as this one: nobody changes the config here)
 * and the share of the reward re-staked (millionths: 0, 30 % or all, seeded).
 */
export function autoRenewMembers(seed: number, v: RenewableValidator, cycleLength: number): Record<string, unknown> {
  const roll = hf(seed, v.idx, 239);
  const shares = roll < 0.3 ? 0 : roll < 0.7 ? 300_000 : 1_000_000;
  return {
    validatorAuthority: { locktime: '0', threshold: '1', addresses: [v.rewardAddr] },
    nextPeriod: String(cycleLength),
    autoCompoundRewardShares: String(shares),
  };
}
