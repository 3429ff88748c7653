// The own validation in the reward-outcome scenarios (issue 14): `reward-paid` and `reward-missed` end
// the own primary-network validation current at the switch REWARD_END_AFTER_S seconds after it (its
// RewardValidatorTx is accepted then: the entry leaves getCurrentValidators); the node is re-staked at
// once with a new AddPermissionlessValidatorTx (a new txID, period key k + RESTAKE_K). In reward-missed
// the ending validation has a txID of its own (key + MISSED_K): switched to from healthy, the own txID
// changes at the switch (the healthy one leaves before its end, which the exporter ignores).
// `reward-missed-watched` ends the validation current at the switch without a reward: its txID is the
// one a watcher has seen for weeks.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
import { DAY } from './mainnet-constants.js';

/** Seconds from the switch to the end of the own validation. */
export const REWARD_END_AFTER_S = 60;
/**
 * reward-missed-watched: the end is 10 minutes after the switch, so that a watcher asking every 5
 * minutes sees the validation's end time before it passes (a real validation's end time is known
 * from its registration on).
 */
export const WATCHED_END_AFTER_S = 600;

/** Seconds from the switch to the end of the own validation in a reward scenario. */
export function rewardEndAfterS(outcome: 'paid' | 'missed' | 'missed-watched'): number {
  return outcome === 'missed-watched' ? WATCHED_END_AFTER_S : REWARD_END_AFTER_S;
}
/** Added to the period key of the re-staked validation (its txID differs from every natural renewal). */
const RESTAKE_K = 1000;
/** reward-missed ends a validation of its own (period key + MISSED_K), so that a switch from reward-paid does not bring back the txID that already ended. */
const MISSED_K = 500;
/** Duration of the re-staked validation. */
const RESTAKE_DURATION_S = 28 * DAY;

/**
 * The own period in a reward scenario (`validators.rewardOutcome`): `atSwitch` (the period current
 * at the switch) until the switch + REWARD_END_AFTER_S, then the re-staked one.
 */
export function rewardOutcomePeriod(
  outcome: 'paid' | 'missed' | 'missed-watched',
  switchS: number,
  atSwitch: { k: number; start: number },
  nowS: number,
): { k: number; start: number; end: number } {
  const end = switchS + rewardEndAfterS(outcome);
  const k = atSwitch.k + (outcome === 'missed' ? MISSED_K : 0);
  if (nowS < end) return { k, start: atSwitch.start, end };
  return { k: k + RESTAKE_K, start: end, end: end + RESTAKE_DURATION_S };
}
