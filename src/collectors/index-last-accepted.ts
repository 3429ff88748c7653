import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, HttpError, RpcError, rpcCall } from '../node-client/index.js';
import { IndexGetLastAcceptedResult } from '../schemas/index-api.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, type CollectorOf } from './define.js';

export interface IndexSpec {
  readonly chain: 'P' | 'C' | 'X';
  readonly kind: 'block' | 'tx' | 'vtx';
}

/** The routes polled: P/C/X block, and X/tx, X/vtx when asked for (frozen since Cortina). */
export function indexesOf(o: { readonly xTx: boolean; readonly xVtx: boolean }): IndexSpec[] {
  const out: IndexSpec[] = [
    { chain: 'P', kind: 'block' },
    { chain: 'C', kind: 'block' },
    { chain: 'X', kind: 'block' },
  ];
  if (o.xTx) out.push({ chain: 'X', kind: 'tx' });
  if (o.xVtx) out.push({ chain: 'X', kind: 'vtx' });
  return out;
}

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

/** HTTP 404 = index not enabled (--index-enabled=false), docs/avalanchego-wire.md §6. */
export function isIndexNotEnabled(err: unknown): boolean {
  return err instanceof HttpError && err.status === 404;
}

/** RPC error "no containers have been accepted" = an enabled but empty index. */
export function isIndexEmpty(err: unknown): boolean {
  return err instanceof RpcError && err.rpcMessage.includes('no containers have been accepted');
}

export const indexGetLastAcceptedCall = rpcCall({
  method: 'index.getLastAccepted',
  endpoint: (s: IndexSpec) => ENDPOINTS.index(s.chain, s.kind),
  pathPrefix: '/ext/index/',
  wire: () => ({ encoding: 'hex' }),
  result: IndexGetLastAcceptedResult,
  normal: {
    notEnabled: { when: isIndexNotEnabled, says: 'index not enabled on the node (HTTP 404; --index-enabled): avax_index_available 0' },
    empty: { when: isIndexEmpty, says: 'index enabled but empty (no container accepted yet): avax_index_available 0' },
  },
});

const UNAVAILABLE = { notEnabled: 'not-enabled', empty: 'empty' } as const satisfies Record<string, IndexUnavailable>;

export const indexLastAccepted: CollectorOf<'index-last-accepted'> = defineCollector({
  name: 'index-last-accepted',
  description: 'index.getLastAccepted per configured index: availability, last index, when this node accepted it.',
  needs: '--index-enabled on the node (otherwise avax_index_available 0, and no failure)',
  // 60 s: the stall alerts look at 15-minute windows; the request budget of a cycle has no room for 30 s.
  interval: 60,
  options: {
    xTx: { kind: 'bool', default: false, help: 'Also poll /ext/index/X/tx (frozen since Cortina).' },
    xVtx: { kind: 'bool', default: false, help: 'Also poll /ext/index/X/vtx (frozen since Cortina).' },
  },
  metrics: [
    ...gauges(['chain', 'kind'], {
      avax_index_available: '1 if /ext/index/<chain>/<kind> answers with a container, 0 if absent (404) or empty.',
      avax_index_last_accepted_index: "index.getLastAccepted index (0-based position in this node's index).",
      avax_index_last_accepted_timestamp_seconds: 'When this node accepted the last indexed container, Unix seconds.',
    }),
  ],
  calls: [indexGetLastAcceptedCall],
  requestsPerRun: (_t, o) => indexesOf(o).length,
  async collect(ctx) {
    const specs = indexesOf(ctx.options);
    const answers = await Promise.all(specs.map((s) => ctx.call(indexGetLastAcceptedCall, s)));
    const outcomes: IndexOutcome[] = [];
    const errors: Error[] = [];
    answers.forEach((r, i) => {
      const spec = specs[i]!;
      if (r.ok) outcomes.push({ chain: spec.chain, kind: spec.kind, last: r.value });
      else if (r.normal) outcomes.push({ chain: spec.chain, kind: spec.kind, unavailable: UNAVAILABLE[r.normal] });
      else errors.push(r.error);
    });
    return { samples: toSamples(outcomes), errors };
  },
});
