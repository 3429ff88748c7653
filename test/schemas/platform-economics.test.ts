import { describe, expect, it } from 'vitest';
import { PlatformGetCurrentSupplyResult, PlatformGetFeeStateResult, PlatformGetMinStakeResult, PlatformGetTotalStakeResult } from '../../src/schemas/platform-economics.js';
import { result } from '../fixtures/load.js';

describe('network economics schemas', () => {
  it('default: supply, total stake, min stake (json.Uint64 strings), fee state (numbers)', () => {
    expect(PlatformGetCurrentSupplyResult.parse(result('platform.getCurrentSupply', 'default')).supply).toBe(460_512_345_123_456_789n);
    expect(PlatformGetTotalStakeResult.parse(result('platform.getTotalStake', 'default')).weight).toBe(240_123_456_789_012_345n);
    expect(PlatformGetMinStakeResult.parse(result('platform.getMinStake', 'default'))).toEqual({ minValidatorStake: 2_000_000_000_000n, minDelegatorStake: 25_000_000_000n });
    expect(PlatformGetFeeStateResult.parse(result('platform.getFeeState', 'default'))).toMatchObject({ capacity: 1_000_000n, excess: 0n, price: 1n });
  });
  it('behavior: fee state as strings, total stake with weight only or the deprecated stake only', () => {
    expect(PlatformGetFeeStateResult.parse(result('platform.getFeeState', 'strings'))).toMatchObject({ capacity: 880_000n, excess: 3_500_000n, price: 24n });
    expect(PlatformGetTotalStakeResult.parse(result('platform.getTotalStake', 'weight-only')).weight).toBe(1_000_000n);
    expect(PlatformGetTotalStakeResult.parse({ stake: '7' }).weight).toBe(7n);
  });
  it('error: missing or negative members are refused', () => {
    expect(PlatformGetTotalStakeResult.safeParse({}).success).toBe(false);
    expect(PlatformGetMinStakeResult.safeParse({ minValidatorStake: '1' }).success).toBe(false);
    expect(PlatformGetFeeStateResult.safeParse({ capacity: -1, excess: 0, price: 1 }).success).toBe(false);
    expect(PlatformGetCurrentSupplyResult.safeParse({ supply: 1.5 }).success).toBe(false);
  });
});
