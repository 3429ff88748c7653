import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, RpcError, rpcCall } from '../node-client/index.js';
import { InfoUptimeResult } from '../schemas/info.js';
import { percentToRatio } from '../schemas/primitives.js';
import { collectOneCall, defineCollector, type CollectorOf } from './define.js';

export function toSamples(v: InfoUptimeResult): Sample[] {
  return [
    sample('avax_uptime_rewarding_stake_ratio', {}, percentToRatio(v.rewardingStakePercentage)),
    sample('avax_uptime_weighted_average_ratio', {}, percentToRatio(v.weightedAveragePercentage)),
  ];
}

/**
 * info.uptime on a node that is not a validator: a normal state, not a failure. avalanchego's
 * api/info/service.go Uptime wraps the error of network.NodeUptime() as `couldn't get node uptime: %w`:
 * - with sybil protection on (mainnet, Fuji), network/network.go NodeUptime returns errNotValidator:
 *   `couldn't get node uptime: node is not a validator`;
 * - with sybil protection off (local and test networks) the node is in no validator set that the
 *   uptime calculator knows, and the lookup of its start time fails (uptime manager, validator state):
 *   `couldn't get node uptime: error while fetching local validator start time not found`
 *   (seen on a real v1.14.2 node with --sybil-protection-enabled=false).
 * Matched by meaning (either phrase, -32000), not by one literal string.
 */
export function isNotAValidator(err: unknown): boolean {
  if (!(err instanceof RpcError)) return false;
  const m = err.rpcMessage.toLowerCase();
  return m.includes('not a validator') || (m.includes('validator') && m.includes('not found'));
}

export const infoUptimeCall = rpcCall({
  method: 'info.uptime',
  endpoint: ENDPOINTS.info,
  result: InfoUptimeResult,
  normal: { notAValidator: { when: isNotAValidator, says: 'the node is not a validator: no uptime series' } },
  // v1.15.0 while bootstrapping: -32000 "couldn't get node uptime: error while fetching local validator start time
  // still bootstrapping" (a real node restarted cut off from its peers).
  untilBootstrapped: true,
});

/** What info-uptime publishes (for the max-achievable uptime); undefined for a non-validator. */
export interface InfoUptimeValue {
  readonly rewardingStakeRatio: number;
  readonly weightedAverageRatio: number;
  /** When the node answered, Unix seconds (derive/max-achievable-uptime.ts: before the peers' first report?). */
  readonly atSeconds: number;
}

/**
 * What info.uptime measures (avalanchego network/network.go NodeUptime): over the primary-network validators
 * this node is connected to, the uptime each last reported for this node in its Ping (a whole percent; 0
 * until its first Ping on the connection, and from a peer that does not count the node as a validator yet),
 * with the node's own stake counted at 100 %. rewardingStakePercentage is the share of stake (own included,
 * of the whole stake: peers not connected count as not rewarding) whose report is at or above a requirement:
 * avalanchego v1.15.0 (ava-labs/avalanchego#5734) uses 90 % when the node's current validation, or cycle of
 * an auto-renewed validator, started at or after Helicon (ACP-267), else --uptime-requirement (80 % on
 * mainnet and Fuji); earlier versions and the v1.15.0-fuji builds recorded before that change always use
 * --uptime-requirement (a real v1.15.0-fuji-rc.4 node counted a peer's 84 % as rewarding while its cycle
 * needed 90 % and lost its reward: test/fixtures/real-node-helicon r2-p4). The derived
 * avax_uptime_rewarding_stake_requirement_ratio says which one the node used.
 */

export const infoUptime: CollectorOf<'info-uptime', InfoUptimeValue> = defineCollector({
  name: 'info-uptime',
  description: "info.uptime: this node's uptime as the network's stake sees it.",
  needs: 'Info API; the node must be a validator (otherwise no series, and no failure)',
  interval: 60,
  nodeSpecific: true,
  metrics: [
    ...gauges([], {
      avax_uptime_rewarding_stake_ratio:
        "Share of the stake (own stake included) whose last uptime report puts this node at or above the requirement the node measures it against (info.uptime rewardingStakePercentage / 100): 0.9 from avalanchego v1.15.0 when its validation or cycle started after Helicon, else --uptime-requirement (0.8 on mainnet and Fuji); avax_uptime_rewarding_stake_requirement_ratio says which. Measured at 0.8 it does not show a reward lost at 0.9.",
      avax_uptime_weighted_average_ratio:
        "Stake-weighted average of the uptime peers report for this node (info.uptime weightedAveragePercentage / 100; the node's own stake counts as 100 %). Right after the node starts or joins the validator set it is about its own stake share until the peers' first reports (one ping, 22.5 s, after connecting).",
    }),
  ],
  calls: [infoUptimeCall],
  collect: (ctx) =>
    collectOneCall(ctx, infoUptimeCall, (v) => ({
      value: { rewardingStakeRatio: percentToRatio(v.rewardingStakePercentage), weightedAverageRatio: percentToRatio(v.weightedAveragePercentage), atSeconds: Math.floor(ctx.now() / 1000) },
      samples: toSamples(v),
    })),
});
