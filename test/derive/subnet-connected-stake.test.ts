import { describe, expect, it } from 'vitest';
import { subnetConnectedStake } from '../../src/derive/subnet-connected-stake.js';
import { PRIMARY, SUBNET_L1 } from '../fixtures/ids.js';
import { snapshotWith } from './snapshot.js';

const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const X_CHAIN = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const L1_CHAIN_2 = '2Y3yGzJ9nB1DxuUgWL87W3HuXpM3AHcWqiUVsJkWNFvqRgDj5n';
const metrics = (connected: [string, number][]) => ({ available: true, stakeConnected: new Map(connected) });
const chain = (id: string, subnet: string) => ({ id, subnet, name: id.slice(0, 4), vmId: 'vm' });
const watched = (chains: ReturnType<typeof chain>[]) => ({ subnets: [PRIMARY, ...new Set(chains.map((c) => c.subnet))], chains, activeValidators: new Map(), l1Stakes: new Map() });

describe('derive: subnet connected stake', () => {
  it("default: the primary network's share is the P-Chain's; a watched L1's is its chain's", () => {
    const s = snapshotWith({ 'node-metrics': metrics([['P', 0.93], ['C', 0.92], [L1_CHAIN, 0.5]]), 'subnet-chains': watched([chain(L1_CHAIN, SUBNET_L1)]) });
    expect(subnetConnectedStake.derive(s, 0)).toEqual([
      { name: 'avax_subnet_connected_stake_ratio', labels: { subnet: PRIMARY }, value: 0.93 },
      { name: 'avax_subnet_connected_stake_ratio', labels: { subnet: SUBNET_L1 }, value: 0.5 },
    ]);
  });
  it("behavior: a subnet with two chains gives one series (its first chain the node reports); the primary network's X and C never replace P", () => {
    const s = snapshotWith({
      'node-metrics': metrics([['P', 0.9], [X_CHAIN, 0.1], [L1_CHAIN, 0.5], [L1_CHAIN_2, 0.7]]),
      'subnet-chains': watched([chain(X_CHAIN, PRIMARY), chain(L1_CHAIN, SUBNET_L1), chain(L1_CHAIN_2, SUBNET_L1)]),
    });
    expect(subnetConnectedStake.derive(s, 0).map((x) => [x.labels['subnet'], x.value])).toEqual([
      [PRIMARY, 0.9],
      [SUBNET_L1, 0.5],
    ]);
  });
  it('behavior: the second chain of a subnet counts when the first is not reported', () => {
    const s = snapshotWith({ 'node-metrics': metrics([[L1_CHAIN_2, 0.7]]), 'subnet-chains': watched([chain(L1_CHAIN, SUBNET_L1), chain(L1_CHAIN_2, SUBNET_L1)]) });
    expect(subnetConnectedStake.derive(s, 0).map((x) => [x.labels['subnet'], x.value])).toEqual([[SUBNET_L1, 0.7]]);
  });
  it('behavior: no node metrics (disabled, failing) or no share reported → no series', () => {
    expect(subnetConnectedStake.derive(snapshotWith({ 'subnet-chains': watched([chain(L1_CHAIN, SUBNET_L1)]) }), 0)).toEqual([]);
    expect(subnetConnectedStake.derive(snapshotWith({ 'node-metrics': { available: false } }), 0)).toEqual([]);
    expect(subnetConnectedStake.derive(snapshotWith({ 'node-metrics': metrics([]), 'subnet-chains': watched([chain(L1_CHAIN, SUBNET_L1)]) }), 0)).toEqual([]);
  });
});
