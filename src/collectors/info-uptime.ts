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
});

/** What info-uptime publishes (for the max-achievable uptime); undefined for a non-validator. */
export interface InfoUptimeValue {
  readonly rewardingStakeRatio: number;
  readonly weightedAverageRatio: number;
  /** When the node answered, Unix seconds (derive/max-achievable-uptime.ts: before the peers' first report?). */
  readonly atSeconds: number;
}

export const infoUptime: CollectorOf<'info-uptime', InfoUptimeValue> = defineCollector({
  name: 'info-uptime',
  description: "info.uptime: this node's uptime as the network's stake sees it.",
  needs: 'Info API; the node must be a validator (otherwise no series, and no failure)',
  interval: 60,
  nodeSpecific: true,
  metrics: [
    ...gauges([], {
      avax_uptime_rewarding_stake_ratio: 'Share of stake that considers this node above the uptime requirement (info.uptime rewardingStakePercentage / 100).',
      avax_uptime_weighted_average_ratio: 'Stake-weighted average of the uptime peers observe for this node (info.uptime weightedAveragePercentage / 100).',
    }),
  ],
  calls: [infoUptimeCall],
  collect: (ctx) =>
    collectOneCall(ctx, infoUptimeCall, (v) => ({
      value: { rewardingStakeRatio: percentToRatio(v.rewardingStakePercentage), weightedAverageRatio: percentToRatio(v.weightedAveragePercentage), atSeconds: Math.floor(ctx.now() / 1000) },
      samples: toSamples(v),
    })),
});
