import { gauge, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineFleetDerivation } from './define.js';

const VOTES = ['support', 'object', 'abstain'] as const;

/**
 * avax_acp_node_vote{target,acp,vote}: the node's own stance on each open ACP of its info.acps.
 * avalanchego never reports a node's own stance through its own API (info.acps and info.peers count
 * peers only), so it is read from another target of this exporter that has the node as a peer: that
 * peer's info.peers entry carries the node's supportedACPs / objectedACPs, for the ACPs the vantage has
 * open too (a node keeps a peer's votes only for its own constants.CurrentACPs, network/peer/peer.go:
 * a vantage without ACP n open would show every peer abstaining on it). One series per vote, 1 for the
 * stance; absent while no other target can see it. A target that does not answer (avax_up 0) gets no
 * vote and is no vantage.
 */
export const acpNodeVote = defineFleetDerivation({
  name: 'acp-node-vote',
  reads: ['node-info', 'info-acps', 'info-peers'],
  metrics: [gauge('avax_acp_node_vote', "The node's own stance on each open ACP (vote support, object or abstain; 1 for its stance), as another target of this exporter sees it.", ['acp', 'vote'])],
  derive(all): Sample[] {
    const out: Sample[] = [];
    const live = all.filter((s) => s.up !== 0);
    for (const s of live) {
      const own = valueOf(s, 'node-info')?.nodeId;
      const open = valueOf(s, 'info-acps')?.open;
      if (!own || !open || open.length === 0) continue;
      for (const n of open) {
        let stance: { supported: readonly number[]; objected: readonly number[] } | undefined;
        for (const other of live) {
          if (other === s || !valueOf(other, 'info-acps')?.open.includes(n)) continue;
          stance = valueOf(other, 'info-peers')?.peerAcps?.get(own);
          if (stance) break;
        }
        if (!stance) continue;
        const vote = stance.supported.includes(n) ? 'support' : stance.objected.includes(n) ? 'object' : 'abstain';
        for (const v of VOTES) out.push({ name: 'avax_acp_node_vote', labels: { target: s.target.name, acp: String(n), vote: v }, value: v === vote ? 1 : 0 });
      }
    }
    return out;
  },
});
