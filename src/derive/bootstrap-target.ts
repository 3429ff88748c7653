import { gauge, type Sample } from '../model.js';
import { valueOf, type TargetSnapshot } from '../snapshot.js';
import { HEIGHT_CHAINS, heightsByChain } from '../collectors/chain-height.js';
import { defineFleetDerivation } from './define.js';


/** The heights the target's chain-height answered, by chain. */
const heights = (s: TargetSnapshot) => heightsByChain(valueOf(s, 'chain-height'));

/** The chains info.isBootstrapped reports not bootstrapped on this target. */
function bootstrapping(s: TargetSnapshot): Set<string> {
  return new Set((valueOf(s, 'info-is-bootstrapped')?.chains ?? []).filter((c) => !c.isBootstrapped).map((c) => c.chain));
}

/**
 * avax_chain_bootstrap_target_height{target,chain} (issue 27 item 6): the height a bootstrapping chain has to
 * reach, from the other targets of the same network. A bootstrapping node exposes no height of its own
 * (avalanchego answers 503 on /ext/bc/<chain>, registers avalanche_snowman_last_accepted_height only when the
 * consensus engine starts after bootstrap, and its health check's consensus is `{}`), so the target is the
 * highest height that an answering target of the same network ID (node-info) reports for the chain: a
 * reference target, or any node that has that chain bootstrapped (chain-height answers only then). Published
 * only while info.isBootstrapped says false for the chain and the target has no height of its own; absent
 * otherwise, and absent when no other target of the network has the chain (a normal state: one target, or a
 * whole network bootstrapping).
 */
export const bootstrapTarget = defineFleetDerivation({
  name: 'bootstrap-target',
  reads: ['info-is-bootstrapped', 'chain-height', 'node-info'],
  metrics: [
    gauge(
      'avax_chain_bootstrap_target_height',
      "While the chain bootstraps on this node (info.isBootstrapped false, no height of its own): the highest height of that chain among the other answering targets of the same network (reference targets or nodes that have it bootstrapped); absent otherwise. Blocks to go: this minus the height the node started from (its last avax_chain_height before the bootstrap, 0 for a new node) minus avax_node_bootstrap_executed_blocks_total.",
      ['chain'],
    ),
  ],
  derive(input): Sample[] {
    const up = input.filter((s) => s.up !== 0);
    const out: Sample[] = [];
    for (const s of up) {
      const network = valueOf(s, 'node-info')?.networkId;
      const waiting = bootstrapping(s);
      if (network === undefined || waiting.size === 0) continue;
      const own = heights(s);
      for (const chain of HEIGHT_CHAINS) {
        if (!waiting.has(chain) || own.has(chain)) continue;
        let best: number | undefined;
        for (const o of up) {
          if (o === s || valueOf(o, 'node-info')?.networkId !== network) continue;
          const h = heights(o).get(chain);
          if (h !== undefined && (best === undefined || h > best)) best = h;
        }
        if (best !== undefined) out.push({ name: 'avax_chain_bootstrap_target_height', labels: { target: s.target.name, chain }, value: best });
      }
    }
    return out;
  },
});
