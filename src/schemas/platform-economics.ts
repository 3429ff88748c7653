import { z } from 'zod';
import { memberOrAlias, Rfc3339Seconds, U64 } from './primitives.js';

/**
 * Network economics (P-Chain API, avalanchego v1.14.2, docs/avalanchego-wire.md §5). Amounts in nAVAX.
 * json.Uint64 strings on the wire (getCurrentSupply, getTotalStake, getMinStake); getFeeState answers
 * plain numbers. Both are accepted everywhere (U64), as the spec and the node disagree.
 */

/** platform.getCurrentSupply {}: `{"supply":"…","height":"…"}` (the docs omit height). An upper bound: burns are not subtracted. */
export const PlatformGetCurrentSupplyResult = z.object({ supply: U64, height: U64.optional() });
export type PlatformGetCurrentSupplyResult = z.output<typeof PlatformGetCurrentSupplyResult>;

/** platform.getTotalStake {}: `{"stake":"…","weight":"…"}`; `stake` is the deprecated duplicate of `weight`. */
export const PlatformGetTotalStakeResult = memberOrAlias('weight', 'stake', U64);
export type PlatformGetTotalStakeResult = z.output<typeof PlatformGetTotalStakeResult>;

/** platform.getMinStake {}: `{"minValidatorStake":"2000000000000","minDelegatorStake":"25000000000"}`. */
export const PlatformGetMinStakeResult = z.object({ minValidatorStake: U64, minDelegatorStake: U64 });
export type PlatformGetMinStakeResult = z.output<typeof PlatformGetMinStakeResult>;

/**
 * platform.getFeeState (ACP-103 dynamic fees, Etna+): `{"capacity":1000000,"excess":0,"price":1,"timestamp":"…"}`,
 * numbers. `price` is the gas price in nAVAX per unit of gas; `capacity` the gas that can be consumed now;
 * `excess` the gas consumed above the target (the price grows exponentially with it).
 */
export const PlatformGetFeeStateResult = z.object({
  capacity: U64,
  excess: U64,
  price: U64,
  timestamp: Rfc3339Seconds.optional(),
});
export type PlatformGetFeeStateResult = z.output<typeof PlatformGetFeeStateResult>;
