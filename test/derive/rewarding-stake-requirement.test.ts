import { describe, expect, it } from 'vitest';
import { PRE_ACP267_UPTIME_BUILDS, rewardingStakeRequirement, rewardingStakeRequirementDerivation } from '../../src/derive/rewarding-stake-requirement.js';
import { PRIMARY_NETWORK_ID as P } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { InfoGetNodeVersionResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { SELF } from '../fixtures/ids.js';
import { snapshotWith } from './snapshot.js';

const HELICON = 1_790_000_000;
const entry = (fixture: string, start: number) => ({ ...PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', fixture)).validators[0]!, nodeID: SELF, startTime: BigInt(start) });
const version = (v: string, gitCommit = '0123456789abcdef') => InfoGetNodeVersionResult.parse({ version: v, gitCommit });

describe('derive: the requirement info.uptime measures rewarding stake against', () => {
  it.each([
    ['v1.14.2, a validation started after Helicon: --uptime-requirement', '1.14.2', '', 'primary-watched', HELICON + 1, 0.8],
    ['v1.15.0, started after Helicon: ACP-267', '1.15.0', '', 'primary-watched', HELICON + 1, 0.9],
    ['v1.15.0, started before Helicon: --uptime-requirement', '1.15.0', '', 'primary-watched', HELICON - 1, 0.8],
    ['v1.15.0, an auto-renewed cycle', '1.15.0', '', 'auto-renewed', HELICON + 100, 0.9],
    ['v1.15.1', '1.15.1', '', 'primary-watched', HELICON + 1, 0.9],
    ['v1.15.0-fuji-rc.4 (recorded): --uptime-requirement', '1.15.0', '65dfd82e658e95640d8a49a28164f1bc13515348', 'auto-renewed', HELICON + 100, 0.8],
    ['v1.15.0-fuji', '1.15.0', 'E8F9781EE57D0000000000000000000000000000', 'auto-renewed', HELICON + 100, 0.8],
  ])('behavior: %s', (_n, v, commit, fixture, start, want) => {
    expect(rewardingStakeRequirement(version(`avalanchego/${v}`, commit || undefined), entry(fixture, start), HELICON)).toBe(want);
  });
  it('behavior: unknown: no version, an unparseable one, or (from v1.15.0) no own entry', () => {
    expect(rewardingStakeRequirement(undefined, entry('primary-watched', HELICON + 1), HELICON)).toBeUndefined();
    expect(rewardingStakeRequirement(version('avalanchego/dev'), entry('primary-watched', HELICON + 1), HELICON)).toBeUndefined();
    expect(rewardingStakeRequirement(version('avalanchego/1.15.0'), undefined, HELICON)).toBeUndefined();
    expect(rewardingStakeRequirement(version('avalanchego/1.14.2'), undefined, HELICON)).toBe(0.8);
    expect(PRE_ACP267_UPTIME_BUILDS.every((p) => /^[0-9a-f]{8}$/.test(p))).toBe(true);
  });
  it('default: one series beside the uptime series, only while info.uptime answers', () => {
    const values = {
      'node-info': { nodeId: SELF, version: version('avalanchego/1.15.0') },
      'platform-validators': { sets: [{ subnet: P, watched: [SELF], validators: [entry('primary-watched', HELICON + 1)] }] },
      'info-upgrades': { times: [], heliconTime: HELICON },
    } as never;
    const up = { 'info-uptime': { rewardingStakeRatio: 1, weightedAverageRatio: 0.99, atSeconds: HELICON + 10_000 } };
    expect(rewardingStakeRequirementDerivation.derive(snapshotWith({ ...(values as object), ...up }), HELICON + 10_000)).toEqual([{ name: 'avax_uptime_rewarding_stake_requirement_ratio', labels: {}, value: 0.9 }]);
    expect(rewardingStakeRequirementDerivation.derive(snapshotWith(values), HELICON + 10_000)).toEqual([]);
  });
});
