import { sample, type Sample } from '../model.js';
import { ENDPOINTS, RpcError, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { InfoIsBootstrappedResult } from '../schemas/info.js';
import { defineCollector } from './define.js';

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

/** info.isBootstrapped of a chain the node does not run: `there is no chain with alias/ID '<id>'` (AVALANCHEGO.md §4). */
export function isUnknownChain(err: unknown): boolean {
  return err instanceof RpcError && /there is no chain with alias\/ID/.test(err.rpcMessage);
}

export const infoIsBootstrappedCall = rpcCall({
  method: 'info.isBootstrapped',
  endpoint: ENDPOINTS.info,
  wire: (chain: string) => ({ chain }),
  result: InfoIsBootstrappedResult,
  normal: {
    // A chain of a watched L1 that the node does not run (subnet not tracked, or its VM failed to
    // build) is unknown to its chain manager: not bootstrapped, and its status says Created.
    unknownChain: { when: isUnknownChain, says: 'the node does not run this chain (subnet not tracked, or its VM missing): avax_chain_bootstrapped 0' },
  },
});

export const infoIsBootstrapped = defineCollector({
  name: 'info-is-bootstrapped',
  description: 'info.isBootstrapped for P, X, C, every configured chain, and the chains of the L1s subnet-chains watches.',
  needs: 'Info API',
  // 60 s: a chain bootstraps once per start of the node (hours on mainnet), and the first cycle in
  // which a node answers again after being down (or after it restarted) runs every collector.
  interval: 60,
  metrics: [{ name: 'avax_chain_bootstrapped', type: 'gauge', labels: ['chain'], help: '1 if info.isBootstrapped reports the chain bootstrapped.' }],
  calls: [infoIsBootstrappedCall],
  // The chains of the watched L1s, from subnet-chains' last run, without waiting for it in a cycle.
  readsLatest: ['subnet-chains'],
  requestsPerRun: (t) => chainsOf(t.chains).length,
  async collect(ctx) {
    const configured = chainsOf(ctx.target.chains);
    // The chains of the watched L1s (P, X and C are asked by their aliases above).
    const discovered = (ctx.read('subnet-chains')?.chains ?? []).filter((c) => c.subnet !== PRIMARY_NETWORK_ID && !configured.includes(c.id)).map((c) => c.id);
    const chains = [...configured, ...discovered];
    const answers = await Promise.all(chains.map((chain) => ctx.call(infoIsBootstrappedCall, chain)));
    const ok: ChainBootstrapped[] = [];
    const errors: Error[] = [];
    answers.forEach((r, i) => {
      const chain = chains[i]!;
      if (r.ok) ok.push({ chain, isBootstrapped: r.value.isBootstrapped });
      // An unknown discovered chain is not bootstrapped; an unknown configured one is a mistake to report.
      else if (r.normal && i >= configured.length) ok.push({ chain, isBootstrapped: false });
      else errors.push(r.error);
    });
    return { samples: toSamples(ok), errors };
  },
});
