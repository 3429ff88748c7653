import { gauge, sample, type Sample } from '../model.js';
import { isL1Validator } from '../schemas/platform.js';
import { valueOf, type TargetSnapshot } from '../snapshot.js';
import { defineDerivation } from './define.js';

/** Seconds an L1 validator balance (nAVAX) lasts at `price` nAVAX per second. */
export function runwaySeconds(balanceNavax: bigint, priceNavaxPerSecond: number): number {
  return Math.round(Number(balanceNavax) / priceNavaxPerSecond);
}

/** The L1 validator fee price (nAVAX per second) of the target's network; undefined when unknown or not positive. */
export function feePrice(s: TargetSnapshot): number | undefined {
  const price = valueOf(s, 'platform-validator-fee')?.priceNavaxPerSecond;
  return price !== undefined && price > 0 ? price : undefined;
}

/**
 * avax_l1_validator_balance_runway_seconds{subnet,node_id}: balance / price of every watched L1
 * validator, at the current fee price (the price rises when more than the target number of L1
 * validators are active); 0 for an inactive validator (balance 0).
 */
export const l1Runway = defineDerivation({
  name: 'l1-runway',
  reads: ['platform-validators', 'platform-validator-fee'],
  metrics: [gauge('avax_l1_validator_balance_runway_seconds', 'Seconds until the L1 validator balance runs out at the current fee price (balance / price); 0 when inactive.', ['subnet', 'node_id'])],
  derive(s): Sample[] {
    const price = feePrice(s);
    if (price === undefined) return [];
    const out: Sample[] = [];
    for (const set of valueOf(s, 'platform-validators')?.sets ?? []) {
      const watched = new Set(set.watched);
      for (const v of set.validators) {
        if (!watched.has(v.nodeID) || !isL1Validator(v) || v.balance === undefined) continue;
        out.push(sample('avax_l1_validator_balance_runway_seconds', { subnet: set.subnet, node_id: v.nodeID }, runwaySeconds(v.balance, price)));
      }
    }
    return out;
  },
});
