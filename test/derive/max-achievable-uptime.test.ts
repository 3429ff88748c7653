import { describe, expect, it } from 'vitest';
import { beforeFirstPeerReport, downtimeBudgetSeconds, FIRST_PEER_REPORT_SECONDS, maxAchievable, maxAchievableUptime } from '../../src/derive/max-achievable-uptime.js';
import { PRIMARY_NETWORK_ID as P } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';
import { OTHER, SELF } from '../fixtures/ids.js';

const DAY = 86400;
const now = 1_800_000_000;

function validation(start: number, end: number, u: number | undefined, own = SELF, id = SELF, o: { fixture?: string; heliconTime?: number; answeredAt?: number; processStart?: number; rewarding?: number } = {}) {
  const entry = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', o.fixture ?? 'primary-watched')).validators[0]!;
  const v = { ...entry, nodeID: id, startTime: BigInt(start), endTime: BigInt(end) };
  return snapshotWith({
    'node-info': { nodeId: own },
    ...(u === undefined ? {} : { 'info-uptime': { weightedAverageRatio: u, rewardingStakeRatio: o.rewarding ?? 1, atSeconds: o.answeredAt ?? now } }),
    ...(o.processStart === undefined ? {} : { 'node-metrics': { available: true, stakeConnected: new Map(), processStartTime: o.processStart } as never }),
    'platform-validators': { sets: [{ subnet: P, watched: [id], validators: [v] }] },
    ...(o.heliconTime === undefined ? {} : { 'info-upgrades': { times: {}, heliconTime: o.heliconTime } }),
  });
}

const byName = (samples: { name: string; value: number }[]) => Object.fromEntries(samples.map((x) => [x.name, x.value]));

