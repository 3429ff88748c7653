import { describe, expect, it } from 'vitest';
import { platformValidatorsFull, toSamples } from '../../src/collectors/platform-validators-full.js';
import { HttpError } from '../../src/node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const P = PRIMARY_NETWORK_ID;
const vals = (n: string) => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', n)).validators;

describe('platform-validators-full toSamples', () => {
  it('default: primary network total stake (own weight plus delegations)', () => {
    const s = toSamples(vals('primary-full'));
    assertContract('platform-validators-full', s);
    // 2,000+50 + 3,000,000+9,000,000 + 250,000+0 + 2,500+30 AVAX = 12,254,580 AVAX
    expect(lines(s)).toEqual([`avax_subnet_stake_avax{subnet="${P}"} 12254580`]);
  });
  it('behavior: empty set → 0', () => {
    expect(lines(toSamples([]))).toEqual([`avax_subnet_stake_avax{subnet="${P}"} 0`]);
  });
  it('behavior: sums beyond 2^53 nAVAX stay exact until the edge', () => {
    const v = vals('primary-full');
    const many = Array.from({ length: 1500 }, () => v[1]!); // 1,500 × 12,000,000 AVAX
    expect(valueOf(toSamples(many), 'avax_subnet_stake_avax')).toBe(18_000_000_000);
  });
});

describe('platform-validators-full collect', () => {
  it('default: the primary list without nodeIDs nor subnetID; its validators and their number published', async () => {
    const { client, calls } = fakeClient({ 'platform.getCurrentValidators': result('platform.getCurrentValidators', 'primary-full') });
    const { ctx } = makeCtx(platformValidatorsFull, client, { target: { subnets: ['2TdYXaYpBgDkbgv8VmnwsH3FaCC1XFxn9SJAd8U5E14A6eiefg'] } });
    const r = await platformValidatorsFull.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.params)).toEqual([{}]);
    expect(r.value?.primaryCount).toBe(4);
    expect(r.value?.primaryValidators.has(vals('primary-full')[0]!.nodeID)).toBe(true);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: P-Chain not bootstrapped (503): no series; the last known set stays published for info-peers', async () => {
    const { client } = fakeClient({ 'platform.getCurrentValidators': new HttpError('platform.getCurrentValidators', 503, 'API call rejected because chain is not done bootstrapping') });
    const previous = { primaryValidators: { has: () => true, size: 1 }, primaryCount: 1 };
    const r = await platformValidatorsFull.collect(makeCtx(platformValidatorsFull, client, { previous }).ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.value).toBe(previous);
  });
});
