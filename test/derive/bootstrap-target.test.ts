import { describe, expect, it } from 'vitest';
import { bootstrapTarget } from '../../src/derive/bootstrap-target.js';
import { snapshotWith } from './snapshot.js';

const MAINNET = '1';
const FUJI = '5';
type Heights = { p?: number; c?: number; x?: number };
/** A target of `network` with the heights it answers and the chains info.isBootstrapped reports not bootstrapped. */
const node = (name: string, network: string, h: Heights, notBootstrapped: string[] = [], o: { reference?: boolean; up?: 0 | 1 } = {}) =>
  snapshotWith(
    {
      'node-info': { networkId: network },
      'chain-height': { p: h.p === undefined ? undefined : BigInt(h.p), c: h.c === undefined ? undefined : BigInt(h.c), x: h.x === undefined ? undefined : BigInt(h.x) },
      'info-is-bootstrapped': { chains: ['P', 'X', 'C'].map((chain) => ({ chain, isBootstrapped: !notBootstrapped.includes(chain) })) },
    },
    { name, ...o },
  );
const derive = (...s: ReturnType<typeof node>[]) => bootstrapTarget.derive(s).map((x) => `${x.labels['target']} ${x.labels['chain']} ${x.value}`);

describe('derive: bootstrap target height', () => {
  it('default: a node bootstrapping C gets the highest C height of the other targets of its network', () => {
    expect(derive(node('new', MAINNET, { p: 900 }, ['C', 'X']), node('ref', MAINNET, { p: 1000, c: 5000, x: 70 }, [], { reference: true }), node('peer', MAINNET, { p: 1001, c: 5003, x: 70 }))).toEqual(['new C 5003', 'new X 70']);
  });
  it('behavior: a fully bootstrapped fleet publishes nothing (the normal state)', () => {
    expect(derive(node('a', MAINNET, { p: 1, c: 2, x: 3 }), node('b', MAINNET, { p: 1, c: 2, x: 3 }, [], { reference: true }))).toEqual([]);
  });
  it('behavior: no other target of the same network has the chain → no series (one target, another network, or all bootstrapping)', () => {
    expect(derive(node('new', MAINNET, {}, ['P', 'X', 'C']))).toEqual([]);
    expect(derive(node('new', MAINNET, {}, ['C']), node('fuji', FUJI, { c: 9000 }))).toEqual([]);
    expect(derive(node('a', MAINNET, {}, ['C']), node('b', MAINNET, {}, ['C']))).toEqual([]);
  });
  it('behavior: a target that does not answer is neither a source nor given a target; a chain with its own height is not bootstrapping', () => {
    expect(derive(node('new', MAINNET, {}, ['C']), node('down', MAINNET, { c: 5000 }, [], { up: 0 }))).toEqual([]);
    expect(derive(node('new', MAINNET, {}, ['C'], { up: 0 }), node('ref', MAINNET, { c: 5000 }))).toEqual([]);
    // info.isBootstrapped lags (asked every minute) while the chain already answers its height: nothing to do.
    expect(derive(node('new', MAINNET, { c: 4990 }, ['C']), node('ref', MAINNET, { c: 5000 }))).toEqual([]);
  });
});
