import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { PlatformGetCurrentValidatorsLean, type PlatformValidatorUsed } from '../schemas/platform.js';
import { navaxToAvax } from '../schemas/primitives.js';
import { defineCollector, type CollectorOf } from './define.js';
import { NodeIdSet } from './node-id-set.js';

/**
 * The primary network's full validator list (several MB on mainnet): the same from every node of a
 * network, so asked once per network per interval (a network-scoped call). It gives the primary
 * network's total stake, its number of validators and which NodeIDs validate (for info-peers'
 * observed-uptime quantiles and subnet-chains' membership). What only the asked node can say, the
 * `connected` flags, is not used: the connected stake share is the node's own figure (node-metrics,
 * derive/subnet-connected-stake.ts), and the other subnets' lists are subnet-chains'.
 */
export function toSamples(validators: readonly PlatformValidatorUsed[]): Sample[] {
  let total = 0n;
  for (const v of validators) total += (v.weight ?? 0n) + (v.delegatorWeight ?? 0n);
  return [sample('avax_subnet_stake_avax', { subnet: PRIMARY_NETWORK_ID }, navaxToAvax(total))];
}

/** What platform-validators-full publishes: the current primary-network validators. */
export interface PlatformValidatorsFullValue {
  readonly primaryValidators: NodeIdSet;
  /** How many there are (avax_subnet_validators of the primary network, derive/subnet-validators.ts). */
  readonly primaryCount: number;
}

/** Every validator of the primary network: no nodeIDs filter, no subnetID (platform-validators' requests have nodeIDs). */
export const getPrimaryValidatorsCall = rpcCall({
  method: 'platform.getCurrentValidators',
  endpoint: ENDPOINTS.platform,
  wire: () => ({}),
  result: PlatformGetCurrentValidatorsLean,
  recognise: (p) => !Array.isArray(p['nodeIDs']) && (p['subnetID'] === undefined || p['subnetID'] === PRIMARY_NETWORK_ID),
  scope: 'network',
});

export const platformValidatorsFull: CollectorOf<'platform-validators-full', PlatformValidatorsFullValue> = defineCollector({
  name: 'platform-validators-full',
  description: "Full platform.getCurrentValidators list of the primary network (once per network): its validators and total stake.",
  needs: 'P-Chain API (a mainnet answer is several MB: slow schedule, asked once per network)',
  interval: 300,
  metrics: [gauge('avax_subnet_stake_avax', 'Total stake of the primary network (weight plus delegatorWeight of every current validator), in AVAX.', ['subnet'])],
  calls: [getPrimaryValidatorsCall],
  requestsPerRun: () => 1,
  async collect(ctx) {
    const r = await ctx.call(getPrimaryValidatorsCall, undefined);
    // A failed refresh keeps the previous set: it only tells info-peers which peers are validators,
    // and the validator set changes slowly. No series from it, though (nothing stale).
    if (!r.ok) return { value: ctx.previous, samples: [], errors: [r.error] };
    const validators = r.value.validators;
    return { value: { primaryValidators: NodeIdSet.of(validators.map((v) => v.nodeID)), primaryCount: validators.length }, samples: toSamples(validators), errors: [] };
  },
});
