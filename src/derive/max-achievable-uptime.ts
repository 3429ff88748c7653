import { gauge, round6, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/** Best uptime ratio still reachable at `now` (seconds) for a validation [start, end] with uptime `u` so far. */
export function maxAchievableUptime(u: number, start: number, end: number, now: number): number {
  if (now <= start) return 1;
  if (now >= end) return round6(u);
  const r = (u * (now - start) + (end - now)) / (end - start);
  return round6(Math.min(1, Math.max(0, r)));
}

/**
 * avax_validator_uptime_max_achievable_ratio{subnet,node_id}: the node's OWN primary-network
 * validation. With u = the weighted-average uptime (info-uptime: how the stake sees this node so far),
 * a validation from `start` to `end` and the node up from now on: (u·(now−start) + (end−now)) /
 * (end−start). After the end it is u; before the start 1. An estimate: avalanchego's reward check uses
 * each validator's own uptime measurement, and the weighted average is the best single figure the API gives.
 */
export const maxAchievable = defineDerivation({
  name: 'max-achievable-uptime',
  reads: ['info-uptime', 'node-info', 'platform-validators'],
  metrics: [gauge('avax_validator_uptime_max_achievable_ratio', "Best uptime the node's own primary-network validation can still reach if the node stays up until its end (from the weighted-average uptime, elapsed and remaining time).", ['subnet', 'node_id'])],
  derive(s, nowSeconds): Sample[] {
    const u = valueOf(s, 'info-uptime')?.weightedAverageRatio;
    const own = valueOf(s, 'node-info')?.nodeId;
    if (u === undefined || !own) return [];
    const primary = valueOf(s, 'platform-validators')?.sets.find((x) => x.subnet === PRIMARY_NETWORK_ID);
    const v = primary?.validators.find((x) => x.nodeID === own);
    if (v?.startTime === undefined || v.endTime === undefined) return [];
    const start = u64ToNumber(v.startTime);
    const end = u64ToNumber(v.endTime);
    if (!(end > start)) return [];
    return [sample('avax_validator_uptime_max_achievable_ratio', { subnet: PRIMARY_NETWORK_ID, node_id: own }, maxAchievableUptime(u, start, end, nowSeconds))];
  },
});
