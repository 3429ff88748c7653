import { gauge, type Sample } from '../model.js';
import type { L1Stake } from '../collectors/subnet-chains.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation, perSubnet } from './define.js';
import { feePrice, runwaySeconds } from './l1-runway.js';

/**
 * The balance runway below which an L1 validator's weight counts as at risk: 7 days, the default of the
 * monitoring threshold l1RunwayWarning (AvalancheL1ValidatorBalanceLow warning), so that the share and the
 * per-validator warning speak of the same week.
 */
export const WEIGHT_AT_RISK_RUNWAY_SECONDS = 7 * 86400;

/**
 * Share (0-1) of the L1's validator weight whose balance lasts less than `horizonSeconds` at `price`
 * nAVAX per second (balance 0, an inactive validator, included: its weight still counts in the L1's total
 * and does not vote); undefined when the L1 lists no weight. Rounded to 6 decimals.
 */
export function weightAtRisk(stakes: readonly L1Stake[], priceNavaxPerSecond: number, horizonSeconds = WEIGHT_AT_RISK_RUNWAY_SECONDS): number | undefined {
  let total = 0n;
  let risk = 0n;
  for (const v of stakes) {
    total += v.weight;
    if (runwaySeconds(v.balance, priceNavaxPerSecond) < horizonSeconds) risk += v.weight;
  }
  if (total === 0n) return undefined;
  return Number((risk * 1_000_000n) / total) / 1_000_000;
}

/**
 * avax_l1_weight_at_risk_ratio{subnet}: per watched L1, the share of its weight whose validators' balances
 * run out within 7 days at the current fee price. A third of the weight out of balance halts the L1, and
 * it stays halted after a top-up (builders-hub#4132). From the L1's validator list (subnet-chains, asked
 * once per network) and the fee price (platform-validator-fee); none for a permissioned subnet (no L1
 * validators) or without a price (before Etna).
 */
export const l1WeightAtRisk = defineDerivation({
  name: 'l1-weight-at-risk',
  reads: ['subnet-chains', 'platform-validator-fee'],
  metrics: [gauge('avax_l1_weight_at_risk_ratio', "Share (0-1) of the L1's validator weight whose balance runs out within 7 days at the current fee price (balance / price < 7 d; inactive validators, balance 0, included). A third halts the L1. From the L1's validator list; absent for a permissioned subnet and before Etna.", ['subnet'])],
  derive(s): Sample[] {
    const price = feePrice(s);
    if (price === undefined) return [];
    const stakes = valueOf(s, 'subnet-chains')?.l1Stakes ?? [];
    return perSubnet('avax_l1_weight_at_risk_ratio', [...stakes].map(([subnet, l1]) => [subnet, weightAtRisk(l1, price)]));
  },
});
