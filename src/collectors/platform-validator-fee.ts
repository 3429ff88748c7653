import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import { PlatformGetValidatorFeeStateResult } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { onChange, settle } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

/**
 * avax_l1_validator_fee_price_navax_per_second: the continuous fee every active L1 validator pays
 * (ACP-77). The runway of each watched L1 validator (balance / price) is derived from it.
 */
export function toSamples(v: PlatformGetValidatorFeeStateResult): Sample[] {
  return [sample('avax_l1_validator_fee_price_navax_per_second', {}, u64ToNumber(v.price))];
}

export const platformValidatorFee: Collector = {
  name: 'platform-validator-fee',
  description: 'platform.getValidatorFeeState: the L1 validator fee price (nAVAX per second), for the balance runway.',
  needs: 'P-Chain API (v1.12.2+; absent method = no series)',
  defaultIntervalSeconds: 60,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 1,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
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
    return { samples: toSamples(r.value), errors: [] };
  },
};
