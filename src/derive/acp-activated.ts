import { gauge, sample, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * Which network upgrade activated each ACP, from avalanchego utils/constants/acps.go (ActivatedACPs,
 * grouped by upgrade in its comments; v1.14.2) and the upgrade's ACP list
 * (https://github.com/avalanche-foundation/ACPs). Keys of info.upgrades without `Time`.
 * Add a row when an avalanchego release moves an ACP into ActivatedACPs.
 */
export const ACP_UPGRADE: Readonly<Record<number, string>> = Object.freeze({
  // Durango
  23: 'durango',
  24: 'durango',
  25: 'durango',
  30: 'durango',
  31: 'durango',
  41: 'durango',
  62: 'durango',
  // Etna
  77: 'etna',
  103: 'etna',
  118: 'etna',
  125: 'etna',
  131: 'etna',
  151: 'etna',
  // Fortuna
  176: 'fortuna',
  // Granite
  181: 'granite',
  204: 'granite',
  226: 'granite',
});

/**
 * 1 when ACP `acp` is part of an upgrade that has activated at `nowSeconds` (per the node's own
 * info.upgrades), 0 when its upgrade is still ahead or the ACP is in no known upgrade (a real open
 * proposal), undefined when its upgrade's time is unknown.
 */
export function acpActivated(acp: number, upgradeTimes: Readonly<Record<string, number>> | undefined, nowSeconds: number): 0 | 1 | undefined {
  const upgrade = ACP_UPGRADE[acp];
  if (upgrade === undefined) return 0;
  const t = upgradeTimes?.[upgrade];
  if (t === undefined) return undefined;
  return t <= nowSeconds ? 1 : 0;
}

/**
 * avax_acp_activated{target,acp}: for each ACP the node lists in info.acps, whether the upgrade that
 * carries it has activated. avalanchego v1.13.x lists ACPs scheduled in its release (ACP-176 with
 * Fortuna) even after the upgrade activated on the network; those are not open proposals, and
 * AvalancheACPMajoritySupport and the open-proposals table leave them out. No series when info.acps
 * lists nothing (v1.14.2 on mainnet) or when the upgrade's time is unknown (info.upgrades not yet read).
 */
export const acpActivatedDerivation = defineDerivation({
  name: 'acp-activated',
  reads: ['info-acps', 'info-upgrades'],
  metrics: [gauge('avax_acp_activated', "1 when an ACP listed by info.acps belongs to a network upgrade that has activated (info.upgrades and avalanchego's ACP-to-upgrade list): not an open proposal; 0 when still open.", ['acp'])],
  derive(s, nowSeconds): Sample[] {
    const open = valueOf(s, 'info-acps')?.open ?? [];
    const times = valueOf(s, 'info-upgrades')?.times;
    const out: Sample[] = [];
    for (const acp of open) {
      const a = acpActivated(acp, times, nowSeconds);
      if (a !== undefined) out.push(sample('avax_acp_activated', { acp: String(acp) }, a));
    }
    return out;
  },
});
