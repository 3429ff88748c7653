// The own validation in the reward-outcome scenarios (issue 14), with a fixed end or auto-renewed (ACP-236,
// version 1.15.0: ownAutoRenewRegistrations below). With a fixed end: `reward-paid` and `reward-missed` end
// the own primary-network validation current at the switch REWARD_END_AFTER_S seconds after it (its
// RewardValidatorTx is accepted then: the entry leaves getCurrentValidators); the node is re-staked at
// once with a new AddPermissionlessValidatorTx (a new txID, period key k + RESTAKE_K). In reward-missed
// the ending validation has a txID of its own (key + MISSED_K): switched to from healthy, the own txID
// changes at the switch (the healthy one leaves before its end, which the exporter ignores).
// `reward-missed-watched` ends the validation current at the switch without a reward: its txID is the
// one a watcher has seen for weeks.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
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

/** The txID key (validator-registry validatorTxId) of the own auto-renewed registration in healthy. */
export const AUTO_RENEW_KEY = -1;

/** One AddAutoRenewedValidatorTx of the own validator: its txID key and its cycles so far. */
export interface OwnRegistration {
  readonly key: number;
  /** From its first cycle to the current one (or to its last, when it ended). */
  readonly cycles: readonly { readonly start: number; readonly end: number }[];
  /** Its last cycle ended with an abort (RewardAutoRenewedValidatorTx aborted): the validator was removed. */
  readonly aborted: boolean;
}

/** Cycles of `len` from `first` up to the one in progress at `nowS` (the first one even if it has not begun). */
function cyclesFrom(first: number, len: number, nowS: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let start = first; out.length === 0 || start <= nowS; start += len) out.push({ start, end: start + len });
  return out;
}

/**
 * The own auto-renewed validator's registrations up to `nowS`, oldest first. In healthy (and the scenarios
 * that only move the current period): one, `registered` on, cycles of `len` one after the other. The reward
 * scenarios end the cycle in progress at the switch rewardEndAfterS(outcome) after it: `reward-paid` with a
 * commit (the next cycle starts at that end, same txID, the weight grown by the re-staked share);
 * `reward-missed` with an abort of a registration of its own (a txID of its own, registered at that cycle's
 * start: the own txID changes at the switch, as for a fixed end) and `reward-missed-watched` with an abort of
 * the registration current at the switch. After an abort the validator is registered again at once (a new
 * AddAutoRenewedValidatorTx: another txID, its first cycle from that end).
 */
export function ownAutoRenewRegistrations(outcome: 'paid' | 'missed' | 'missed-watched' | undefined, switchS: number, registered: number, len: number, nowS: number): OwnRegistration[] {
  if (outcome === undefined) return [{ key: AUTO_RENEW_KEY, cycles: cyclesFrom(registered, len, nowS), aborted: false }];
  const end = switchS + rewardEndAfterS(outcome);
  const atSwitch = cyclesFrom(registered, len, switchS);
  const current = { start: atSwitch[atSwitch.length - 1]!.start, end };
  const history = outcome === 'missed' ? [current] : [...atSwitch.slice(0, -1), current];
  const key = outcome === 'missed' ? AUTO_RENEW_KEY - MISSED_K : AUTO_RENEW_KEY;
  if (nowS < end) return [{ key, cycles: history, aborted: false }];
  const after = cyclesFrom(end, len, nowS);
  if (outcome === 'paid') return [{ key, cycles: [...history, ...after], aborted: false }];
  return [
    { key, cycles: history, aborted: true },
    { key: AUTO_RENEW_KEY - RESTAKE_K, cycles: after, aborted: false },
  ];
}
