import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { PlatformGetValidatorFeeStateResult } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, oneCall, type CollectorOf } from './define.js';

/**
 * avax_l1_validator_fee_price_navax_per_second: the continuous fee every active L1 validator pays
 * (ACP-77). The runway of each watched L1 validator (balance / price) is derived from it.
 */
export function toSamples(v: PlatformGetValidatorFeeStateResult): Sample[] {
  return [sample('avax_l1_validator_fee_price_navax_per_second', {}, u64ToNumber(v.price))];
}

/** What platform-validator-fee publishes: the L1 validator fee price (for the balance runway). */
export interface PlatformValidatorFeeValue {
  readonly priceNavaxPerSecond: number;
}

export const platformGetValidatorFeeStateCall = rpcCall({ method: 'platform.getValidatorFeeState', endpoint: ENDPOINTS.platform, result: PlatformGetValidatorFeeStateResult, absent: 'platform.getValidatorFeeState exists from v1.12.2', scope: 'network' });

export const platformValidatorFee: CollectorOf<'platform-validator-fee', PlatformValidatorFeeValue> = defineCollector({
  name: 'platform-validator-fee',
  description: 'platform.getValidatorFeeState: the L1 validator fee price (nAVAX per second), for the balance runway.',
  needs: 'P-Chain API (v1.12.2+; absent method = no series)',
  interval: 60,
  metrics: [gauge('avax_l1_validator_fee_price_navax_per_second', 'Continuous fee each active L1 validator pays, in nAVAX per second (platform.getValidatorFeeState price).')],
  ...oneCall(platformGetValidatorFeeStateCall, (v) => ({ value: { priceNavaxPerSecond: u64ToNumber(v.price) }, samples: toSamples(v) })),
});
