import { describe, expect, it } from 'vitest';
import { l1Stakes } from '../../src/collectors/subnet-chains.js';
import { l1WeightAtRisk, weightAtRisk, WEIGHT_AT_RISK_RUNWAY_SECONDS } from '../../src/derive/l1-weight-at-risk.js';
import { PlatformGetCurrentValidatorsResult, type PlatformValidatorUsed } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';

const SUBNET_L1 = '2TdYXaYpBgDkbgv8VmnwsH3FaCC1XFxn9SJAd8U5E14A6eiefg';
const DAY = 86400n;
/** 512 nAVAX/s: a balance of n days of fees. */
const days = (n: number) => BigInt(Math.round(n * 86400)) * 512n;
const stake = (weight: number, balance: bigint) => ({ weight: BigInt(weight), balance });

describe('derive: the share of an L1 weight at risk', () => {
  it.each([
    ['every balance lasts longer than a week', [stake(100, days(30)), stake(100, days(8))], 0],
    ['one of four equal validators under a week', [stake(100, days(30)), stake(100, days(30)), stake(100, days(30)), stake(100, days(6.9))], 0.25],
    ['weighted, not counted: the light validators under a week hold 20 %', [stake(800, days(30)), stake(100, days(1)), stake(100, days(2))], 0.2],
    ['an inactive validator (balance 0) is at risk: its weight still counts and does not vote', [stake(200, 0n), stake(400, days(30))], 0.333333],
    ['a third exactly', [stake(1, days(1)), stake(2, days(30))], 0.333333],
    ['exactly 7 days is not at risk (below, not at)', [stake(1, 7n * DAY * 512n), stake(1, days(30))], 0],
    ['all at risk', [stake(5, days(1)), stake(5, 0n)], 1],
  ])('behavior: weightAtRisk, %s', (_n, stakes, want) => {
    expect(weightAtRisk(stakes, 512)).toBe(want);
  });
  it('behavior: no weight listed → undefined; the horizon is 7 days; a higher price shortens every runway', () => {
    expect(weightAtRisk([], 512)).toBeUndefined();
    expect(weightAtRisk([stake(0, 0n)], 512)).toBeUndefined();
    expect(WEIGHT_AT_RISK_RUNWAY_SECONDS).toBe(7 * 86400);
    const s = [stake(1, days(10)), stake(1, days(30))];
    expect(weightAtRisk(s, 512)).toBe(0);
    expect(weightAtRisk(s, 1024)).toBe(0.5); // 10 days at twice the price: 5 days
  });
  it('default: from the L1 fixture list through subnet-chains (L1 entries only) to one series per L1', () => {
    const vals = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'l1')).validators;
    const stakes = l1Stakes(vals);
    expect(stakes.length).toBe(vals.filter((v) => v.balance !== undefined).length);
    const s = snapshotWith({
      'subnet-chains': { subnets: [SUBNET_L1], chains: [], activeValidators: new Map(), l1Stakes: new Map([[SUBNET_L1, stakes]]) },
      'platform-validator-fee': { priceNavaxPerSecond: 512 },
    });
    const out = l1WeightAtRisk.derive(s, 0);
    expect(out).toEqual([{ name: 'avax_l1_weight_at_risk_ratio', labels: { subnet: SUBNET_L1 }, value: weightAtRisk(stakes, 512) }]);
    expect(out[0]!.value).toBeGreaterThan(0); // the fixture lists an inactive validator
  });
  it('behavior: normal states give no series: no price (before Etna, or failing), a 0 price, a permissioned subnet', () => {
    const l1 = new Map([[SUBNET_L1, [stake(1, 0n)]]]);
    const chains = (l1Stakes: Map<string, ReturnType<typeof stake>[]>) => ({ subnets: [SUBNET_L1], chains: [], activeValidators: new Map(), l1Stakes });
    expect(l1WeightAtRisk.derive(snapshotWith({ 'subnet-chains': chains(l1) }), 0)).toEqual([]);
    expect(l1WeightAtRisk.derive(snapshotWith({ 'subnet-chains': chains(l1), 'platform-validator-fee': { priceNavaxPerSecond: 0 } }), 0)).toEqual([]);
    expect(l1WeightAtRisk.derive(snapshotWith({ 'subnet-chains': chains(new Map()), 'platform-validator-fee': { priceNavaxPerSecond: 512 } }), 0)).toEqual([]);
    // legacy permissioned entries (no validationID, no balance) are not L1 stakes
    expect(l1Stakes([{ nodeID: 'NodeID-x', weight: 10n } as PlatformValidatorUsed])).toEqual([]);
  });
});