describe('derive: max-achievable uptime', () => {
  it('default: (u·elapsed + remaining) / duration: 60 % after 80 % of the time → 68 %', () => {
    expect(maxAchievable.derive(validation(now - 24 * DAY, now + 6 * DAY, 0.6), now)).toEqual([
      { name: 'avax_validator_uptime_max_achievable_ratio', labels: { subnet: P, node_id: SELF }, value: 0.68 },
      { name: 'avax_validator_uptime_requirement_reachable', labels: { subnet: P, node_id: SELF }, value: 0 },
      { name: 'avax_validator_downtime_budget_seconds', labels: { subnet: P, node_id: SELF }, value: 0 },
    ]);
  });
  it('default: the downtime budget of a 30-day validation at 95 % after 10 days, 80 % required: 0.95·10 + 20 − 0.8·30 = 5.5 days', () => {
    expect(byName(maxAchievable.derive(validation(now - 10 * DAY, now + 20 * DAY, 0.95), now))).toEqual({
      avax_validator_uptime_max_achievable_ratio: 0.983333,
      avax_validator_uptime_requirement_reachable: 1,
      avax_validator_downtime_budget_seconds: 5.5 * DAY,
    });
  });
  it.each([
    // [case, u, start, end, now, requirement, budget]
    ['before the start: (1 − r) of the duration', 1, 100, 200, 50, 0.8, 20],
    ['up all along at the start: the same', 1, 100, 200, 100, 0.9, 10],
    ['up all along half way: unchanged while up', 1, 100, 200, 150, 0.9, 10],
    ['down 5 s of the first 50: 5 s less', 0.9, 100, 200, 150, 0.9, 5],
    ['exactly at the requirement: 0', 0.8, 100, 200, 150, 0.9, 0],
    ['beyond reach: 0, never negative', 0.5, 100, 200, 190, 0.8, 0],
    ['after the end: 0 (the reward is decided)', 1, 100, 200, 250, 0.8, 0],
  ])('behavior: downtime budget %s', (_n, u, start, end, t, r, want) => {
    expect(downtimeBudgetSeconds(u, start, end, t, r)).toBeCloseTo(want, 6);
  });
  it('behavior: the requirement the node sets for this validation: 90 % when it started after Helicon, 80 % before it or with Helicon unknown', () => {
    // 93 % after 10 of 20 days: 0.965 at best; 90 %: 0.065 of 20 d = 1.3 d of downtime left; 80 %: 3.3 d.
    const after = byName(maxAchievable.derive(validation(now - 10 * DAY, now + 10 * DAY, 0.93, SELF, SELF, { heliconTime: now - 30 * DAY }), now));
    const before = byName(maxAchievable.derive(validation(now - 10 * DAY, now + 10 * DAY, 0.93, SELF, SELF, { heliconTime: now - 5 * DAY }), now));
    const unknown = byName(maxAchievable.derive(validation(now - 10 * DAY, now + 10 * DAY, 0.93), now));
    expect(after['avax_validator_downtime_budget_seconds']).toBeCloseTo(0.065 * 20 * DAY, 0);
    expect(before['avax_validator_downtime_budget_seconds']).toBeCloseTo(0.165 * 20 * DAY, 0);
    expect(unknown).toEqual(before);
    // Unreachable at 90 %, reachable at 80 %: 70 % after 10 of 20 days → 85 % at best.
    expect(byName(maxAchievable.derive(validation(now - 10 * DAY, now + 10 * DAY, 0.7, SELF, SELF, { heliconTime: 0 }), now))['avax_validator_uptime_requirement_reachable']).toBe(0);
    expect(byName(maxAchievable.derive(validation(now - 10 * DAY, now + 10 * DAY, 0.7, SELF, SELF, { heliconTime: Infinity }), now))['avax_validator_uptime_requirement_reachable']).toBe(1);
  });
  it('behavior: an auto-renewed validator (ACP-236): its current cycle, at 90 % even with Helicon unknown', () => {
    // A 14-day cycle, 7 days in, 85 %: 0.925 at best, 0.025·14 d = 8.4 h of downtime left; 80 % would leave 1.75 d.
    const cycle = byName(maxAchievable.derive(validation(now - 7 * DAY, now + 7 * DAY, 0.85, SELF, SELF, { fixture: 'auto-renewed' }), now));
    expect(cycle['avax_validator_uptime_max_achievable_ratio']).toBe(0.925);
    expect(cycle['avax_validator_uptime_requirement_reachable']).toBe(1);
    expect(cycle['avax_validator_downtime_budget_seconds']).toBeCloseTo(0.025 * 14 * DAY, -1); // 8.4 h, to the second
    const lost = byName(maxAchievable.derive(validation(now - 12 * DAY, now + 2 * DAY, 0.85, SELF, SELF, { fixture: 'auto-renewed' }), now));
    expect(lost['avax_validator_uptime_requirement_reachable']).toBe(0); // 0.871 < 0.9: removed at the boundary
    expect(lost['avax_validator_downtime_budget_seconds']).toBe(0);
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
  it('behavior: an answer that counts no peer report yet (right after joining or restarting) drives nothing; the next one does', () => {
    const start = now - 300;
    const end = now + 3600;
    const early = (u: number, at: number, o: { rewarding?: number; processStart?: number; validationStart?: number } = {}) =>
      maxAchievable.derive(validation(o.validationStart ?? start, end, u, SELF, SELF, { answeredAt: at, rewarding: o.rewarding ?? u, processStart: o.processStart }), now);
    // 8 s after joining, the recorded answer: the own stake share only, rewarding = weighted (0.02 %).
    expect(early(0.0002, start + 8)).toEqual([]);
    expect(early(0.0002, start + FIRST_PEER_REPORT_SECONDS - 1)).toEqual([]);
    expect(early(1, start + 14)).toEqual([]); // node1's first report, 100 %: the same number, left out too
    expect(byName(early(1, start + FIRST_PEER_REPORT_SECONDS))['avax_validator_downtime_budget_seconds']).toBeGreaterThan(0);
    // An early report below the requirement (weighted above rewarding: node1's 67 % after node2's restart) counts.
    expect(early(0.670066, start + 30, { rewarding: 0.0002 })).toHaveLength(3);
    // A restart 20 s before the answer, long into the validation: left out; 61 s: counted.
    expect(early(0.0002, now, { validationStart: now - 10 * DAY, processStart: now - 20 })).toEqual([]);
    expect(early(0.9, now, { validationStart: now - 10 * DAY, processStart: now - 61 })).toHaveLength(3);
    // Without node-metrics (process start unknown) only the validation's start counts.
    expect(early(0.0002, now, { validationStart: now - 10 * DAY })).toHaveLength(3);
  });
  it.each([
    ['8 s after the start, rewarding = weighted', 1000, 1008, undefined, 0.0002, 0.0002, true],
    ['8 s after the start, a report below the requirement (weighted > rewarding)', 1000, 1008, undefined, 0.0002, 0.67, false],
    ['8 s after the start, a healthy figure (weighted < rewarding)', 1000, 1008, undefined, 0.999, 0.993, false],
    ['exactly FIRST_PEER_REPORT_SECONDS after', 1000, 1000 + FIRST_PEER_REPORT_SECONDS, undefined, 0.0002, 0.0002, false],
    ['long after the start, 30 s after a restart', 1000, 9000, 8970, 0.0002, 0.0002, true],
    ['long after both', 1000, 9000, 5000, 0.0002, 0.0002, false],
    ['a process start before the validation: the validation counts', 1000, 1030, 10, 1, 1, true],
    ['a node clock a little ahead: a process start just after the answer still counts', 1000, 9000, 9010, 1, 1, true],
    ['a process start long after the answer: the clocks disagree, not compared', 1000, 9000, 9000 + FIRST_PEER_REPORT_SECONDS + 1, 1, 1, false],
  ])('behavior: beforeFirstPeerReport %s', (_n, start, at, proc, rewarding, weighted, want) => {
    expect(beforeFirstPeerReport({ atSeconds: at, rewardingStakeRatio: rewarding, weightedAverageRatio: weighted }, start, proc)).toBe(want);
  });
  it('behavior: only for the own ID, only with every input present', () => {
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, undefined), now)).toEqual([]); // not a validator: no uptime
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, 0.9, ''), now)).toEqual([]); // own ID unknown
    expect(maxAchievable.derive(validation(now - DAY, now + DAY, 0.9, SELF, OTHER), now)).toEqual([]); // a watched ID that is not the own
    expect(maxAchievable.derive(snapshotWith({}), now)).toEqual([]);
  });
});
