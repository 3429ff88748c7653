import { gauges, sample, type Sample } from '../model.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { UPTIME_REQUIREMENT, uptimeRequirement } from '../collectors/platform-validators.js';
import { isAutoRenewed, type PlatformValidatorUsed } from '../schemas/platform.js';
import type { InfoGetNodeVersionResult } from '../schemas/info.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';
import { compareVersions, parseVersion } from './newer-version-ratio.js';

/**
 * v1.15.0 builds that still count rewarding stake at --uptime-requirement after Helicon (gitCommit prefixes):
 * v1.15.0-fuji-rc.4 (65dfd82e…, recorded: test/fixtures/real-node-helicon) and v1.15.0-fuji (e8f9781e…, a
 * week older). avalanchego#5734 ("fix(network): apply ACP-267 uptime threshold", July 2026) came after them
 * and is in the v1.15.0 release (network/network.go NodeUptime).
 */
export const PRE_ACP267_UPTIME_BUILDS: readonly string[] = ['65dfd82e', 'e8f9781e'];

/** The first version whose info.uptime measures rewarding stake at the ACP-267 requirement. */
const ACP267_NODE_UPTIME: readonly number[] = [1, 15, 0, 1];

/**
 * The requirement info.uptime's rewardingStakePercentage counts against (avalanchego network/network.go
 * NodeUptime): from v1.15.0 the one the node's own validation (an auto-renewed validator: its current
 * cycle) has, as platform-validators' uptimeRequirement (90 % once started after Helicon, else
 * --uptime-requirement); before v1.15.0, and in PRE_ACP267_UPTIME_BUILDS, always --uptime-requirement,
 * taken as 0.8 (mainnet and Fuji fix it there; a custom network's flag is not visible). Undefined when the
 * version is unknown or unparseable, or (from v1.15.0) the node's own validation is not known.
 */
export function rewardingStakeRequirement(version: InfoGetNodeVersionResult | undefined, own: PlatformValidatorUsed | undefined, heliconTime: number | undefined): number | undefined {
  const v = version === undefined ? undefined : parseVersion(version.version);
  if (v === undefined) return undefined;
  const commit = version!.gitCommit.toLowerCase();
  if (compareVersions(v, ACP267_NODE_UPTIME) < 0 || PRE_ACP267_UPTIME_BUILDS.some((p) => commit.startsWith(p))) return UPTIME_REQUIREMENT;
  return own === undefined ? undefined : uptimeRequirement(own.startTime, heliconTime, isAutoRenewed(own));
}

/**
 * avax_uptime_rewarding_stake_requirement_ratio: which requirement avax_uptime_rewarding_stake_ratio is
 * measured against, beside the node's own uptime series. Below avax_validator_uptime_requirement_ratio
 * (e.g. 0.8 on a node whose cycle needs 0.9), a rewarding stake of 100 % promises nothing: a real
 * v1.15.0-fuji-rc.4 node showed 100 % while its peer saw it at 84 % and its cycle lost the reward.
 */
export const rewardingStakeRequirementDerivation = defineDerivation({
  name: 'rewarding-stake-requirement',
  reads: ['info-uptime', 'node-info', 'platform-validators', 'info-upgrades'],
  metrics: gauges([], {
    avax_uptime_rewarding_stake_requirement_ratio:
      "The uptime requirement avax_uptime_rewarding_stake_ratio counts peers' reports against (info.uptime, avalanchego network.NodeUptime): from v1.15.0 the node's own validation's (0.9 once it, or its auto-renewed cycle, started after Helicon), before v1.15.0 and in v1.15.0-fuji builds --uptime-requirement (0.8 on mainnet and Fuji). Below avax_validator_uptime_requirement_ratio the rewarding stake overstates what the reward needs.",
  }),
  derive(s): Sample[] {
    if (valueOf(s, 'info-uptime') === undefined) return [];
    const node = valueOf(s, 'node-info');
    const primary = valueOf(s, 'platform-validators')?.sets.find((x) => x.subnet === PRIMARY_NETWORK_ID);
    const own = node?.nodeId ? primary?.validators.find((x) => x.nodeID === node.nodeId) : undefined;
    const r = rewardingStakeRequirement(node?.version, own, valueOf(s, 'info-upgrades')?.heliconTime);
    return r === undefined ? [] : [sample('avax_uptime_rewarding_stake_requirement_ratio', {}, r)];
  },
});
