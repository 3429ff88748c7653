import { gauge, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { isL1Validator } from '../schemas/platform.js';
import { navaxToAvax } from '../schemas/primitives.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/** Primary network (mainnet and Fuji): total weight ≤ 5 × own stake and ≤ 3,000,000 AVAX. */
export const MAX_VALIDATOR_WEIGHT_FACTOR = 5n;
export const MAX_VALIDATOR_WEIGHT_NAVAX = 3_000_000n * 1_000_000_000n;

/** Stake that can still be delegated to a primary-network validator, in nAVAX (never below 0). */
export function delegationCapacityNavax(own: bigint, delegated: bigint): bigint {
  const cap = own * MAX_VALIDATOR_WEIGHT_FACTOR < MAX_VALIDATOR_WEIGHT_NAVAX ? own * MAX_VALIDATOR_WEIGHT_FACTOR : MAX_VALIDATOR_WEIGHT_NAVAX;
  const left = cap - own - delegated;
  return left > 0n ? left : 0n;
}

/** avax_validator_delegation_capacity_avax{subnet,node_id} of every watched primary-network validator. */
export const delegationCapacity = defineDerivation({
  name: 'delegation-capacity',
  reads: ['platform-validators'],
  metrics: [gauge('avax_validator_delegation_capacity_avax', 'Stake that can still be delegated: min(5 x own stake, 3,000,000 AVAX) minus own stake and current delegations, in AVAX (primary network).', ['subnet', 'node_id'])],
  derive(s): Sample[] {
    const out: Sample[] = [];
    const primary = valueOf(s, 'platform-validators')?.sets.find((x) => x.subnet === PRIMARY_NETWORK_ID);
    if (!primary) return out;
    const watched = new Set(primary.watched);
    for (const v of primary.validators) {
      if (!watched.has(v.nodeID) || isL1Validator(v) || v.weight === undefined || v.delegatorWeight === undefined) continue;
      out.push(sample('avax_validator_delegation_capacity_avax', { subnet: PRIMARY_NETWORK_ID, node_id: v.nodeID }, navaxToAvax(delegationCapacityNavax(v.weight, v.delegatorWeight))));
    }
    return out;
  },
});
