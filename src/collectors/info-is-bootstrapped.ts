import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, RpcError, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { InfoIsBootstrappedResult } from '../schemas/info.js';
import { isPending, type HealthReport } from '../schemas/health.js';
import { defineCollector, type CollectorOf } from './define.js';

export interface ChainBootstrapped {
  readonly chain: string;
  readonly isBootstrapped: boolean;
}

/** The chains asked: P, X, C, then the configured ones (alias or blockchain ID), deduplicated. */
export function chainsOf(configured: readonly string[]): string[] {
  return [...new Set(['P', 'X', 'C', ...configured])];
}

/** What info-is-bootstrapped publishes: the chains whose answer it has (bootstrapped or not), for the bootstrap target height. */
export interface IsBootstrappedValue {
  readonly chains: readonly ChainBootstrapped[];
}

export function toSamples(results: readonly ChainBootstrapped[]): Sample[] {
  return results.map((r) => sample('avax_chain_bootstrapped', { chain: r.chain }, r.isBootstrapped ? 1 : 0));
}

/** info.isBootstrapped of a chain the node does not run: `there is no chain with alias/ID '<id>'` (docs/avalanchego-wire.md §4). */
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

/**
 * A chain that has bootstrapped stays bootstrapped until the node restarts (avalanchego bootstraps
 * once per process): it is asked again only on a refresh (start-up, the node back or restarted: the
 * engine sets ctx.refresh, from the node's health report, its process start time, its version and its
 * connections) or while the node's own `bootstrapped` health check fails (a restart that left no other
 * mark between two runs: faster than the checks' first run, and before node-metrics saw the new start
 * time; the backtest's stuck-bootstrap timeline missed AvalancheChainNotBootstrapped without this);
 * the others every run.
 */
export function bootstrapCheckFailing(report: HealthReport | undefined): boolean {
  const r = report?.checks['bootstrapped'];
  return r !== undefined && r.error !== undefined && !isPending(r);
}

interface BootstrappedMemory {
  readonly done: Set<string>;
}

export const infoIsBootstrapped: CollectorOf<'info-is-bootstrapped', IsBootstrappedValue> = defineCollector({
  name: 'info-is-bootstrapped',
  description: 'info.isBootstrapped for P, X, C, every configured chain, and the chains of the L1s subnet-chains watches.',
  needs: 'Info API',
  // 60 s for a chain still bootstrapping (hours on mainnet); a bootstrapped one only on a refresh.
  interval: 60,
  metrics: [gauge('avax_chain_bootstrapped', '1 if info.isBootstrapped reports the chain bootstrapped.', ['chain'])],
  calls: [infoIsBootstrappedCall],
  // The chains of the watched L1s, from subnet-chains' last run, and the node's health report, without waiting for them in a cycle.
  readsLatest: ['subnet-chains', 'health'],
  // Steady state: none (every chain bootstrapped); the phases are spread with what a run really sends.
  requestsPerRun: () => 0,
  memory: (): BootstrappedMemory => ({ done: new Set() }),
  async collect(ctx) {
    const configured = chainsOf(ctx.target.chains);
    // The chains of the watched L1s (P, X and C are asked by their aliases above).
    const discovered = (ctx.read('subnet-chains')?.chains ?? []).filter((c) => c.subnet !== PRIMARY_NETWORK_ID && !configured.includes(c.id)).map((c) => c.id);
    const chains = [...configured, ...discovered];
    const m = ctx.memory;
    if (ctx.refresh || bootstrapCheckFailing(ctx.read('health')?.health)) m.done.clear();
    const ask = chains.filter((c) => !m.done.has(c));
    const answers = await Promise.all(ask.map((chain) => ctx.call(infoIsBootstrappedCall, chain)));
    const ok: ChainBootstrapped[] = chains.filter((c) => m.done.has(c)).map((chain) => ({ chain, isBootstrapped: true }));
    const errors: Error[] = [];
    answers.forEach((r, i) => {
      const chain = ask[i]!;
      if (r.ok) {
        ok.push({ chain, isBootstrapped: r.value.isBootstrapped });
        if (r.value.isBootstrapped) m.done.add(chain);
      }
      // An unknown discovered chain is not bootstrapped; an unknown configured one is a mistake to report.
      else if (r.normal && !configured.includes(chain)) ok.push({ chain, isBootstrapped: false });
      else errors.push(r.error);
    });
    ok.sort((a, b) => chains.indexOf(a.chain) - chains.indexOf(b.chain));
    return { value: { chains: ok }, samples: toSamples(ok), errors };
  },
});
