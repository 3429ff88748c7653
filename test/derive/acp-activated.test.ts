import { describe, expect, it } from 'vitest';
import { ACP_UPGRADE, acpActivated, acpActivatedDerivation } from '../../src/derive/acp-activated.js';
import { InfoUpgradesResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { snapshotWith } from './snapshot.js';

const FORTUNA = Date.parse('2025-04-08T15:00:00Z') / 1000;
const times = (over: Record<string, number> = {}) => ({ durango: 1, etna: 2, fortuna: FORTUNA, granite: Number.POSITIVE_INFINITY, ...over });

describe('derive: ACP activated (v1.13.x lists ACPs of activated upgrades)', () => {
  it.each([
    ['ACP-176 after Fortuna activated', 176, times(), FORTUNA + 1, 1],
    ['ACP-176 at the activation second', 176, times(), FORTUNA, 1],
    ['ACP-176 before Fortuna', 176, times(), FORTUNA - 1, 0],
    ['a Granite ACP while Granite is unscheduled (+Inf)', 181, times(), FORTUNA + 1, 0],
    ['an ACP in no upgrade (a real open proposal)', 999, times(), FORTUNA + 1, 0],
    ['ACP-176 with info.upgrades not read yet', 176, undefined, FORTUNA + 1, undefined],
    ['ACP-176 on a node whose info.upgrades has no fortuna', 176, { durango: 1 }, FORTUNA + 1, undefined],
  ])('behavior: %s', (_n, acp, t, now, want) => {
    expect(acpActivated(acp, t, now)).toBe(want);
  });

  it('default: one series per ACP info.acps lists, from the v1.13.5-shaped answer; none when it lists none', () => {
    const s = snapshotWith({ 'info-acps': { open: [176, 999] }, 'info-upgrades': { times: times(), heliconTime: Number.POSITIVE_INFINITY } });
    expect(acpActivatedDerivation.derive(s, FORTUNA + 3600)).toEqual([
      { name: 'avax_acp_activated', labels: { acp: '176' }, value: 1 },
      { name: 'avax_acp_activated', labels: { acp: '999' }, value: 0 },
    ]);
    expect(acpActivatedDerivation.derive(snapshotWith({ 'info-acps': { open: [] }, 'info-upgrades': { times: times(), heliconTime: 0 } }), FORTUNA)).toEqual([]);
    expect(acpActivatedDerivation.derive(snapshotWith({}), FORTUNA)).toEqual([]);
  });

  it("behavior: every upgrade named in the mapping is a key of a real node's info.upgrades", () => {
    const real = InfoUpgradesResult.parse(result('info.upgrades', 'default'));
    for (const upgrade of new Set(Object.values(ACP_UPGRADE))) expect(Object.keys(real.times)).toContain(upgrade);
  });
});
