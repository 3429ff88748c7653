import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, RpcError } from '../node-client/index.js';
import { InfoUptimeResult } from '../schemas/info.js';
import { onChange, settle, percentToRatio } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

export function toSamples(v: InfoUptimeResult): Sample[] {
  return [
    sample('avax_uptime_rewarding_stake_ratio', {}, percentToRatio(v.rewardingStakePercentage)),
    sample('avax_uptime_weighted_average_ratio', {}, percentToRatio(v.weightedAveragePercentage)),
  ];
}

/** `couldn't get node uptime: node is not a validator` (AVALANCHEGO.md §4). */
export function isNotAValidator(err: unknown): boolean {
  return err instanceof RpcError && err.rpcMessage.includes('node is not a validator');
}

export const infoUptime: Collector = {
  name: 'info-uptime',
  description: "info.uptime: this node's uptime as the network's stake sees it.",
  needs: 'Info API; the node must be a validator (otherwise no series, and no failure)',
  defaultIntervalSeconds: 60,
  defaultEnabled: true,
  nodeSpecific: true,
  requestsPerRun: () => 1,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.uptime', {}, InfoUptimeResult, { signal: ctx.signal }));
    if (r.ok) {
      if (ctx.state.get('validator') === 'no') ctx.log.info('node is a validator again: uptime series are back');
      ctx.state.set('validator', 'yes');
      return { samples: toSamples(r.value), errors: [] };
    }
    if (isNotAValidator(r.error)) {
      onChange(ctx, 'validator', 'no', () => ctx.log.info('node is not a validator: no uptime series'));
      return { samples: [], errors: [] };
    }
    return { samples: [], errors: [r.error] };
  },
};
