import { gauge, type Sample } from '../model.js';
import { valueOf, type TargetSnapshot } from '../snapshot.js';
import { HEIGHT_CHAINS, heightsByChain } from '../collectors/chain-height.js';
import { defineFleetDerivation } from './define.js';


/** The heights the target's chain-height answered, by chain. */
const heights = (s: TargetSnapshot) => heightsByChain(valueOf(s, 'chain-height'));

/**
 * avax_chain_height_behind_reference{target,chain}: for every non-reference target and chain, the
 * highest height among the reference targets minus the target's height. Targets that do not answer
 * take no part.
 */
export const behindReference = defineFleetDerivation({
  name: 'behind-reference',
  reads: ['chain-height'],
  metrics: [gauge('avax_chain_height_behind_reference', 'Blocks this node is behind the reference node(s): highest reference height minus this height (P, C, X).', ['chain'])],
  derive(input): Sample[] {
    // A target that does not answer (avax_up 0) is neither compared nor a reference.
    const all = input.filter((s) => s.up !== 0);
    const best = new Map<string, number>();
    for (const s of all) {
      if (!s.target.reference) continue;
      for (const [chain, h] of heights(s)) best.set(chain, Math.max(best.get(chain) ?? -Infinity, h));
    }
    const out: Sample[] = [];
    if (best.size === 0) return out;
    for (const s of all) {
      if (s.target.reference) continue;
      for (const chain of HEIGHT_CHAINS) {
        const h = heights(s).get(chain);
        const ref = best.get(chain);
        if (h !== undefined && ref !== undefined) out.push({ name: 'avax_chain_height_behind_reference', labels: { target: s.target.name, chain }, value: ref - h });
      }
    }
    return out;
  },
});
