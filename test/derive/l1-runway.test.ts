import { describe, expect, it } from 'vitest';
import { l1Runway, runwaySeconds } from '../../src/derive/l1-runway.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';
import { SUBNET_L1 } from '../fixtures/ids.js';

const l1 = () => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'l1')).validators;

describe('derive: L1 balance runway', () => {
  it('default: balance / price per watched L1 validator; 0 when inactive; legacy entries have none', () => {
    const vals = l1();
    const watched = vals.map((v) => v.nodeID);
    const s = snapshotWith({ 'platform-validators': { sets: [{ subnet: SUBNET_L1, watched, validators: vals }] }, 'platform-validator-fee': { priceNavaxPerSecond: 512 } });
    const out = l1Runway.derive(s, 0);
    const withBalance = vals.filter((v) => v.balance !== undefined);
    expect(out.map((x) => x.labels['node_id'])).toEqual(withBalance.map((v) => v.nodeID));
    for (const v of withBalance) expect(out.find((x) => x.labels['node_id'] === v.nodeID)!.value).toBe(runwaySeconds(v.balance!, 512));
    expect(out.some((x) => x.value === 0)).toBe(true); // the inactive one (balance 0)
  });
  it.each([
    ['one day of fees', 512n * 86400n, 512, 86400],
    ['inactive', 0n, 512, 0],
    ['a higher price shortens it', 512n * 86400n, 1024, 43200],
  ])('behavior: runwaySeconds, %s', (_n, balance, price, want) => {
    expect(runwaySeconds(balance, price)).toBe(want);
  });
  it('behavior: no price (method absent, or failing) or a 0 price → no series', () => {
    const vals = l1();
    const sets = [{ subnet: SUBNET_L1, watched: vals.map((v) => v.nodeID), validators: vals }];
    expect(l1Runway.derive(snapshotWith({ 'platform-validators': { sets } }), 0)).toEqual([]);
    expect(l1Runway.derive(snapshotWith({ 'platform-validators': { sets }, 'platform-validator-fee': { priceNavaxPerSecond: 0 } }), 0)).toEqual([]);
  });
  it('behavior: entries not watched are left out', () => {
    const vals = l1();
    const s = snapshotWith({ 'platform-validators': { sets: [{ subnet: SUBNET_L1, watched: [], validators: vals }] }, 'platform-validator-fee': { priceNavaxPerSecond: 512 } });
    expect(l1Runway.derive(s, 0)).toEqual([]);
  });
});
