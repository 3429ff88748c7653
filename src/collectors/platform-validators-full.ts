import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, PRIMARY_NETWORK_ID } from '../node-client/index.js';
import { PlatformGetCurrentValidatorsResult, type PlatformValidator } from '../schemas/platform.js';
import { navaxToAvax } from '../schemas/primitives.js';
import { failures, settleAll } from './support.js';
import { defineCollector } from './define.js';
import { NodeIdSet } from './node-id-set.js';

export interface SubnetSet {
  readonly subnet: string;
  readonly validators: readonly PlatformValidator[];
}

/**
 * avax_subnet_validators for every subnet; avax_subnet_stake_avax (weight + delegatorWeight, summed
 * as bigint) for the primary network only, where weights are nAVAX (METRICS.md: "(primary
 * network)"; L1 and permissioned weights are not AVAX); avax_subnet_connected_stake_ratio when at
 * least one entry carries `connected` (absent on L1s, elastic and permissioned subnets).
 */
export function toSamples(sets: readonly SubnetSet[]): Sample[] {
  const out: Sample[] = [];
  for (const { subnet, validators } of sets) {
    const labels = { subnet };
    out.push(sample('avax_subnet_validators', labels, validators.length));
    let total = 0n;
    let connected = 0n;
    let anyConnected = false;
    for (const v of validators) {
      const stake = (v.weight ?? 0n) + (v.delegatorWeight ?? 0n);
      total += stake;
      if (v.connected !== undefined) {
        anyConnected = true;
        if (v.connected) connected += stake;
      }
    }
    if (subnet === PRIMARY_NETWORK_ID) out.push(sample('avax_subnet_stake_avax', labels, navaxToAvax(total)));
    if (anyConnected && total > 0n) out.push(sample('avax_subnet_connected_stake_ratio', labels, Number(connected) / Number(total)));
  }
  return out;
}

/** What platform-validators-full publishes: which NodeIDs are current primary-network validators. */
export interface PlatformValidatorsFullValue {
  readonly primaryValidators: NodeIdSet;
}

declare module './define.js' {
  interface CollectorValues {
    'platform-validators-full': PlatformValidatorsFullValue;
  }
}

const SUBNET = ['subnet'];

export const platformValidatorsFull = defineCollector({
  name: 'platform-validators-full',
  description: 'Full platform.getCurrentValidators list per subnet: validator count, total stake, connected stake share.',
  needs: 'P-Chain API (a mainnet answer is several MB: slow schedule)',
  interval: 300,
  metrics: [
    { name: 'avax_subnet_validators', type: 'gauge', labels: SUBNET, help: 'Number of current validators of the subnet.' },
    { name: 'avax_subnet_stake_avax', type: 'gauge', labels: SUBNET, help: 'Total stake of the subnet (weight plus delegatorWeight), in AVAX.' },
    { name: 'avax_subnet_connected_stake_ratio', type: 'gauge', labels: SUBNET, help: 'Share of the subnet stake whose validators the node is connected to.' },
  ],
  // The full list has no nodeIDs filter (platform-validators' requests have one).
  calls: [{ method: 'platform.getCurrentValidators', params: (p) => !Array.isArray(p['nodeIDs']) }],
  requestsPerRun: (t) => 1 + t.subnets.length,
  async collect(ctx) {
    const subnets = [PRIMARY_NETWORK_ID, ...ctx.target.subnets.filter((s) => s !== PRIMARY_NETWORK_ID)];
    const settled = await settleAll(
      subnets.map((subnet) =>
        ctx.client.rpc(
          ENDPOINTS.platform,
          'platform.getCurrentValidators',
          subnet === PRIMARY_NETWORK_ID ? {} : { subnetID: subnet },
          PlatformGetCurrentValidatorsResult,
          { signal: ctx.signal },
        ),
      ),
    );
    const sets: SubnetSet[] = [];
    settled.forEach((r, i) => {
      if (r.ok) sets.push({ subnet: subnets[i]!, validators: r.value.validators });
    });
    const primary = sets.find((s) => s.subnet === PRIMARY_NETWORK_ID);
    // A failed refresh keeps the previous set: it only tells info-peers which peers are validators,
    // and the validator set changes slowly.
    const value = primary ? { primaryValidators: NodeIdSet.of(primary.validators.map((v) => v.nodeID)) } : ctx.previous;
    return { value, samples: toSamples(sets), errors: failures(settled) };
  },
});
