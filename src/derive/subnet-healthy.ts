import { gauge, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { isPending, type HealthReport } from '../schemas/health.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation, perSubnet } from './define.js';

/** The checks of the primary network's chains are named after their aliases (docs/avalanchego-wire.md §3). */
const PRIMARY_CHECKS = ['P', 'X', 'C'];

/**
 * Whether the node's health report for a subnet's tag would be healthy, from its untagged report
 * (GET /ext/health has every check): the subnet's chain checks (named after the chain, tagged with the
 * subnet) and every application check (network, router, database, diskspace, bls, bootstrapped, ...:
 * every check that is no chain's). Undefined while one of them has not run yet (a node that just
 * started: a normal state, never a page) or when nothing is known.
 */
export function subnetHealthy(report: HealthReport, subnetChecks: ReadonlySet<string>, allChainChecks: ReadonlySet<string>): boolean | undefined {
  let healthy = true;
  for (const [name, r] of Object.entries(report.checks)) {
    if (allChainChecks.has(name) && !subnetChecks.has(name)) continue;
    if (isPending(r)) return undefined;
    if (r.error != null) healthy = false;
  }
  return healthy;
}

/**
 * avax_subnet_healthy{subnet} for every subnet subnet-chains watches, recomputed every cycle from
 * the health collector's last report (every 30 s): no request of its own, and right as soon as the
 * node's own checks are (issue 23 item 2: after a restart it stayed 0 for 10 minutes when it was
 * asked one subnet per minute in turn).
 */
export const subnetHealthyDerivation = defineDerivation({
  name: 'subnet-healthy',
  reads: ['health', 'subnet-chains'],
  metrics: [gauge('avax_subnet_healthy', "1 if the node's health for the subnet (its chains' checks plus the node-wide ones, from GET /ext/health) is healthy, 0 if not; absent while a check has not run yet after a restart.", ['subnet'])],
  derive(s): Sample[] {
    const report = valueOf(s, 'health')?.health;
    const watched = valueOf(s, 'subnet-chains');
    if (!report || !watched) return [];
    const bySubnet = new Map<string, Set<string>>([[PRIMARY_NETWORK_ID, new Set(PRIMARY_CHECKS)]]);
    for (const c of watched.chains) {
      let set = bySubnet.get(c.subnet);
      if (!set) bySubnet.set(c.subnet, (set = new Set()));
      set.add(c.id);
    }
    const all = new Set<string>([...bySubnet.values()].flatMap((x) => [...x]));
    return perSubnet(
      'avax_subnet_healthy',
      watched.subnets.map((subnet) => {
        const h = subnetHealthy(report, bySubnet.get(subnet) ?? new Set(), all);
        return [subnet, h === undefined ? undefined : h ? 1 : 0];
      }),
    );
  },
});
