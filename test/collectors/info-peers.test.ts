import { describe, expect, it } from 'vitest';
import { infoPeers, nearestRank, peerAcps, toSamples } from '../../src/collectors/info-peers.js';
import { NodeIdSet } from '../../src/collectors/node-id-set.js';
import { RpcError } from '../../src/node-client/index.js';
import { InfoPeersResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, FIXTURE_NOW_MS, fakeClient, lines, makeCtx, valueOf } from './fake.js';
import { PRIMARY, SUBNET_L1 } from '../fixtures/ids.js';

const peers = (n: string) => InfoPeersResult.parse(result('info.peers', n));
/** The fixture's first five peers are validators; the sixth is not (observedUptime "0"). */
const VALIDATORS = NodeIdSet.of([
  'NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3',
  'NodeID-MnCNvYEMog81V1ZCtdVZXPbjRUEggCst3',
  'NodeID-JLKCxyUa7mwkJjmhKWbvfrWEM9AVD9Htn',
  'NodeID-BZaCiKVXg7JJBF8ktVqMvcRfLQYtskVu2',
  'NodeID-4TCw4jwq7jJAXH7yPbWZyXEoa6R2KbP8a',
]);
const C = { nowMs: FIXTURE_NOW_MS, silenceSeconds: 60, perPeer: false, validators: VALIDATORS };
const SUBNET_A = 'Da3yB3oaqbQFGkfnZo9vYCTawHUDwUUvcVHh3eW3dXCTWGaG4';

describe('info-peers toSamples', () => {
  it('default: the fixture node', () => {
    const s = toSamples(peers('default'), C);
    assertContract('info-peers', s);
    expect(lines(s)).toEqual([
      'avax_peers 6',
      'avax_peers_by_version{version="avalanchego/1.14.0"} 1',
      'avax_peers_by_version{version="avalanchego/1.14.1"} 1',
      'avax_peers_by_version{version="avalanchego/1.14.2"} 4',
      'avax_peers_benched{chain="C"} 2',
      'avax_peers_benched{chain="P"} 0',
      'avax_peers_benched{chain="X"} 1',
      `avax_peers_tracking_subnet{subnet="${PRIMARY}"} 6`,
      `avax_peers_tracking_subnet{subnet="${SUBNET_L1}"} 1`,
      `avax_peers_tracking_subnet{subnet="${SUBNET_A}"} 2`,
      'avax_peers_observed_uptime_ratio{quantile="0"} 0.8',
      'avax_peers_observed_uptime_ratio{quantile="0.1"} 0.8',
      'avax_peers_observed_uptime_ratio{quantile="0.5"} 0.99',
      'avax_peers_observed_uptime_ratio_sum 4.76',
      'avax_peers_observed_uptime_ratio_count 5',
      'avax_peers_silent 1',
    ]);
  });
  it('behavior: observed uptime counts only validator peers (a non-validator reports "0")', () => {
    const all = toSamples(peers('default'), { ...C, validators: NodeIdSet.of(peers('default').peers.map((p) => p.nodeID)) });
    // Counting every peer, the non-validator's "0" would be quantile 0: the mainnet trap.
    expect(valueOf(all, 'avax_peers_observed_uptime_ratio', { quantile: '0' })).toBe(0);
    const s = toSamples(peers('default'), C);
    expect(valueOf(s, 'avax_peers_observed_uptime_ratio', { quantile: '0' })).toBe(0.8);
    expect(valueOf(s, 'avax_peers_observed_uptime_ratio_count')).toBe(5);
  });
  it('behavior: validator set unknown (full list not fetched yet, or its collector disabled) → no quantiles', () => {
    const s = toSamples(peers('default'), { ...C, validators: undefined });
    expect(s.some((x) => x.name.startsWith('avax_peers_observed_uptime_ratio'))).toBe(false);
    expect(valueOf(s, 'avax_peers')).toBe(6);
  });
  it('behavior: no peers → zero counts, benched P/X/C still present, no quantiles', () => {
    expect(lines(toSamples(peers('empty'), C))).toEqual([
      'avax_peers 0',
      'avax_peers_benched{chain="C"} 0',
      'avax_peers_benched{chain="P"} 0',
      'avax_peers_benched{chain="X"} 0',
      'avax_peers_silent 0',
    ]);
  });
  it('behavior: per-peer series only when enabled', () => {
    const s = toSamples(peers('default'), { ...C, perPeer: true });
    assertContract('info-peers', s);
    expect(s.filter((x) => x.name === 'avax_peer_info')).toHaveLength(6);
    expect(valueOf(s, 'avax_peer_last_received_timestamp_seconds', { peer_node_id: 'NodeID-MnCNvYEMog81V1ZCtdVZXPbjRUEggCst3' })).toBe(1778750500);
    expect(toSamples(peers('default'), C).some((x) => x.name === 'avax_peer_info')).toBe(false);
  });
  it('behavior: a wider silence window counts no silent peer', () => {
    expect(valueOf(toSamples(peers('default'), { ...C, silenceSeconds: 600 }), 'avax_peers_silent')).toBe(0);
  });
  it.each([
    ['default: median of 4', [0.1, 0.2, 0.3, 0.4], 0.5, 0.2],
    ['behavior: q=0 is the minimum', [0.5, 0.9], 0, 0.5],
    ['behavior: q=0.1 of 10 is the 1st', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.1, 1],
    ['behavior: q=0.1 of 11 is the 2nd', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.1, 2],
    ['behavior: single value', [0.97], 0.5, 0.97],
  ])('nearestRank %s', (_n, sorted, q, want) => {
    expect(nearestRank(sorted, q)).toBe(want);
  });
});

