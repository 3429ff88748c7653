import { describe, expect, it } from 'vitest';
import { behindReference } from '../../src/derive/behind-reference.js';
import { snapshotWith } from './snapshot.js';

const heights = (p: number, c?: number) => ({ 'chain-height': { p: BigInt(p), c: c === undefined ? undefined : BigInt(c) } });

describe('derive: blocks behind the reference', () => {
  it('default: the highest reference height minus each non-reference target\'s, per chain', () => {
    const out = behindReference.derive([
      snapshotWith(heights(100, 50), { name: 'a' }),
      snapshotWith(heights(110, 60), { name: 'ref1', reference: true }),
      snapshotWith(heights(105), { name: 'ref2', reference: true }),
    ]);
    expect(out).toEqual([
      { name: 'avax_chain_height_behind_reference', labels: { target: 'a', chain: 'P' }, value: 10 },
      { name: 'avax_chain_height_behind_reference', labels: { target: 'a', chain: 'C' }, value: 10 },
    ]);
  });
  it('behavior: no reference target, or a chain the reference does not know → no series', () => {
    expect(behindReference.derive([snapshotWith(heights(100, 50), { name: 'a' })])).toEqual([]);
    expect(behindReference.derive([snapshotWith(heights(100, 50), { name: 'a' }), snapshotWith(heights(110), { name: 'r', reference: true })]).map((s) => s.labels['chain'])).toEqual(['P']);
  });
  it('behavior: a target ahead of the reference is negative (it is not clamped)', () => {
    expect(behindReference.derive([snapshotWith(heights(120), { name: 'a' }), snapshotWith(heights(110), { name: 'r', reference: true })])[0]!.value).toBe(-10);
  });
});

describe('derive: blocks behind the reference, targets that do not answer', () => {
  it('behavior: a down target gets no series, and a down reference is no reference', () => {
    const a = (up: 0 | 1) => snapshotWith(heights(100), { name: 'a', up });
    const r = (up: 0 | 1) => snapshotWith(heights(110), { name: 'r', reference: true, up });
    expect(behindReference.derive([a(1), r(1)])).toHaveLength(1);
    expect(behindReference.derive([a(0), r(1)])).toEqual([]);
    expect(behindReference.derive([a(1), r(0)])).toEqual([]);
  });
});
