import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS } from '../node-client/index.js';
import { InfoUpgradesResult } from '../schemas/info.js';
import { UNSCHEDULED_SECONDS } from '../schemas/primitives.js';
import { heliconFrom } from './platform-validators.js';
import { settle } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

/**
 * avax_network_upgrade_timestamp_seconds{upgrade}: one series per `<name>Time` member of info.upgrades
 * (upgrade="<name>": apricotPhase1 … granite, helicon). Unscheduled upgrades (9999-12-01) are +Inf, so
 * `avax_network_upgrade_timestamp_seconds - time() < 7 * 86400` is only true for scheduled ones.
 */
export function toSamples(v: InfoUpgradesResult): Sample[] {
  return Object.keys(v.times)
    .sort()
    .map((upgrade) => {
      const t = v.times[upgrade]!;
      return sample('avax_network_upgrade_timestamp_seconds', { upgrade }, t >= UNSCHEDULED_SECONDS ? Number.POSITIVE_INFINITY : t);
    });
}

export const infoUpgrades: Collector = {
  name: 'info-upgrades',
  description: 'info.upgrades: the activation time of every network upgrade the node knows (unscheduled = +Inf).',
  needs: 'Info API',
  defaultIntervalSeconds: 300,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 1,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.upgrades', {}, InfoUpgradesResult, { signal: ctx.signal }));
    if (!r.ok) return { samples: [], errors: [r.error] };
    // Shared with platform-validators (uptime requirement 0.9 for validations starting after Helicon).
    ctx.memo.heliconTime = heliconFrom(r.value);
    ctx.memo.heliconAt = ctx.now();
    return { samples: toSamples(r.value), errors: [] };
  },
};
