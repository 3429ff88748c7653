import { describe, expect, it } from 'vitest';
import type { AcpStance } from '../../src/collectors/info-peers.js';
import { acpNodeVote } from '../../src/derive/acp-node-vote.js';
import type { Sample } from '../../src/model.js';
import { snapshotWith } from './snapshot.js';
import { OTHER, SELF } from '../fixtures/ids.js';

const votes = (s: Sample[]) => s.filter((x) => x.value === 1).map((x) => `${x.labels['target']} ${x.labels['acp']} ${x.labels['vote']}`);
const seen = (stances: [string, AcpStance][]) => ({ versions: new Map<string, number>(), peerAcps: new Map(stances) });

describe('derive: the node\'s own ACP vote, seen from another target', () => {
  it('default: support / object / abstain from the peer entry another target has for the node', () => {
    const a = snapshotWith({ 'node-info': { nodeId: SELF }, 'info-acps': { open: [236, 247, 300] } }, { name: 'a' });
    const b = snapshotWith({ 'node-info': { nodeId: OTHER }, 'info-acps': { open: [236, 247, 300] }, 'info-peers': seen([[SELF, { supported: [247], objected: [236] }]]) }, { name: 'b' });
    const s = acpNodeVote.derive([a, b]);
    expect(s).toHaveLength(9);
    expect(votes(s)).toEqual(['a 236 object', 'a 247 support', 'a 300 abstain']);
  });
  it('behavior: nobody sees the node (single target, or not a peer) → no series, never a guessed abstain', () => {
    const a = snapshotWith({ 'node-info': { nodeId: SELF }, 'info-acps': { open: [247] }, 'info-peers': seen([[SELF, { supported: [247], objected: [] }]]) }, { name: 'a' });
    expect(acpNodeVote.derive([a])).toEqual([]);
    expect(acpNodeVote.derive([a, snapshotWith({ 'info-acps': { open: [247] }, 'info-peers': seen([]) }, { name: 'b' })])).toEqual([]);
  });
  it('behavior: a vantage without the ACP open (older version) stores no vote on it → no series for that ACP, not abstain', () => {
    const a = snapshotWith({ 'node-info': { nodeId: SELF }, 'info-acps': { open: [236, 247] } }, { name: 'a' });
    const b = snapshotWith({ 'info-acps': { open: [247] }, 'info-peers': seen([[SELF, { supported: [247], objected: [] }]]) }, { name: 'b' });
    expect(votes(acpNodeVote.derive([a, b]))).toEqual(['a 247 support']);
    const c = snapshotWith({ 'info-peers': seen([[SELF, { supported: [], objected: [] }]]) }, { name: 'c' });
    expect(acpNodeVote.derive([a, c])).toEqual([]);
  });
  it('behavior: a target that does not answer (avax_up 0) gets no vote, and is no vantage for another', () => {
    const a = (up: 0 | 1) => snapshotWith({ 'node-info': { nodeId: SELF }, 'info-acps': { open: [247] } }, { name: 'a', up });
    const b = (up: 0 | 1) => snapshotWith({ 'info-acps': { open: [247] }, 'info-peers': seen([[SELF, { supported: [247], objected: [] }]]) }, { name: 'b', up });
    expect(votes(acpNodeVote.derive([a(1), b(1)]))).toEqual(['a 247 support']);
    expect(acpNodeVote.derive([a(0), b(1)])).toEqual([]);
    expect(acpNodeVote.derive([a(1), b(0)])).toEqual([]);
  });
  it('behavior: no open proposal or unknown own ID → no series', () => {
    const b = snapshotWith({ 'info-acps': { open: [247] }, 'info-peers': seen([[SELF, { supported: [247], objected: [] }]]) }, { name: 'b' });
    expect(acpNodeVote.derive([snapshotWith({ 'node-info': { nodeId: SELF }, 'info-acps': { open: [] } }, { name: 'a' }), b])).toEqual([]);
    expect(acpNodeVote.derive([snapshotWith({ 'node-info': { nodeId: '' }, 'info-acps': { open: [247] } }, { name: 'a' }), b])).toEqual([]);
  });
});
