import { NETWORK_UPGRADES } from '../avalanche.js';
import { gauge, sample, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * Which network upgrade activated each ACP (src/avalanche.ts NETWORK_UPGRADES: keys of info.upgrades without
 * `Time`). Add a row there when an avalanchego release moves an ACP into an upgrade.
 */
export const ACP_UPGRADE: Readonly<Record<number, string>> = Object.freeze(Object.fromEntries(Object.entries(NETWORK_UPGRADES).flatMap(([upgrade, acps]) => acps.map((acp) => [acp, upgrade]))));

/**
 * The upgrades the node's info.upgrades names that have activated at `nowSeconds` and that this exporter does not
 * know (the node is newer than the exporter's ACP table), sorted. Empty when info.upgrades is not read.
 */
export function unknownActivatedUpgrades(upgradeTimes: Readonly<Record<string, number>> | undefined, nowSeconds: number): string[] {
  return Object.entries(upgradeTimes ?? {})
    .filter(([upgrade, t]) => NETWORK_UPGRADES[upgrade] === undefined && t <= nowSeconds)
    .map(([upgrade]) => upgrade)
    .sort();
}

/**
 * 1 when ACP `acp` is part of an upgrade that has activated at `nowSeconds` (per the node's own info.upgrades),
 * 0 when its upgrade is still ahead or the ACP is in no upgrade (a real open proposal), undefined when that cannot
 * be told: its upgrade's time is unknown, or it is in no upgrade this exporter knows while the node names an
 * activated upgrade the exporter does not know (the ACP may be one of that upgrade's: never called open then).
 * An ACP in no known upgrade on a node whose info.upgrades is not read (absent before v1.11.11, or failing) is 0:
 * such a node, or the lack of the answer, shows no newer upgrade.
 */
export function acpActivated(acp: number, upgradeTimes: Readonly<Record<string, number>> | undefined, nowSeconds: number): 0 | 1 | undefined {
  const upgrade = ACP_UPGRADE[acp];
  if (upgrade === undefined) return unknownActivatedUpgrades(upgradeTimes, nowSeconds).length > 0 ? undefined : 0;
  const t = upgradeTimes?.[upgrade];
  if (t === undefined) return undefined;
  return t <= nowSeconds ? 1 : 0;
}

/**
 * avax_acp_activated{target,acp}: for each ACP the node lists in info.acps, whether the upgrade that carries it
 * has activated. avalanchego lists ACPs scheduled in its release even after their upgrade activated on the
 * network (v1.13.x: ACP-176 after Fortuna; v1.15.0: the six Helicon ACPs after Helicon); those are not open
 * proposals, and AvalancheACPMajoritySupport and the open-proposals table show only ACPs marked 0. No series
 * when info.acps lists nothing (v1.14.2 on mainnet) or when acpActivated cannot tell.
 *
 * avax_acp_table_outdated{target}: 1 while the node's info.upgrades names an activated upgrade this exporter does
 * not know (then every ACP in no known upgrade has no avax_acp_activated, and pages nothing); 0 otherwise; absent
 * until info.upgrades is read. The info-upgrades collector logs the upgrade's name once.
 */
export const acpActivatedDerivation = defineDerivation({
  name: 'acp-activated',
  reads: ['info-acps', 'info-upgrades'],
  metrics: [
    gauge('avax_acp_activated', "1 when an ACP listed by info.acps belongs to a network upgrade that has activated (info.upgrades and avalanchego's ACP-to-upgrade list): not an open proposal; 0 when still open; absent when it cannot be told (the upgrade's time unknown, or the ACP in no upgrade the exporter knows while the node has activated an upgrade the exporter does not know: avax_acp_table_outdated 1).", ['acp']),
    gauge('avax_acp_table_outdated', "1 when the node's info.upgrades names a network upgrade that has activated and that this exporter's ACP-to-upgrade table does not know (the node is newer than the exporter): ACPs in no upgrade it knows then get no avax_acp_activated and page nothing; update avalanche-exporter. 0 otherwise; absent until info.upgrades is read."),
  ],
  derive(s, nowSeconds): Sample[] {
    const open = valueOf(s, 'info-acps')?.open ?? [];
    const times = valueOf(s, 'info-upgrades')?.times;
    const out: Sample[] = [];
    for (const acp of open) {
      const a = acpActivated(acp, times, nowSeconds);
      if (a !== undefined) out.push(sample('avax_acp_activated', { acp: String(acp) }, a));
    }
    if (times !== undefined) out.push(sample('avax_acp_table_outdated', {}, unknownActivatedUpgrades(times, nowSeconds).length > 0 ? 1 : 0));
    return out;
  },
});
