import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import { InfoAcpsResult } from '../schemas/info.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { onChange, settle } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

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

export const infoAcps: Collector = {
  name: 'info-acps',
  description: 'info.acps: stake supporting, objecting to and abstaining on each open ACP (the node\'s own vote comes from the fleet).',
  needs: 'Info API (v1.10.18+; absent method = no series)',
  defaultIntervalSeconds: 300,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 1,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const r = await settle(ctx.client.rpc(ENDPOINTS.info, 'info.acps', {}, InfoAcpsResult, { signal: ctx.signal, normal: isNotFound }));
    if (!r.ok) {
      ctx.memo.openAcps = undefined;
      if (isNotFound(r.error)) {
        onChange(ctx, 'available', 'no', () => ctx.log.info('info.acps is not available on this node: no ACP series'));
        return { samples: [], errors: [] };
      }
      return { samples: [], errors: [r.error] };
    }
    ctx.state.set('available', 'yes');
    ctx.memo.openAcps = openAcps(r.value);
    return { samples: toSamples(r.value), errors: [] };
  },
};
