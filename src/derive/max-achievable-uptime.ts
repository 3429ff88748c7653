import { gauges, round6, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { uptimeRequirement } from '../collectors/platform-validators.js';
import { isAutoRenewed } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/** Best uptime ratio still reachable at `now` (seconds) for a validation [start, end] with uptime `u` so far (unrounded). */
function bestReachable(u: number, start: number, end: number, now: number): number {
  if (now <= start) return 1;
  if (now >= end) return u;
  return Math.min(1, Math.max(0, (u * (now - start) + (end - now)) / (end - start)));
}

/** Best uptime ratio still reachable at `now` (seconds) for a validation [start, end] with uptime `u` so far. */
export function maxAchievableUptime(u: number, start: number, end: number, now: number): number {
  return round6(bestReachable(u, start, end, now));
}

/**
 * Seconds the node can still be down in the validation (or cycle) [start, end] and end at the requirement
 * `r` or above: the uptime reachable if it stays up from now on, less `r`, times the duration. While the
 * node is up it stays put (each second up adds one to the uptime and takes one from what is left); each
 * second down takes one. 0 once the requirement cannot be met, and after the end (the reward is decided).
 */
export function downtimeBudgetSeconds(u: number, start: number, end: number, now: number, r: number): number {
  if (now >= end) return 0;
  return Math.max(0, Math.round((bestReachable(u, start, end, now) - r) * (end - start)));
}

/**
 * The node's OWN primary-network validation, or for an auto-renewed validator (ACP-236) its current cycle
 * (getCurrentValidators gives the cycle's startTime and endTime, and the uptime is measured per cycle:
 * ACP-236 "Auto-Renewed Staking"; vms/platformvm/txs/executor/standard_tx_executor_auto_renewed_test.go).
 * With u = the weighted-average uptime (info-uptime: how the stake sees this node so far) and the node up
 * from now on:
 *
 * - avax_validator_uptime_max_achievable_ratio: (u·(now−start) + (end−now)) / (end−start); after the end u,
 *   before the start 1;
 * - avax_validator_uptime_requirement_reachable: 1 while that is at least the requirement the node's rules
 *   set for this validation or cycle (platform-validators' uptimeRequirement: 80 %, 90 % after Helicon);
 *   0 once it is not: the reward is lost, and an auto-renewed validator is removed at the boundary instead of
 *   being re-staked (ACP-236: re-staking only when eligible for rewards);
 * - avax_validator_downtime_budget_seconds: how long the node can still be down and keep the reward.
 *
 * An estimate: avalanchego's reward check uses each validator's own uptime measurement, and the weighted
 * average is the best single figure the API gives.
 */
export const maxAchievable = defineDerivation({
  name: 'max-achievable-uptime',
  reads: ['info-uptime', 'node-info', 'platform-validators', 'info-upgrades'],
  metrics: gauges(['subnet', 'node_id'], {
    avax_validator_uptime_max_achievable_ratio:
      "Best uptime the node's own primary-network validation (an auto-renewed validator: its current cycle) can still reach if the node stays up until its end (from the weighted-average uptime, elapsed and remaining time).",
    avax_validator_uptime_requirement_reachable:
      "1 if the node's own primary-network validation (an auto-renewed validator: its current cycle) can still meet its uptime requirement (avax_validator_uptime_max_achievable_ratio >= avax_validator_uptime_requirement_ratio), 0 if not: the reward is lost, and an auto-renewed validator is removed at the end of the cycle.",
    avax_validator_downtime_budget_seconds:
      'How long the node can still be down in its own primary-network validation (an auto-renewed validator: its current cycle) and keep the reward: (best reachable uptime - requirement) x duration, in seconds; 0 once the requirement cannot be met.',
  }),
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
    const labels = { subnet: PRIMARY_NETWORK_ID, node_id: own };
    const best = maxAchievableUptime(u, start, end, nowSeconds);
    // The same requirement platform-validators exports (Helicon time unknown: 80 %, auto-renewed: 90 %).
    const r = uptimeRequirement(v.startTime, valueOf(s, 'info-upgrades')?.heliconTime, isAutoRenewed(v));
    return [
      sample('avax_validator_uptime_max_achievable_ratio', labels, best),
      sample('avax_validator_uptime_requirement_reachable', labels, best >= r ? 1 : 0),
      sample('avax_validator_downtime_budget_seconds', labels, downtimeBudgetSeconds(u, start, end, nowSeconds, r)),
    ];
  },
});
