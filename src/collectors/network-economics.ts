import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import {
  PlatformGetCurrentSupplyResult,
  PlatformGetFeeStateResult,
  PlatformGetMinStakeResult,
  PlatformGetTotalStakeResult,
} from '../schemas/platform-economics.js';
import { navaxToAvax, u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, eachCall, type CollectorOf } from './define.js';

/**
 * Network economics of the primary network (issue 14 item 3): supply, total stake, the minimum
 * stakes and the P-Chain dynamic fee state (ACP-103). The same from every node of a network: asked
 * once per network per interval (scope `network`), all four in every run, so that each series is at
 * most one interval old, as its HELP says (issue 23 item 5: they were asked one per minute in turn).
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

const ABSENT = 'platform.getFeeState exists from v1.12 (Etna); the others on every supported version';
export const platformGetCurrentSupplyCall = rpcCall({ method: 'platform.getCurrentSupply', endpoint: ENDPOINTS.platform, result: PlatformGetCurrentSupplyResult, absent: ABSENT, scope: 'network' });
export const platformGetTotalStakeCall = rpcCall({ method: 'platform.getTotalStake', endpoint: ENDPOINTS.platform, result: PlatformGetTotalStakeResult, absent: ABSENT, scope: 'network' });
export const platformGetMinStakeCall = rpcCall({ method: 'platform.getMinStake', endpoint: ENDPOINTS.platform, result: PlatformGetMinStakeResult, absent: ABSENT, scope: 'network' });
export const platformGetFeeStateCall = rpcCall({ method: 'platform.getFeeState', endpoint: ENDPOINTS.platform, result: PlatformGetFeeStateResult, absent: ABSENT, scope: 'network' });

export const networkEconomics: CollectorOf<'network-economics'> = defineCollector({
  name: 'network-economics',
  description: 'Primary-network supply, total stake, minimum validator and delegator stake, and the P-Chain gas price, capacity and excess.',
  needs: 'P-Chain API (getFeeState since Etna, v1.12; an absent method = no series for it)',
  // Every 5 minutes, all four each time (the HELP says so): they move slowly, and the request budget of
  // a cycle (at most 12, bench row 4) has no room for four every minute. Asked once per network.
  interval: 300,
  metrics: [
    ...gauges([], {
      avax_network_supply_avax: 'Current AVAX supply (platform.getCurrentSupply; an upper bound: burnt fees are not subtracted), in AVAX.',
      avax_network_total_stake_avax: 'Total stake of the primary network validators, delegations included (platform.getTotalStake weight), in AVAX.',
      avax_network_min_validator_stake_avax: 'Minimum stake to validate the primary network (platform.getMinStake), in AVAX.',
      avax_network_min_delegator_stake_avax: 'Minimum stake to delegate on the primary network (platform.getMinStake), in AVAX.',
      avax_pchain_gas_price_navax: 'P-Chain dynamic fee gas price (platform.getFeeState price), in nAVAX per unit of gas.',
      avax_pchain_gas_capacity: 'P-Chain gas that can be consumed now (platform.getFeeState capacity).',
      avax_pchain_gas_excess: 'P-Chain gas consumed above the target rate (platform.getFeeState excess); the price grows exponentially with it.',
    }),
  ],
  ...eachCall([platformGetCurrentSupplyCall, platformGetTotalStakeCall, platformGetMinStakeCall, platformGetFeeStateCall], ([supply, totalStake, minStake, feeState]) => ({
    samples: toSamples({ supply, totalStake, minStake, feeState }),
  })),
});
