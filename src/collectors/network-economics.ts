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
import { onChange, settle, type Settled } from './support.js';

/**
 * Network economics of the primary network (issue 14 item 3): supply, total stake, the minimum
 * stakes and the P-Chain dynamic fee state (ACP-103). They change slowly: each is asked every 4 minutes.
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
type Method = (typeof METHODS)[number];
const SCHEMAS = {
  'platform.getCurrentSupply': PlatformGetCurrentSupplyResult,
  'platform.getTotalStake': PlatformGetTotalStakeResult,
  'platform.getMinStake': PlatformGetMinStakeResult,
  'platform.getFeeState': PlatformGetFeeStateResult,
} as const;
const FIELD: Record<Method, keyof NetworkEconomics> = {
  'platform.getCurrentSupply': 'supply',
  'platform.getTotalStake': 'totalStake',
  'platform.getMinStake': 'minStake',
  'platform.getFeeState': 'feeState',
};

/**
 * The request budget (at most 12 requests per target in the busiest 15 s cycle, bench row 4) has no
 * room for four requests in one cycle: each run asks one method in turn (every 60 s, so each answer is
 * at most 4 minutes old, like a slow collector's) and exports the last answer of the others. The first run, and any
 * run after a failure (a failure clears what was kept: no old value after an outage), asks all four,
 * and so does a run whose one method is not answered.
 */
export const networkEconomics = defineCollector({
  name: 'network-economics',
  description: 'Primary-network supply, total stake, minimum validator and delegator stake, and the P-Chain gas price, capacity and excess (one method per run, in turn).',
  needs: 'P-Chain API (getFeeState since Etna, v1.12; an absent method = no series for it)',
  interval: 60,
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
  requestsPerRun: () => 1,
  async collect(ctx) {
    const kept = ctx.state.get('kept') as NetworkEconomics | undefined;
    const turn = (ctx.state.get('turn') as number | undefined) ?? 0;
    const call = (m: Method) => settle(ctx.client.rpc(ENDPOINTS.platform, m, {}, SCHEMAS[m], { signal: ctx.signal, normal: isNotFound }));
    // The first run, and the run after a failure, ask all four; the others one in turn, and all four
    // when that one is not answered (the node, not one method, may be the problem).
    let ask: Method[] = kept ? [METHODS[turn % METHODS.length]!] : [...METHODS];
    let settled: Settled<unknown>[] = await Promise.all(ask.map(call));
    if (kept && !settled[0]!.ok) {
      const rest = METHODS.filter((m) => m !== ask[0]);
      settled = [...settled, ...(await Promise.all(rest.map(call)))];
      ask = [...ask, ...rest];
    }
    ctx.state.set('turn', kept ? (turn + 1) % METHODS.length : 0);
    const errors: Error[] = [];
    const fresh: NetworkEconomics = {};
    const next: NetworkEconomics = { ...kept };
    settled.forEach((r, i) => {
      const m = ask[i]!;
      if (r.ok) {
        ctx.state.set(`absent:${m}`, 'no');
        (fresh as Record<string, unknown>)[FIELD[m]] = r.value;
        (next as Record<string, unknown>)[FIELD[m]] = r.value;
        return;
      }
      delete next[FIELD[m]];
      if (isNotFound(r.error)) onChange(ctx, `absent:${m}`, 'yes', () => ctx.log.info({ method: m }, 'method not available on this node: no series for it'));
      else errors.push(r.error);
    });
    // A failing run exports only what it was answered now, and forgets the rest: the next run asks all
    // four again (nothing old survives an outage).
    if (errors.length > 0) {
      ctx.state.delete('kept');
      return { samples: toSamples(fresh), errors };
    }
    // A method answered "absent" (an older node, or a route gone): ask all four again next run, so that
    // every series is back at once when it returns (on a node that lacks one, each run asks four).
    if (METHODS.every((m) => next[FIELD[m]] !== undefined)) ctx.state.set('kept', next);
    else ctx.state.delete('kept');
    return { samples: toSamples(next), errors };
  },
});
