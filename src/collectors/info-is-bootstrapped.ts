import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS } from '../node-client/index.js';
import { InfoIsBootstrappedResult } from '../schemas/info.js';
import { defineCollector } from './define.js';
import { failures, settleAll } from './support.js';

export interface ChainBootstrapped {
  readonly chain: string;
  readonly isBootstrapped: boolean;
}

/** The chains asked: P, X, C, then the configured ones (alias or blockchain ID), deduplicated. */
export function chainsOf(configured: readonly string[]): string[] {
  return [...new Set(['P', 'X', 'C', ...configured])];
}

export function toSamples(results: readonly ChainBootstrapped[]): Sample[] {
  return results.map((r) => sample('avax_chain_bootstrapped', { chain: r.chain }, r.isBootstrapped ? 1 : 0));
}

export const infoIsBootstrapped = defineCollector({
  name: 'info-is-bootstrapped',
  description: 'info.isBootstrapped for P, X, C and every configured chain.',
  needs: 'Info API',
  interval: 30,
  metrics: [{ name: 'avax_chain_bootstrapped', type: 'gauge', labels: ['chain'], help: '1 if info.isBootstrapped reports the chain bootstrapped.' }],
  calls: [{ method: 'info.isBootstrapped' }],
  requestsPerRun: (t) => chainsOf(t.chains).length,
  async collect(ctx) {
    const chains = chainsOf(ctx.target.chains);
    const settled = await settleAll(
      chains.map((chain) => ctx.client.rpc(ENDPOINTS.info, 'info.isBootstrapped', { chain }, InfoIsBootstrappedResult, { signal: ctx.signal })),
    );
    const ok: ChainBootstrapped[] = [];
    settled.forEach((r, i) => {
      if (r.ok) ok.push({ chain: chains[i]!, isBootstrapped: r.value.isBootstrapped });
    });
    return { samples: toSamples(ok), errors: failures(settled) };
  },
});