describe('info-peers collect', () => {
  it('default: uses its options, the clock and the validator set it reads', async () => {
    const { client, calls } = fakeClient({ 'info.peers': result('info.peers', 'default') });
    const { ctx } = makeCtx(infoPeers, client, { options: { perPeer: true, silenceWindow: 1 }, values: { 'platform-validators-full': { primaryValidators: VALIDATORS, primaryCount: VALIDATORS.size } } });
    const r = await infoPeers.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_peers_silent')).toBe(4);
    expect(r.samples.filter((s) => s.name === 'avax_peer_info')).toHaveLength(6);
    expect(valueOf(r.samples, 'avax_peers_observed_uptime_ratio_count')).toBe(5);
    expect(r.value?.versions.get('avalanchego/1.14.2')).toBe(4);
    expect(r.value?.peerAcps).toBeUndefined(); // no open proposal: no stance kept
    expect(calls[0]!.signal).toBe(ctx.signal);
  });
  it('behavior: peers\' ACP stances are kept only while the node has proposals open', async () => {
    const { client } = fakeClient({ 'info.peers': result('info.peers', 'default') });
    const r = await infoPeers.collect(makeCtx(infoPeers, client, { options: { perPeer: false, silenceWindow: 60 }, values: { 'info-acps': { open: [226] } } }).ctx);
    expect(r.value?.peerAcps?.get('NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3')?.supported).toContain(226);
  });
  it('error: RPC error → no series, the error returned', async () => {
    const { client } = fakeClient({ 'info.peers': new RpcError('info.peers', -32000, 'boom') });
    const r = await infoPeers.collect(makeCtx(infoPeers, client, { options: { perPeer: false, silenceWindow: 60 } }).ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });
  it('error: schema mismatch → SchemaError', async () => {
    const { client } = fakeClient({ 'info.peers': { numPeers: 'many', peers: [] } });
    const r = await infoPeers.collect(makeCtx(infoPeers, client, { options: { perPeer: false, silenceWindow: 60 } }).ctx);
    expect(r.errors[0]?.name).toBe('SchemaError');
  });
});

describe('info-peers ACP stances (issue 7)', () => {
  it("behavior: peers' ACP stances are kept by NodeID (first entry wins)", () => {
    const v = peers('default');
    const m = peerAcps(v.peers);
    expect(m.size).toBe(new Set(v.peers.map((p) => p.nodeID)).size);
    expect(m.get('NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3')!.supported).toContain(226);
  });
});
