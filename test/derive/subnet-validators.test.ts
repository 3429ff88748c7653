import { describe, expect, it } from 'vitest';
import { NodeIdSet } from '../../src/collectors/node-id-set.js';
import { subnetValidators } from '../../src/derive/subnet-validators.js';
import { OTHER, PRIMARY, SELF, SUBNET_L1 } from '../fixtures/ids.js';
import { snapshotWith } from './snapshot.js';

const full = (ids: string[]) => ({ primaryValidators: NodeIdSet.of(ids), primaryCount: ids.length });
const watched = (active: [string, number][]) => ({ subnets: [PRIMARY, ...active.map(([s]) => s)], chains: [], activeValidators: new Map(active), l1Stakes: new Map() });

describe('derive: subnet validators', () => {
  it('default: the primary network from the full list, every other watched subnet from its own list', () => {
    const s = snapshotWith({ 'platform-validators-full': full([SELF, OTHER]), 'subnet-chains': watched([[SUBNET_L1, 2]]) });
    expect(subnetValidators.derive(s, 0)).toEqual([
      { name: 'avax_subnet_validators', labels: { subnet: PRIMARY }, value: 2 },
      { name: 'avax_subnet_validators', labels: { subnet: SUBNET_L1 }, value: 2 },
    ]);
  });
  it('behavior: each input alone gives its own series; neither gives none', () => {
    expect(subnetValidators.derive(snapshotWith({ 'platform-validators-full': full([SELF]) }), 0)).toEqual([{ name: 'avax_subnet_validators', labels: { subnet: PRIMARY }, value: 1 }]);
    expect(subnetValidators.derive(snapshotWith({ 'subnet-chains': watched([[SUBNET_L1, 0]]) }), 0)).toEqual([{ name: 'avax_subnet_validators', labels: { subnet: SUBNET_L1 }, value: 0 }]);
    expect(subnetValidators.derive(snapshotWith({}), 0)).toEqual([]);
  });
});
