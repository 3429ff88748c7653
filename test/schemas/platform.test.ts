import { describe, expect, it } from 'vitest';
import { isAutoRenewed, isL1Validator, PlatformGetCurrentValidatorsLean, PlatformGetCurrentValidatorsResult, PlatformGetHeightResult, PlatformGetTimestampResult, PlatformGetValidatorFeeStateResult } from '../../src/schemas/platform.js';
import { cb58Encode } from '../../src/schemas/primitives.js';
import { result } from '../fixtures/load.js';
import { exchange, NODE1, NODE2 } from '../helpers/helicon-recording.js';

describe('platform.getCurrentValidators', () => {
  it('default: primary network entry with delegators', () => {
    const [v] = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators;
    expect(v!.weight).toBe(2_000_000_000_000n);
    expect(v!.startTime).toBe(1775000000n);
    expect(v!.uptime).toBe(100);
    expect(v!.delegationFee).toBe(2);
    expect(v!.connected).toBe(true);
    expect(v!.delegators).toHaveLength(2);
    expect(v!.signer?.proofOfPossession).toMatch(/^0x/);
    expect(isL1Validator(v!)).toBe(false);
  });
  it('behavior: full list, one entry without signer, extra field stripped', () => {
    const vs = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-full')).validators;
    expect(vs).toHaveLength(4);
    expect(vs[3]!.signer).toBeUndefined();
    expect(vs[1]).not.toHaveProperty('futureField');
    expect(vs[1]!.delegatorWeight).toBe(9_000_000_000_000_000n);
  });
  it('behavior: L1 shape and legacy shape in one answer, values beyond 2^53 exact', () => {
    const vs = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'l1')).validators;
    expect(vs.map(isL1Validator)).toEqual([true, true, false]);
    expect(vs[0]!.balance).toBe(9_007_199_254_740_993n);
    expect(vs[1]!.weight).toBe(18_446_744_073_709_551_615n);
    expect(vs[0]!.endTime).toBeUndefined();
    expect(vs[2]!.endTime).toBe(1790000000n);
  });
  it('behavior: ACP-236 auto-renewed entries (master) in both namings, and v1.14.2 entries without the fields', () => {
    for (const schema of [PlatformGetCurrentValidatorsResult, PlatformGetCurrentValidatorsLean]) {
      const r = schema.safeParse(result('platform.getCurrentValidators', 'auto-renewed'));
      const [v] = r.success ? r.data.validators : [];
      expect(v!.nextPeriod).toBe(1_209_600n);
      expect(v!.autoCompoundRewardShares).toBe(300_000);
      expect(isAutoRenewed(v!)).toBe(true);
      const e = schema.safeParse(result('platform.getCurrentValidators', 'auto-renewed-exiting'));
      const [x] = e.success ? e.data.validators : [];
      expect(x!.nextPeriod).toBe(0n); // `period` of an earlier master, 0: leaves at the end of the cycle
      expect(x!.autoCompoundRewardShares).toBe(1_000_000);
      expect(isAutoRenewed(x!)).toBe(true);
      const old = schema.safeParse(result('platform.getCurrentValidators', 'primary-watched'));
      const [o] = old.success ? old.data.validators : [];
      expect(o!.nextPeriod).toBeUndefined();
      expect(isAutoRenewed(o!)).toBe(false);
    }
    expect(PlatformGetCurrentValidatorsResult.safeParse({ validators: [{ nodeID: 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv', nextPeriod: '-1' }] }).success).toBe(false);
  });
  it('default: a real v1.15.0 auto-renewed entry and a genesis entry (real-node-helicon): the config on the first only, accruedDelegateeReward on both', () => {
    for (const schema of [PlatformGetCurrentValidatorsResult, PlatformGetCurrentValidatorsLean]) {
      const r = schema.safeParse(exchange('p1-right-after-tx', 'platform.getCurrentValidators.all').result);
      expect(r.success).toBe(true);
      const byId = new Map((r.success ? r.data.validators : []).map((v) => [v.nodeID, v]));
      const auto = byId.get(NODE2)!;
      expect([auto.nextPeriod, auto.autoCompoundRewardShares, auto.authority, auto.accruedDelegateeReward]).toEqual([240n, 500_000, { threshold: 1, addresses: 1 }, 0n]);
      expect(isAutoRenewed(auto)).toBe(true);
      const genesis = byId.get(NODE1)!;
      expect([genesis.nextPeriod, genesis.autoCompoundRewardShares, genesis.authority, genesis.accruedDelegateeReward]).toEqual([undefined, undefined, undefined, 0n]);
      expect(isAutoRenewed(genesis)).toBe(false);
      // After SetAutoRenewedValidatorConfigTx with period 0 the key stays, at 0: still auto-renewed, leaving.
      const exiting = schema.safeParse(exchange('p4b-after-set-period0', 'platform.getCurrentValidators.node2').result);
      const [x] = exiting.success ? exiting.data.validators : [];
      expect([x!.nextPeriod, isAutoRenewed(x!)]).toEqual([0n, true]);
    }
    const bad = { validators: [{ nodeID: NODE2, validatorAuthority: { threshold: 'one', addresses: [] } }] };
    expect(PlatformGetCurrentValidatorsResult.safeParse(bad).success).toBe(false);
    expect(PlatformGetCurrentValidatorsLean.safeParse(bad).success).toBe(false);
  });
  it('behavior: spec variant (proofOfPosession, stakeAmount, numbers, delegators null)', () => {
    const [v] = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'spec-variant')).validators;
    expect(v!.weight).toBe(12_345_678_901_234_567_891n);
    expect(v!.startTime).toBe(1775000000n);
    expect(v!.signer?.proofOfPossession).toMatch(/^0x/);
    expect(v!.delegators).toEqual([]);
    expect(v).not.toHaveProperty('stakeAmount');
  });
  it('error: bad txID checksum names the entry', () => {
    const raw = result('platform.getCurrentValidators', 'primary-full');
    raw.validators[2].txID = raw.validators[2].txID.slice(0, -1) + (raw.validators[2].txID.endsWith('A') ? 'B' : 'A');
    const r = PlatformGetCurrentValidatorsResult.safeParse(raw);
    expect(r.error?.issues[0]?.path).toEqual(['validators', 2, 'txID']);
  });
  it('error: weight as a fraction, connected as a string', () => {
    const raw = result('platform.getCurrentValidators', 'primary-full');
    raw.validators[0].weight = '2000.5';
    raw.validators[1].connected = 'true';
    expect(PlatformGetCurrentValidatorsResult.safeParse(raw).error?.issues.map((i) => i.path.join('.'))).toEqual([
      'validators.0.weight',
      'validators.1.connected',
    ]);
  });

  it('behavior: a mainnet-sized answer (1,500 entries) parses, every entry validated (timing is measured in npm run bench, not here)', () => {
    const template = result('platform.getCurrentValidators', 'primary-full').validators[0];
    const validators = Array.from({ length: 1500 }, (_, i) => {
      const b = new Uint8Array(32);
      new DataView(b.buffer).setUint32(0, i + 1);
      return {
        ...template,
        txID: cb58Encode(b),
        nodeID: `NodeID-${cb58Encode(b.subarray(0, 20))}`,
        weight: String(2_000_000_000_000 + i),
        uptime: (90 + (i % 10) + 0.1234).toFixed(4),
      };
    });
    const body = JSON.stringify({ validators });
    const parsed = PlatformGetCurrentValidatorsResult.parse(JSON.parse(body)).validators;
    expect(parsed).toHaveLength(1500);
    expect(parsed[1499]!.nodeID).toBe(validators[1499]!.nodeID);
    // One corrupted checksum anywhere in the list is caught.
    const bad = JSON.parse(body);
    bad.validators[777].nodeID = bad.validators[777].nodeID.slice(0, -1) + (bad.validators[777].nodeID.endsWith('1') ? '2' : '1');
    expect(PlatformGetCurrentValidatorsResult.safeParse(bad).success).toBe(false);
  });
});

describe('platform.getHeight / getTimestamp', () => {
  it('default: string and number heights', () => {
    expect(PlatformGetHeightResult.parse(result('platform.getHeight', 'default')).height).toBe(23961402n);
    expect(PlatformGetHeightResult.parse(result('platform.getHeight', 'number')).height).toBe(23961402n);
  });
  it('default: timestamp in UTC, with an offset, and as the spec member `time`', () => {
    for (const name of ['default', 'offset', 'spec-time']) {
      expect(PlatformGetTimestampResult.parse(result('platform.getTimestamp', name))).toEqual({ timestamp: 1778750491 });
    }
  });
  it('error: timestamp missing or malformed', () => {
    expect(PlatformGetTimestampResult.safeParse({}).error?.issues[0]?.message).toContain('expected "timestamp"');
    expect(PlatformGetTimestampResult.safeParse({ timestamp: '1778750491' }).error?.issues[0]?.message).toContain('invalid RFC3339 timestamp');
  });
});

describe('platform.getValidatorFeeState', () => {
  it('error: a negative or missing price is rejected', () => {
    expect(PlatformGetValidatorFeeStateResult.safeParse({ excess: 0, price: -1 }).success).toBe(false);
    expect(PlatformGetValidatorFeeStateResult.safeParse({ excess: 0 }).success).toBe(false);
  });
});
