import { describe, expect, it } from 'vitest';
import { NETWORK_UPGRADES } from '../../src/avalanche.js';
import { ACP_UPGRADE, acpActivated, acpActivatedDerivation, unknownActivatedUpgrades } from '../../src/derive/acp-activated.js';
import { InfoAcpsResult, InfoUpgradesResult } from '../../src/schemas/info.js';
import { openAcps } from '../../src/collectors/info-acps.js';
import { result } from '../fixtures/load.js';
import { recordedResult } from '../helpers/recorded-node.js';
import { snapshotWith } from './snapshot.js';

const FORTUNA = Date.parse('2025-04-08T15:00:00Z') / 1000;
const HELICON = Date.parse('2026-09-22T15:00:00Z') / 1000;
const times = (over: Record<string, number> = {}) => ({ durango: 1, etna: 2, fortuna: FORTUNA, granite: Number.POSITIVE_INFINITY, ...over });

describe('derive: ACP activated (avalanchego lists ACPs of activated upgrades)', () => {
  it.each([
    ['ACP-176 after Fortuna activated', 176, times(), FORTUNA + 1, 1],
    ['ACP-176 at the activation second', 176, times(), FORTUNA, 1],
    ['ACP-176 before Fortuna', 176, times(), FORTUNA - 1, 0],
    ['a Granite ACP while Granite is unscheduled (+Inf)', 181, times(), FORTUNA + 1, 0],
    ['an ACP in no upgrade (a real open proposal)', 999, times(), FORTUNA + 1, 0],
    ['ACP-176 with info.upgrades not read yet', 176, undefined, FORTUNA + 1, undefined],
    ['ACP-176 on a node whose info.upgrades has no fortuna', 176, { durango: 1 }, FORTUNA + 1, undefined],
    ['an ACP in no upgrade on a node without info.upgrades (before v1.11.11)', 999, undefined, FORTUNA + 1, 0],
    ['ACP-194 (Helicon) after Helicon activated', 194, times({ granite: 3, helicon: HELICON }), HELICON + 1, 1],
    ['ACP-236 (Helicon) before Helicon', 236, times({ granite: 3, helicon: HELICON }), HELICON - 1, 0],
    ['ACP-224 (in no upgrade) after Helicon', 224, times({ granite: 3, helicon: HELICON }), HELICON + 1, 0],
  ])('behavior: %s', (_n, acp, t, now, want) => {
    expect(acpActivated(acp, t, now)).toBe(want);
  });

  it.each([
    ['activated: an ACP in no known upgrade cannot be told open (it may be the new upgrade\'s)', 301, HELICON + 20, undefined],
    ['activated: an ACP of a known upgrade is still told', 194, HELICON + 20, 1],
    ['scheduled, not activated: an ACP in no known upgrade is still open', 301, HELICON + 5, 0],
  ])('behavior: the node names an upgrade the exporter does not know (ixion at Helicon + 10 s), %s', (_n, acp, now, want) => {
    const t = times({ granite: 3, helicon: HELICON, ixion: HELICON + 10 });
    expect(acpActivated(acp, t, now)).toBe(want);
    expect(unknownActivatedUpgrades(t, now)).toEqual(now >= HELICON + 10 ? ['ixion'] : []);
  });

  it('default: one series per ACP info.acps lists, from the v1.13.5-shaped answer, and avax_acp_table_outdated 0; none when nothing is read', () => {
    const s = snapshotWith({ 'info-acps': { open: [176, 999] }, 'info-upgrades': { times: times(), heliconTime: Number.POSITIVE_INFINITY } });
    expect(acpActivatedDerivation.derive(s, FORTUNA + 3600)).toEqual([
      { name: 'avax_acp_activated', labels: { acp: '176' }, value: 1 },
      { name: 'avax_acp_activated', labels: { acp: '999' }, value: 0 },
      { name: 'avax_acp_table_outdated', labels: {}, value: 0 },
    ]);
    expect(acpActivatedDerivation.derive(snapshotWith({ 'info-acps': { open: [] }, 'info-upgrades': { times: times(), heliconTime: 0 } }), FORTUNA)).toEqual([{ name: 'avax_acp_table_outdated', labels: {}, value: 0 }]);
    expect(acpActivatedDerivation.derive(snapshotWith({}), FORTUNA)).toEqual([]);
  });

  it('behavior: once an unknown upgrade has activated, ACPs in no known upgrade have no series and avax_acp_table_outdated is 1', () => {
    const t = times({ granite: 3, helicon: HELICON, ixion: HELICON + 10 });
    const s = snapshotWith({ 'info-acps': { open: [194, 301] }, 'info-upgrades': { times: t, heliconTime: HELICON } });
    expect(acpActivatedDerivation.derive(s, HELICON + 11)).toEqual([
      { name: 'avax_acp_activated', labels: { acp: '194' }, value: 1 },
      { name: 'avax_acp_table_outdated', labels: {}, value: 1 },
    ]);
  });

  it("default: a real v1.15.0 node with Helicon active: the six Helicon ACPs it still lists are activated, 224 and 247 open, nothing outdated", () => {
    const upgrades = InfoUpgradesResult.parse(recordedResult('info.upgrades.json', '1.15.0'));
    const open = openAcps(InfoAcpsResult.parse(recordedResult('info.acps.json', '1.15.0')));
    const now = Date.parse('2026-11-28T10:39:00Z') / 1000;
    const s = snapshotWith({ 'info-acps': { open }, 'info-upgrades': { times: upgrades.times, heliconTime: upgrades.heliconTime! } });
    expect(Object.fromEntries(acpActivatedDerivation.derive(s, now).map((x) => [x.labels['acp'] ?? x.name, x.value]))).toEqual({
      194: 1, 224: 0, 236: 1, 247: 0, 267: 1, 273: 1, 283: 1, 285: 1, avax_acp_table_outdated: 0,
    });
  });

  it("behavior: every upgrade the exporter knows is a key of a real v1.15.0 node's info.upgrades, and every key of it is known", () => {
    const real = InfoUpgradesResult.parse(recordedResult('info.upgrades.json', '1.15.0'));
    expect(Object.keys(real.times).sort()).toEqual(Object.keys(NETWORK_UPGRADES).sort());
    for (const upgrade of new Set(Object.values(ACP_UPGRADE))) expect(Object.keys(InfoUpgradesResult.parse(result('info.upgrades', 'default')).times)).toContain(upgrade);
  });
});
