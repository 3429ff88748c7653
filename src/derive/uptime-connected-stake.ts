import { gauges, round6, sample, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * A figure of info.uptime (a share of the primary network's whole stake) as the stake the node is connected to
 * sees it: ratio / connected share, at most 1; undefined without a connected share above 0.
 *
 * avalanchego's info.uptime (network.NodeUptime, v1.15.0) sums, over the node's own stake (counted at 100 %) and
 * each CONNECTED validator's last report of it, and divides by the WHOLE stake: a validator that is down, or that
 * the node is not connected to, counts as 0 in both the weighted average and the rewarding stake. Measured on real
 * v1.15.0 nodes: one validator of five stopped, every other node's info.uptime fell to 80 % and paged
 * AvalancheUptimeBelowRequirement (90 % after Helicon), AvalancheUptimeAtRisk and AvalancheRewardingStakeLow on
 * all four, although the stopped validator takes no part in their reward decisions (each validator that is up
 * decides by its own measurement). On mainnet the few percent of the stake that is offline at any time pulls a
 * healthy node's figure toward the 95 % at which AvalancheUptimeAtRisk warns. The connected share is the node's
 * own (avalanche_stake_percent_connected of the P-Chain, node-metrics), which counts the node itself as connected,
 * as NodeUptime does. A node cut off from much of the stake pages as AvalancheConnectedStakeLow instead.
 */
export function seenByConnectedStake(ratio: number, connected: number | undefined): number | undefined {
  if (connected === undefined || !(connected > 0) || !Number.isFinite(ratio)) return undefined;
  return round6(Math.min(1, Math.max(0, ratio / connected)));
}

export const uptimeConnectedStake = defineDerivation({
  name: 'uptime-connected-stake',
  reads: ['info-uptime', 'node-metrics'],
  metrics: gauges([], {
    avax_uptime_connected_weighted_average_ratio:
      "This node's stake-weighted average uptime as the stake it is connected to sees it (0-1): info.uptime's weightedAveragePercentage, which counts every disconnected validator as 0, over the connected share of the primary network's stake (avax_node_stake_connected_ratio of P). What the uptime alerts compare with the requirement.",
    avax_uptime_connected_rewarding_stake_ratio:
      "Share of the stake the node is connected to whose last report puts it at or above the requirement (avax_uptime_rewarding_stake_requirement_ratio): info.uptime's rewardingStakePercentage over the connected share, as above.",
  }),
  derive(s): Sample[] {
    const up = valueOf(s, 'info-uptime');
    const connected = valueOf(s, 'node-metrics')?.stakeConnected?.get('P');
    if (!up) return [];
    const out: Sample[] = [];
    const weighted = seenByConnectedStake(up.weightedAverageRatio, connected);
    const rewarding = seenByConnectedStake(up.rewardingStakeRatio, connected);
    if (weighted !== undefined) out.push(sample('avax_uptime_connected_weighted_average_ratio', {}, weighted));
    if (rewarding !== undefined) out.push(sample('avax_uptime_connected_rewarding_stake_ratio', {}, rewarding));
    return out;
  },
});
