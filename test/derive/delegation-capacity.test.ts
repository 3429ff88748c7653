import { describe, expect, it } from 'vitest';
import { delegationCapacity, delegationCapacityNavax } from '../../src/derive/delegation-capacity.js';
import { PRIMARY_NETWORK_ID as P } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';
import { SELF } from '../fixtures/ids.js';

const AVAX = 1_000_000_000n;

describe('derive: delegation capacity', () => {
  it.each([
    ['5 × own stake binds', 2000n * AVAX, 50n * AVAX, 7950n * AVAX],
    ['the 3,000,000 AVAX cap binds', 1_000_000n * AVAX, 0n, 2_000_000n * AVAX],
    ['full (delegations = 4 × own)', 2000n * AVAX, 8000n * AVAX, 0n],
    ['over-full never goes below 0', 2000n * AVAX, 9000n * AVAX, 0n],
  ])('behavior: %s', (_n, own, delegated, want) => {
    expect(delegationCapacityNavax(own, delegated)).toBe(want);
  });
  it('default: one series per watched primary-network validator, in AVAX', () => {
    const vals = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators;
    const s = snapshotWith({ 'platform-validators': { sets: [{ subnet: P, watched: [SELF], validators: vals }] } });
    expect(delegationCapacity.derive(s, 0)).toEqual([{ name: 'avax_validator_delegation_capacity_avax', labels: { subnet: P, node_id: SELF }, value: 7950 }]);
  });
  it('behavior: other subnets, L1 entries and a failed platform-validators run give none', () => {
    const l1 = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'l1')).validators;
    expect(delegationCapacity.derive(snapshotWith({ 'platform-validators': { sets: [{ subnet: 'x', watched: l1.map((v) => v.nodeID), validators: l1 }] } }), 0)).toEqual([]);
    expect(delegationCapacity.derive(snapshotWith({}), 0)).toEqual([]);
  });
});
