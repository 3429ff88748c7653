import { gauge, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * avax_subnet_validators{subnet}: the active validators of the primary network (its full list,
 * platform-validators-full, fetched once per network) and of every other watched subnet (its list,
 * subnet-chains). An L1 validator whose balance ran out is listed but not counted (issue 23 item 6).
 */
export const subnetValidators = defineDerivation({
  name: 'subnet-validators',
  reads: ['platform-validators-full', 'subnet-chains'],
  metrics: [gauge('avax_subnet_validators', 'Number of active validators of the subnet (the primary network, and every watched subnet; an L1 validator whose balance ran out is not counted).', ['subnet'])],
  derive(s): Sample[] {
    const out: Sample[] = [];
    const primary = valueOf(s, 'platform-validators-full')?.primaryCount;
    if (primary !== undefined) out.push(sample('avax_subnet_validators', { subnet: PRIMARY_NETWORK_ID }, primary));
    for (const [subnet, n] of valueOf(s, 'subnet-chains')?.activeValidators ?? []) out.push(sample('avax_subnet_validators', { subnet }, n));
    return out;
  },
});
