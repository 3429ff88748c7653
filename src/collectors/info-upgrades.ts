import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { InfoUpgradesResult } from '../schemas/info.js';
import { UNSCHEDULED_SECONDS } from '../schemas/primitives.js';
import { defineCollector, oneCall, type CollectorOf } from './define.js';

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

/** info.upgrades heliconTime → Unix seconds; Infinity when unscheduled or unknown to the node (v1.13.x). */
export function heliconFrom(u: InfoUpgradesResult): number {
  const t = u.heliconTime;
  return t === undefined || t >= UNSCHEDULED_SECONDS ? Number.POSITIVE_INFINITY : t;
}

/** What info-upgrades publishes: every upgrade time (Unix seconds; +Inf unscheduled) and Helicon's. */
export interface InfoUpgradesValue {
  readonly times: Readonly<Record<string, number>>;
  /** Helicon activation (validations starting at or after it need 90 % uptime); Infinity when unscheduled. */
  readonly heliconTime: number;
}

// rpc: can't find method "info.Upgrades" on v1.10.x-v1.11.10 (issue 24).
export const infoUpgradesCall = rpcCall({ method: 'info.upgrades', endpoint: ENDPOINTS.info, result: InfoUpgradesResult, absent: 'info.upgrades exists from v1.11.11; the upgrade times and the 90 % Helicon requirement are then unknown' });

export const infoUpgrades: CollectorOf<'info-upgrades', InfoUpgradesValue> = defineCollector({
  name: 'info-upgrades',
  description: 'info.upgrades: the activation time of every network upgrade the node knows (unscheduled = +Inf).',
  needs: 'Info API (v1.11.11+; an older node = no series, and no failure)',
  interval: 300,
  metrics: [gauge('avax_network_upgrade_timestamp_seconds', 'Activation time of each network upgrade the node knows (info.upgrades), Unix seconds; +Inf when unscheduled.', ['upgrade'])],
  ...oneCall(infoUpgradesCall, (v) => ({ value: { times: v.times, heliconTime: heliconFrom(v) }, samples: toSamples(v) })),
});
