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

/**
 * The chains of the watched L1s that subnet-chains asked info.isBootstrapped about (it spreads its
 * requests; P, X, C and the configured chains are asked here). Chain IDs only from watched subnets.
 */
export function discoveredSamples(chains: readonly { id: string; bootstrapped?: boolean }[] | undefined, asked: readonly string[]): Sample[] {
  const skip = new Set(asked);
  const out: ChainBootstrapped[] = [];
  for (const c of chains ?? []) if (c.bootstrapped !== undefined && !skip.has(c.id)) out.push({ chain: c.id, isBootstrapped: c.bootstrapped });
  return toSamples(out);
}

export const infoIsBootstrapped = defineCollector({
  name: 'info-is-bootstrapped',
  description: 'info.isBootstrapped for P, X, C, every configured chain, and the L1 chains subnet-chains watches.',
  needs: 'Info API',
  // 60 s: a chain bootstraps once per start of the node (hours on mainnet), and the first cycle in
  // which a node answers again after being down runs every collector (the restart is seen at once);
  // the three requests per run are a quarter of the request budget at 30 s.
  interval: 60,
  metrics: [{ name: 'avax_chain_bootstrapped', type: 'gauge', labels: ['chain'], help: '1 if info.isBootstrapped reports the chain bootstrapped.' }],
  // Its requests are for P, X, C and the configured aliases; a request for a chain ID (> 40 characters)
  // is counted as subnet-chains' (the L1 chains it found) by the fault matrix's routing, also when the ID
  // is a configured chain.
  calls: [{ method: 'info.isBootstrapped', params: (p) => !(typeof p['chain'] === 'string' && p['chain'].length > 40) }],
  // The last value of subnet-chains, without waiting for it: a cycle keeps two waves (its L1 chains'
  // bootstrap state may lag one cycle behind subnet-chains' own rotation anyway).
  readsLatest: ['subnet-chains'],
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
    return { samples: [...toSamples(ok), ...discoveredSamples(ctx.read('subnet-chains')?.chains, chains)], errors: failures(settled) };
  },
});
