import { gauge, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation, perSubnet } from './define.js';

/**
 * avax_subnet_connected_stake_ratio{subnet}: the share of the subnet's validator stake the node is
 * connected to, as the node itself computes it (its /ext/metrics avalanche_stake_percent_connected of
 * the subnet's chain, node-metrics): the primary network's from the P-Chain, a watched L1's from its
 * chain. A per-node figure: it no longer rides on the full validator list, which is now fetched once
 * per network (issue 21), while `connected` there is the asked node's view.
 */
export const subnetConnectedStake = defineDerivation({
  name: 'subnet-connected-stake',
  reads: ['node-metrics', 'subnet-chains'],
  metrics: [gauge('avax_subnet_connected_stake_ratio', "Share of the subnet's validator stake the node is connected to (the node's own avalanche_stake_percent_connected of the subnet's chain: P for the primary network).", ['subnet'])],
  derive(s): Sample[] {
    const connected = valueOf(s, 'node-metrics')?.stakeConnected;
    if (!connected) return [];
    // Per subnet, its first chain with a figure (P for the primary network).
    const ratios = new Map<string, number | undefined>([[PRIMARY_NETWORK_ID, connected.get('P')]]);
    for (const c of valueOf(s, 'subnet-chains')?.chains ?? []) {
      const r = connected.get(c.id);
      if (r !== undefined && !ratios.has(c.subnet)) ratios.set(c.subnet, r);
    }
    return perSubnet('avax_subnet_connected_stake_ratio', ratios);
  },
});
