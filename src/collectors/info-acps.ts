import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { InfoAcpsResult } from '../schemas/info.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, oneCall, type CollectorOf } from './define.js';

/** Open proposal numbers, ascending. */
export function openAcps(v: InfoAcpsResult): number[] {
  return Object.keys(v.acps)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * avax_acp_{support,object,abstain}_weight{acp}: stake weight (nAVAX) of the validators among the
 * node's peers that support / object to each open proposal, and of the rest of the primary network.
 * v1.14.2 has no open proposals (`{"acps":{}}`): no series.
 */
export function toSamples(v: InfoAcpsResult): Sample[] {
  const out: Sample[] = [];
  for (const n of openAcps(v)) {
    const a = v.acps[String(n)]!;
    const acp = String(n);
    out.push(sample('avax_acp_support_weight', { acp }, u64ToNumber(a.supportWeight)));
    out.push(sample('avax_acp_object_weight', { acp }, u64ToNumber(a.objectWeight)));
    out.push(sample('avax_acp_abstain_weight', { acp }, u64ToNumber(a.abstainWeight)));
  }
  return out;
}

/** What info-acps publishes: the open proposal numbers (for info-peers and the node's own vote). */
export interface InfoAcpsValue {
  readonly open: readonly number[];
}

export const infoAcpsCall = rpcCall({ method: 'info.acps', endpoint: ENDPOINTS.info, result: InfoAcpsResult, absent: 'info.acps exists from v1.10.18' });

export const infoAcps: CollectorOf<'info-acps', InfoAcpsValue> = defineCollector({
  name: 'info-acps',
  description: "info.acps: stake supporting, objecting to and abstaining on each open ACP (the node's own vote comes from the fleet).",
  needs: 'Info API (v1.10.18+; absent method = no series)',
  interval: 300,
  metrics: [
    ...gauges(['acp'], {
      avax_acp_support_weight: "Stake weight (nAVAX) of the node's validator peers supporting the open ACP.",
      avax_acp_object_weight: "Stake weight (nAVAX) of the node's validator peers objecting to the open ACP.",
      avax_acp_abstain_weight: 'Stake weight (nAVAX) of the rest of the primary network on the open ACP.',
    }),
  ],
  ...oneCall(infoAcpsCall, (v) => ({ value: { open: openAcps(v) }, samples: toSamples(v) }), { open: [] }),
});
