import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import {
  PlatformGetCurrentSupplyResult,
  PlatformGetFeeStateResult,
  PlatformGetMinStakeResult,
  PlatformGetTotalStakeResult,
} from '../schemas/platform-economics.js';
import { navaxToAvax, u64ToNumber } from '../schemas/primitives.js';
import { defineCollector } from './define.js';
import { onChange, settleAll, type Settled } from './support.js';

/**
 * Network economics of the primary network (issue 14 item 3): supply, total stake, the minimum
 * stakes and the P-Chain dynamic fee state (ACP-103). They change slowly: a 5-minute interval, its
 * four requests spread by the scheduler like any other slow collector's.
 */

export interface NetworkEconomics {
  supply?: PlatformGetCurrentSupplyResult;
  totalStake?: PlatformGetTotalStakeResult;
  minStake?: PlatformGetMinStakeResult;
  feeState?: PlatformGetFeeStateResult;
}

export function toSamples(e: NetworkEconomics): Sample[] {
  const out: Sample[] = [];
  if (e.supply) out.push(sample('avax_network_supply_avax', {}, navaxToAvax(e.supply.supply)));
  if (e.totalStake) out.push(sample('avax_network_total_stake_avax', {}, navaxToAvax(e.totalStake.weight)));
  if (e.minStake) {
    out.push(sample('avax_network_min_validator_stake_avax', {}, navaxToAvax(e.minStake.minValidatorStake)));
    out.push(sample('avax_network_min_delegator_stake_avax', {}, navaxToAvax(e.minStake.minDelegatorStake)));
  }
  if (e.feeState) {
    out.push(sample('avax_pchain_gas_price_navax', {}, u64ToNumber(e.feeState.price)));
    out.push(sample('avax_pchain_gas_capacity', {}, u64ToNumber(e.feeState.capacity)));
    out.push(sample('avax_pchain_gas_excess', {}, u64ToNumber(e.feeState.excess)));
  }
  return out;
}

const METHODS = ['platform.getCurrentSupply', 'platform.getTotalStake', 'platform.getMinStake', 'platform.getFeeState'] as const;

export const networkEconomics = defineCollector({
  name: 'network-economics',
  description: 'Primary-network supply, total stake, minimum validator and delegator stake, and the P-Chain gas price, capacity and excess.',
  needs: 'P-Chain API (getFeeState since Etna, v1.12; an absent method = no series for it)',
  interval: 300,
  metrics: [
    { name: 'avax_network_supply_avax', type: 'gauge', labels: [], help: 'Current AVAX supply (platform.getCurrentSupply; an upper bound: burnt fees are not subtracted), in AVAX.' },
    { name: 'avax_network_total_stake_avax', type: 'gauge', labels: [], help: 'Total stake of the primary network validators, delegations included (platform.getTotalStake weight), in AVAX.' },
    { name: 'avax_network_min_validator_stake_avax', type: 'gauge', labels: [], help: 'Minimum stake to validate the primary network (platform.getMinStake), in AVAX.' },
    { name: 'avax_network_min_delegator_stake_avax', type: 'gauge', labels: [], help: 'Minimum stake to delegate on the primary network (platform.getMinStake), in AVAX.' },
    { name: 'avax_pchain_gas_price_navax', type: 'gauge', labels: [], help: 'P-Chain dynamic fee gas price (platform.getFeeState price), in nAVAX per unit of gas.' },
    { name: 'avax_pchain_gas_capacity', type: 'gauge', labels: [], help: 'P-Chain gas that can be consumed now (platform.getFeeState capacity).' },
    { name: 'avax_pchain_gas_excess', type: 'gauge', labels: [], help: 'P-Chain gas consumed above the target rate (platform.getFeeState excess); the price grows exponentially with it.' },
  ],
  calls: METHODS.map((method) => ({ method })),
  async collect(ctx) {
    const call = <S extends Parameters<typeof ctx.client.rpc>[3]>(method: string, schema: S) =>
      ctx.client.rpc(ENDPOINTS.platform, method, {}, schema, { signal: ctx.signal, normal: isNotFound });
    const settled = await settleAll([
      call(METHODS[0], PlatformGetCurrentSupplyResult),
      call(METHODS[1], PlatformGetTotalStakeResult),
      call(METHODS[2], PlatformGetMinStakeResult),
      call(METHODS[3], PlatformGetFeeStateResult),
    ] as const);
    const errors: Error[] = [];
    const ok = <T>(r: Settled<T>, i: number): T | undefined => {
      if (r.ok) {
        ctx.state.set(`absent:${METHODS[i]}`, 'no');
        return r.value;
      }
      if (isNotFound(r.error)) onChange(ctx, `absent:${METHODS[i]}`, 'yes', () => ctx.log.info({ method: METHODS[i] }, 'method not available on this node: no series for it'));
      else errors.push(r.error);
      return undefined;
    };
    const e: NetworkEconomics = {
      supply: ok(settled[0], 0),
      totalStake: ok(settled[1], 1),
      minStake: ok(settled[2], 2),
      feeState: ok(settled[3], 3),
    };
    return { samples: toSamples(e), errors };
  },
});
