import { describe, expect, it } from 'vitest';
import { platformValidatorsFull, toSamples } from '../../src/collectors/platform-validators-full.js';
import { HttpError, PRIMARY_NETWORK_ID } from '../../src/node-client/index.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const P = PRIMARY_NETWORK_ID;
const SUBNET_L1 = '2TdYXaYpBgDkbgv8VmnwsH3FaCC1XFxn9SJAd8U5E14A6eiefg';
const vals = (n: string) => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', n)).validators;

describe('platform-validators-full toSamples', () => {
  it('default: primary network full list', () => {
    const s = toSamples([{ subnet: P, validators: vals('primary-full') }]);
    assertContract('platform-validators-full', s);
    // stake: 2,000+50 + 3,000,000+9,000,000 + 250,000+0 + 2,500+30 AVAX = 12,254,580 AVAX; v2 (250,000) disconnected
    expect(lines(s)).toEqual([
      `avax_subnet_validators{subnet="${P}"} 4`,
      `avax_subnet_stake_avax{subnet="${P}"} 12254580`,
      `avax_subnet_connected_stake_ratio{subnet="${P}"} ${(12254580 - 250000) / 12254580}`,
    ]);
  });
  it('behavior: L1 (no connected, weights not AVAX) → count only', () => {
    expect(lines(toSamples([{ subnet: SUBNET_L1, validators: vals('l1') }]))).toEqual([`avax_subnet_validators{subnet="${SUBNET_L1}"} 3`]);
  });
  it('behavior: empty set → 0 validators, no ratio', () => {
    expect(lines(toSamples([{ subnet: P, validators: [] }]))).toEqual([`avax_subnet_validators{subnet="${P}"} 0`, `avax_subnet_stake_avax{subnet="${P}"} 0`]);
  });
  it('behavior: sums beyond 2^53 nAVAX stay exact until the edge', () => {
    const v = vals('primary-full');
    const many = Array.from({ length: 1500 }, () => v[1]!); // 1,500 × 12,000,000 AVAX
    expect(valueOf(toSamples([{ subnet: P, validators: many }]), 'avax_subnet_stake_avax')).toBe(18_000_000_000);
  });
});

describe('platform-validators-full collect', () => {
  it('default: no nodeIDs filter; subnetID only for subnets', async () => {
    const { client, calls } = fakeClient({
      'platform.getCurrentValidators': (p: any) => (p.subnetID ? result('platform.getCurrentValidators', 'l1') : result('platform.getCurrentValidators', 'primary-full')),
    });
    const { ctx } = makeCtx(client, { target: { subnets: [SUBNET_L1] } });
    const r = await platformValidatorsFull.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.params)).toEqual([{}, { subnetID: SUBNET_L1 }]);
    expect(valueOf(r.samples, 'avax_subnet_validators', { subnet: SUBNET_L1 })).toBe(3);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: P-Chain not bootstrapped (503)', async () => {
    const { client } = fakeClient({ 'platform.getCurrentValidators': new HttpError('platform.getCurrentValidators', 503, 'API call rejected because chain is not done bootstrapping') });
    const r = await platformValidatorsFull.collect(makeCtx(client).ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });
});
