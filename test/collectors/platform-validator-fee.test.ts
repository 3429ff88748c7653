import { describe, expect, it } from 'vitest';
import { platformValidatorFee, toSamples } from '../../src/collectors/platform-validator-fee.js';
import { RpcError } from '../../src/node-client/index.js';
import { PlatformGetValidatorFeeStateResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const fee = (name: string) => toSamples(PlatformGetValidatorFeeStateResult.parse(result('platform.getValidatorFeeState', name)));

describe('platform-validator-fee', () => {
  it('default: numbers on the wire → the price', () => {
    const s = fee('default');
    assertContract('platform-validator-fee', s);
    expect(lines(s)).toEqual(['avax_l1_validator_fee_price_navax_per_second 512']);
  });
  it('behavior: decimal strings are accepted', () => {
    expect(valueOf(fee('strings'), 'avax_l1_validator_fee_price_navax_per_second')).toBe(2048);
  });
  it('behavior: node older than v1.12.2 (method absent) → no series, success', async () => {
    const { client } = fakeClient({ 'platform.getValidatorFeeState': new RpcError('platform.getValidatorFeeState', -32601, 'rpc: can\'t find method "platform.getValidatorFeeState"') });
    expect(await platformValidatorFee.collect(makeCtx(platformValidatorFee, client).ctx)).toEqual({ samples: [], errors: [] });
  });
});
