// platform.getMinStake, platform.getFeeState, platform.getFeeConfig and platform.getValidatorFeeConfig of the
// simulated node (vms/platformvm/service.go, avalanchego v1.14.2 and v1.15.0): mainnet values (genesis_mainnet.go), changed by the active scenario's `platform` hooks (issue 14:
// `min-stake-raised` puts the minimum validator stake above the own validator's stake, `fee-spike`
// congests the P-Chain).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { rfc3339 } from './go-format.js';
import { NAVAX } from './mainnet-constants.js';
import type { Scenario } from './scenarios/scenario.js';

/** What this file needs of the node model (NodeModel satisfies it structurally). */
export interface EconomicsModel {
  /** the active scenario (`platform` hooks) */
  readonly active: Scenario;
  /** the own validator as registered now (own stake in nAVAX) */
  readonly selfNow: { readonly own: bigint };
  pChainTimeMs(): number;
}

/** Mainnet (docs/avalanchego-wire.md §9): 2,000 AVAX to validate, 25 AVAX to delegate. */
const MIN_VALIDATOR_STAKE = 2000n * NAVAX;
const MIN_DELEGATOR_STAKE = 25n * NAVAX;

export function minStake(m: EconomicsModel): { minValidatorStake: string; minDelegatorStake: string } {
  const raised = m.active.platform?.minValidatorStake;
  const min = raised ? raised(m.selfNow.own) : MIN_VALIDATOR_STAKE;
  return { minValidatorStake: min.toString(), minDelegatorStake: MIN_DELEGATOR_STAKE.toString() };
}

/** platform.getFeeState: plain numbers (gas.State and gas.Price are uint64, not json.Uint64). */
export function feeState(m: EconomicsModel): { capacity: number; excess: number; price: number; timestamp: string } {
  const timestamp = rfc3339(m.pChainTimeMs());
  const spike = m.active.platform?.feeState;
  if (spike) return { capacity: spike.capacity, excess: spike.excess, price: spike.price, timestamp };
  return { capacity: 1000000, excess: 0, price: 1, timestamp };
}

/** platform.getFeeConfig: the P-Chain's dynamic fee config (gas.Config, mainnet genesis params; plain numbers). */
export function feeConfig(): Record<string, unknown> {
  return { weights: [1, 1000, 1000, 4], maxCapacity: 1_000_000, maxPerSecond: 100_000, targetPerSecond: 50_000, minPrice: 1, excessConversionConstant: 2_164_043 };
}

/** platform.getValidatorFeeConfig: the L1 validators' continuous fee config (fee.Config, mainnet: 512 nAVAX/s minimum). */
export function validatorFeeConfig(): Record<string, unknown> {
  return { capacity: 20_000, target: 10_000, minPrice: 512, excessConversionConstant: 1_246_488_515 };
}
