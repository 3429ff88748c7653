import { NETWORK_UPGRADES } from '../avalanche.js';
import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { InfoUpgradesResult } from '../schemas/info.js';
import { UNSCHEDULED_SECONDS } from '../schemas/primitives.js';
import { defineCollector, oneCall, type CollectorOf, type OneCallContext } from './define.js';

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

/**
 * One log line per change of the upgrades info.upgrades names that this exporter does not know (src/avalanche.ts
 * NETWORK_UPGRADES: a node newer than the exporter): warn once one of them has activated (ACPs in no known
 * upgrade are then not judged open: avax_acp_table_outdated 1), info while they are only scheduled.
 */
function logUnknownUpgrades(v: InfoUpgradesResult, ctx: OneCallContext): void {
  const now = ctx.now() / 1000;
  const unknown = Object.keys(v.times)
    .filter((u) => NETWORK_UPGRADES[u] === undefined)
    .sort();
  const activated = unknown.filter((u) => v.times[u]! <= now);
  ctx.logOnChange('unknown-upgrades', `${unknown.join(',')}|${activated.join(',')}`, () => {
    if (unknown.length === 0) return;
    const fields = { upgrades: unknown, activated };
    if (activated.length > 0) ctx.log.warn(fields, "info.upgrades names network upgrades this exporter's ACP table does not know, and they have activated: ACPs in no upgrade it knows are not judged open (no avax_acp_activated; avax_acp_table_outdated 1). Update avalanche-exporter");
    else ctx.log.info(fields, "info.upgrades names network upgrades this exporter's ACP table does not know (not activated yet): update avalanche-exporter before they activate");
  });
}

// rpc: can't find method "info.Upgrades" on v1.10.x-v1.11.10 (issue 24).
export const infoUpgradesCall = rpcCall({ method: 'info.upgrades', endpoint: ENDPOINTS.info, result: InfoUpgradesResult, absent: 'info.upgrades exists from v1.11.11; the upgrade times and the 90 % Helicon requirement are then unknown' });

export const infoUpgrades: CollectorOf<'info-upgrades', InfoUpgradesValue> = defineCollector({
  name: 'info-upgrades',
  description: 'info.upgrades: the activation time of every network upgrade the node knows (unscheduled = +Inf).',
  needs: 'Info API (v1.11.11+; an older node = no series, and no failure)',
  interval: 300,
  metrics: [gauge('avax_network_upgrade_timestamp_seconds', 'Activation time of each network upgrade the node knows (info.upgrades), Unix seconds; +Inf when unscheduled.', ['upgrade'])],
  ...oneCall(infoUpgradesCall, (v, ctx) => {
    logUnknownUpgrades(v, ctx);
    return { value: { times: v.times, heliconTime: heliconFrom(v) }, samples: toSamples(v) };
  }),
});
