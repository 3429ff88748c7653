import { describe, expect, it } from 'vitest';
import { maxAchievable, maxAchievableUptime } from '../../src/derive/max-achievable-uptime.js';
import { PRIMARY_NETWORK_ID as P } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';
import { OTHER, SELF } from '../fixtures/ids.js';

const DAY = 86400;
const now = 1_800_000_000;

function validation(start: number, end: number, u: number | undefined, own = SELF, id = SELF) {
  const v = { ...PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators[0]!, nodeID: id, startTime: BigInt(start), endTime: BigInt(end) };
  return snapshotWith({
    'node-info': { nodeId: own },
    ...(u === undefined ? {} : { 'info-uptime': { weightedAverageRatio: u, rewardingStakeRatio: 1 } }),
    'platform-validators': { sets: [{ subnet: P, watched: [id], validators: [v] }] },
  });
}

describe('derive: max-achievable uptime', () => {
  it('default: (u·elapsed + remaining) / duration: 60 % after 80 % of the time → 68 %', () => {
    expect(maxAchievable.derive(validation(now - 24 * DAY, now + 6 * DAY, 0.6), now)).toEqual([
      { name: 'avax_validator_uptime_max_achievable_ratio', labels: { subnet: P, node_id: SELF }, value: 0.68 },
    ]);
  });
  it.each([
    ['before the start', 0.5, 100, 200, 50, 1],
    ['after the end: the uptime itself', 0.5, 100, 200, 250, 0.5],
    ['clamped to 1', 1.2, 100, 200, 150, 1],
    ['half way at 100 %', 1, 100, 200, 150, 1],
    ['half way at 0 %', 0, 100, 200, 150, 0.5],
  ])('behavior: %s', (_n, u, start, end, t, want) => {
    expect(maxAchievableUptime(u, start, end, t)).toBe(want);
  });
  it('behavior: only for the own ID, only with every input present', () => {
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, undefined), now)).toEqual([]); // not a validator: no uptime
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, 0.9, ''), now)).toEqual([]); // own ID unknown
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, 0.9, SELF, OTHER), now)).toEqual([]); // a watched ID that is not the own
    expect(maxAchievable.derive(snapshotWith({}), now)).toEqual([]);
  });
});
