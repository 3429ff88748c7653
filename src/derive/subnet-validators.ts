import { gauge } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation, perSubnet } from './define.js';

/**
 * avax_subnet_validators{subnet}: the active validators of the primary network (its full list,
 * platform-validators-full, fetched once per network) and of every other watched subnet (its list,
 * subnet-chains). An L1 validator whose balance ran out is listed but not counted (issue 23 item 6).
 */
export const subnetValidators = defineDerivation({
  name: 'subnet-validators',
  reads: ['platform-validators-full', 'subnet-chains'],
  metrics: [gauge('avax_subnet_validators', 'Number of active validators of the subnet (the primary network, and every watched subnet; an L1 validator whose balance ran out is not counted).', ['subnet'])],
  derive: (s) =>
    perSubnet('avax_subnet_validators', [
      [PRIMARY_NETWORK_ID, valueOf(s, 'platform-validators-full')?.primaryCount],
      ...(valueOf(s, 'subnet-chains')?.activeValidators ?? []),
    ]),
});
