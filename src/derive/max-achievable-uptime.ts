import { gauges, round6, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { uptimeRequirement } from '../collectors/platform-validators.js';
import { isAutoRenewed } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';
import { seenByConnectedStake } from './uptime-connected-stake.js';

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
 * How long after the node starts (or restarts), and after its validation or cycle starts, an info.uptime
 * answer may not count any peer's report yet, seconds. avalanchego v1.15.0: info.uptime sums each connected
 * validator's last reported uptime of this node (network.NodeUptime, peer.ObservedUptime), which a peer sends
 * in its Ping every PingFrequency (22.5 s: 3/4 of the 30 s ping-pong timeout, utils/constants/networking.go),
 * the first one PingFrequency after the connection (peer.sendNetworkMessages' ticker); a new connection
 * starts at 0, and a peer that does not count the node as a validator yet reports 0 (peer.getUptime fails).
 * A renewed cycle restarts the peers' count while the node still holds their last report of the previous
 * one. Recorded (test/fixtures/real-node-helicon): 8 s after joining 0.0200/0.0200 (node2's own 2,000 of
 * 10,002,000 AVAX; the exporter saw the same 4 s after a restart, shared FINDINGS §2); 14 s after joining
 * node1's 100 %; 30 s after the restart node1's 67 %. 60 s: one PingFrequency, the connection or the
 * block's acceptance on the peers before it, and a margin; also info-uptime's interval, so at most one
 * answer is left out.
 */
export const FIRST_PEER_REPORT_SECONDS = 60;

/** The parts of an info.uptime answer the rule reads (InfoUptimeValue). */
export interface UptimeAnswer {
  readonly atSeconds: number;
  readonly rewardingStakeRatio: number;
  readonly weightedAverageRatio: number;
}

/**
 * Whether an info.uptime answer may be one that counts no peer report yet: answered less than
 * FIRST_PEER_REPORT_SECONDS after the validation's (cycle's) start or the node's process start (node-metrics,
 * when known), with rewardingStakePercentage equal to weightedAveragePercentage. NodeUptime starts both sums
 * from the node's own stake alone (counted at 100 % and as rewarding); a peer that has not reported adds
 * nothing to either, so until a report below 100 % arrives the two are the same number (the own stake share,
 * or the share of it and the peers that reported 100 %). Such an answer drives neither the reachable uptime
 * nor the budget. An early report below the requirement (weighted above rewarding: the r2-p3 67 %) is a real
 * measurement and counts. Not caught: peers that all reported the same under-100 % figure while others have
 * not reported yet (avalanchego sends whole percents, so 99 % from every peer so far). The process start is
 * the node host's clock: more than FIRST_PEER_REPORT_SECONDS after the answer (the process answered, so it
 * had started) means the clocks disagree, and it is not compared.
 */
export function beforeFirstPeerReport(answer: UptimeAnswer, validationStart: number, processStart: number | undefined): boolean {
  if (answer.rewardingStakeRatio !== answer.weightedAverageRatio) return false;
  const proc = processStart !== undefined && processStart <= answer.atSeconds + FIRST_PEER_REPORT_SECONDS ? processStart : Number.NEGATIVE_INFINITY;
  return answer.atSeconds - Math.max(validationStart, proc) < FIRST_PEER_REPORT_SECONDS;
}

/**
 * The node's OWN primary-network validation, or for an auto-renewed validator (ACP-236) its current cycle
 * (getCurrentValidators gives the cycle's startTime and endTime, and the uptime is measured per cycle:
 * ACP-236 "Auto-Renewed Staking"; vms/platformvm/txs/executor/standard_tx_executor_auto_renewed_test.go).
 * With u = the weighted-average uptime (info-uptime: how the stake sees this node so far, over the stake the node
 * is connected to when node-metrics gives that share: uptime-connected-stake.ts) and the node up
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
 * average is the best single figure the API gives. None of the three from an answer before the peers' first
 * report (beforeFirstPeerReport): it would show the budget of a node nobody has seen up.
 */
export const maxAchievable = defineDerivation({
  name: 'max-achievable-uptime',
  reads: ['info-uptime', 'node-info', 'platform-validators', 'info-upgrades', 'node-metrics'],
  metrics: gauges(['subnet', 'node_id'], {
    avax_validator_uptime_max_achievable_ratio:
      "Best uptime the node's own primary-network validation (an auto-renewed validator: its current cycle) can still reach if the node stays up until its end (from the weighted-average uptime, elapsed and remaining time).",
    avax_validator_uptime_requirement_reachable:
      "1 if the node's own primary-network validation (an auto-renewed validator: its current cycle) can still meet its uptime requirement (avax_validator_uptime_max_achievable_ratio >= avax_validator_uptime_requirement_ratio), 0 if not: the reward is lost, and an auto-renewed validator is removed at the end of the cycle.",
    avax_validator_downtime_budget_seconds:
      'How long the node can still be down in its own primary-network validation (an auto-renewed validator: its current cycle) and keep the reward: (best reachable uptime - requirement) x duration, in seconds; 0 once the requirement cannot be met.',
  }),
  derive(s, nowSeconds): Sample[] {
    const up = valueOf(s, 'info-uptime');
    const metrics = valueOf(s, 'node-metrics');
    // As the connected stake sees the node (uptime-connected-stake.ts): a validator that is down decides nothing.
    const u = up === undefined ? undefined : (seenByConnectedStake(up.weightedAverageRatio, metrics?.stakeConnected?.get('P')) ?? up.weightedAverageRatio);
    const own = valueOf(s, 'node-info')?.nodeId;
    if (u === undefined || !own) return [];
    const primary = valueOf(s, 'platform-validators')?.sets.find((x) => x.subnet === PRIMARY_NETWORK_ID);
    const v = primary?.validators.find((x) => x.nodeID === own);
    if (v?.startTime === undefined || v.endTime === undefined) return [];
    const start = u64ToNumber(v.startTime);
    const end = u64ToNumber(v.endTime);
    if (!(end > start)) return [];
    if (beforeFirstPeerReport(up!, start, metrics?.processStartTime)) return [];
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
