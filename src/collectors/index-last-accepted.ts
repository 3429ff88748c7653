import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, HttpError, RpcError } from '../node-client/index.js';
import { IndexGetLastAcceptedResult } from '../schemas/index-api.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { onChange, settleAll } from './support.js';
import type { Collector, CollectorContext, CollectResult, IndexSpec } from './types.js';

/** Why an index gives avax_index_available 0. */
export type IndexUnavailable = 'not-enabled' | 'empty';

export type IndexOutcome =
  | (IndexSpec & { readonly last: IndexGetLastAcceptedResult })
  | (IndexSpec & { readonly unavailable: IndexUnavailable });

export function toSamples(outcomes: readonly IndexOutcome[]): Sample[] {
  const out: Sample[] = [];
  for (const o of outcomes) {
    const labels = { chain: o.chain, kind: o.kind };
    if ('last' in o) {
      out.push(sample('avax_index_available', labels, 1));
      out.push(sample('avax_index_last_accepted_index', labels, u64ToNumber(o.last.index)));
      out.push(sample('avax_index_last_accepted_timestamp_seconds', labels, o.last.timestamp));
    } else {
      out.push(sample('avax_index_available', labels, 0));
    }
  }
  return out;
}

/**
 * Tolerated answers (AVALANCHEGO.md §6): HTTP 404 = index not enabled (--index-enabled=false);
 * RPC error "no containers have been accepted" = empty index.
 */
export function unavailableReason(err: unknown): IndexUnavailable | undefined {
  if (err instanceof HttpError && err.status === 404) return 'not-enabled';
  if (err instanceof RpcError && err.rpcMessage.includes('no containers have been accepted')) return 'empty';
  return undefined;
}

export const indexLastAccepted: Collector = {
  name: 'index-last-accepted',
  description: 'index.getLastAccepted per configured index: availability, last index, when this node accepted it.',
  needs: '--index-enabled on the node (otherwise avax_index_available 0, and no failure)',
  defaultIntervalSeconds: 30,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: (_t, settings) => settings.indexes.length,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const specs = ctx.settings.indexes;
    const settled = await settleAll(
      specs.map((s) =>
        ctx.client.rpc(ENDPOINTS.index(s.chain, s.kind), 'index.getLastAccepted', { encoding: 'hex' }, IndexGetLastAcceptedResult, {
          signal: ctx.signal,
          normal: (e) => unavailableReason(e) !== undefined,
        }),
      ),
    );
    const outcomes: IndexOutcome[] = [];
    const errors: Error[] = [];
    settled.forEach((r, i) => {
      const spec = specs[i]!;
      const route = `${spec.chain}/${spec.kind}`;
      const key = `index:${route}`;
      if (r.ok) {
        const had = ctx.state.has(key);
        onChange(ctx, key, 'available', () => {
          if (had) ctx.log.info({ index: route }, 'index available');
        });
        outcomes.push({ chain: spec.chain, kind: spec.kind, last: r.value });
        return;
      }
      const reason = unavailableReason(r.error);
      if (reason) {
        onChange(ctx, key, reason, () =>
          ctx.log.info(
            { index: route },
            reason === 'not-enabled' ? 'index not enabled on the node (HTTP 404): avax_index_available 0' : 'index is empty: avax_index_available 0',
          ),
        );
        outcomes.push({ chain: spec.chain, kind: spec.kind, unavailable: reason });
        return;
      }
      errors.push(r.error);
    });
    return { samples: toSamples(outcomes), errors };
  },
};
