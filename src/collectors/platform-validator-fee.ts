import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import { PlatformGetValidatorFeeStateResult } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { defineCollector } from './define.js';
import { onChange, settle } from './support.js';

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

declare module './define.js' {
  interface CollectorValues {
    'platform-validator-fee': PlatformValidatorFeeValue;
  }
}

export const platformValidatorFee = defineCollector({
  name: 'platform-validator-fee',
  description: 'platform.getValidatorFeeState: the L1 validator fee price (nAVAX per second), for the balance runway.',
  needs: 'P-Chain API (v1.12.2+; absent method = no series)',
  interval: 60,
  metrics: [
    { name: 'avax_l1_validator_fee_price_navax_per_second', type: 'gauge', labels: [], help: 'Continuous fee each active L1 validator pays, in nAVAX per second (platform.getValidatorFeeState price).' },
  ],
  calls: [{ method: 'platform.getValidatorFeeState' }],
  async collect(ctx) {
    const r = await settle(
      ctx.client.rpc(ENDPOINTS.platform, 'platform.getValidatorFeeState', {}, PlatformGetValidatorFeeStateResult, { signal: ctx.signal, normal: isNotFound }),
    );
    if (!r.ok) {
      if (isNotFound(r.error)) {
        onChange(ctx, 'available', 'no', () => ctx.log.info('platform.getValidatorFeeState is not available (node older than v1.12.2): no L1 fee series'));
        return { samples: [], errors: [] };
      }
      return { samples: [], errors: [r.error] };
    }
    ctx.state.set('available', 'yes');
    return { value: { priceNavaxPerSecond: u64ToNumber(r.value.price) }, samples: toSamples(r.value), errors: [] };
  },
});
