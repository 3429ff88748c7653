import { describe, expect, it } from 'vitest';
import { PRIMARY_NETWORK_ID as P } from '../../src/avalanche.js';
import { maxAchievable } from '../../src/derive/max-achievable-uptime.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { SELF } from '../fixtures/ids.js';
import { result } from '../fixtures/load.js';
import { seenByConnectedStake, uptimeConnectedStake } from '../../src/derive/uptime-connected-stake.js';
import { snapshotWith } from './snapshot.js';

const uptime = (weighted: number, rewarding: number) => ({ weightedAverageRatio: weighted, rewardingStakeRatio: rewarding, atSeconds: 1_000 });
const metrics = (p: number | undefined) => ({ available: true, stakeConnected: new Map(p === undefined ? [] : [['P', p]]) });

describe('derive: uptime as the connected stake sees it', () => {
  it('default: one validator of five down (20 % of the stake): info.uptime says 80 %, the connected stake 100 % (real v1.15.0 nodes)', () => {
    const s = snapshotWith({ 'info-uptime': uptime(0.8, 0.8), 'node-metrics': metrics(0.8) });
    expect(uptimeConnectedStake.derive(s, 0)).toEqual([
      { name: 'avax_uptime_connected_weighted_average_ratio', labels: {}, value: 1 },
      { name: 'avax_uptime_connected_rewarding_stake_ratio', labels: {}, value: 1 },
    ]);
  });
  it('behavior: a node really down for its peers stays below the requirement over the stake it is connected to', () => {
    // 30 % of the connected stake saw it up a third of the time: weighted 0.7 of the 0.9 connected.
    expect(seenByConnectedStake(0.63, 0.9)).toBe(0.7);
    expect(seenByConnectedStake(0.99, 0.98)).toBe(1); // never above 1 (the two figures are read a moment apart)
  });
  it('edge: no connected share (node-metrics off, not yet read, 0) → no series, nothing made up', () => {
    expect(uptimeConnectedStake.derive(snapshotWith({ 'info-uptime': uptime(0.8, 0.8) }), 0)).toEqual([]);
    expect(uptimeConnectedStake.derive(snapshotWith({ 'info-uptime': uptime(0.8, 0.8), 'node-metrics': metrics(undefined) }), 0)).toEqual([]);
    expect(uptimeConnectedStake.derive(snapshotWith({ 'info-uptime': uptime(0.8, 0.8), 'node-metrics': metrics(0) }), 0)).toEqual([]);
    expect(uptimeConnectedStake.derive(snapshotWith({ 'node-metrics': metrics(0.8) }), 0)).toEqual([]);
    expect(seenByConnectedStake(Number.NaN, 0.8)).toBeUndefined();
  });
  it('behavior: the reachable uptime reads the same view (a validator down elsewhere takes nothing from it)', () => {
    const now = 1_800_000_000;
    const DAY = 86_400;
    const entry = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators[0]!;
    const own = { ...entry, nodeID: SELF, startTime: BigInt(now - 10 * DAY), endTime: BigInt(now + 20 * DAY) };
    const snap = (connected: number | undefined) =>
      snapshotWith({
        'node-info': { nodeId: SELF },
        'info-uptime': { weightedAverageRatio: 0.76, rewardingStakeRatio: 0.76, atSeconds: now },
        'node-metrics': metrics(connected) as never,
        'platform-validators': { sets: [{ subnet: P, watched: [SELF], validators: [own] }] },
      });
    const best = (connected: number | undefined) => maxAchievable.derive(snap(connected), now).find((x) => x.name === 'avax_validator_uptime_max_achievable_ratio')?.value;
    // 0.76 of the whole stake is 0.95 of the 80 % connected: (0.95·10 + 20) / 30.
    expect(best(0.8)).toBe(0.983333);
    // Without the share, info.uptime's own figure: (0.76·10 + 20) / 30.
    expect(best(undefined)).toBe(0.92);
  });
});
