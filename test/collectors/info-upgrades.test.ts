import { describe, expect, it } from 'vitest';
import { infoUpgrades, toSamples } from '../../src/collectors/info-upgrades.js';
import { TimeoutError } from '../../src/node-client/index.js';
import { InfoUpgradesResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, testSlot, valueOf } from './fake.js';

const upgrades = (name: string) => toSamples(InfoUpgradesResult.parse(result('info.upgrades', name)));

describe('info-upgrades toSamples', () => {
  it('default: one series per <name>Time member; unscheduled Helicon is +Inf; numbers and IDs ignored', () => {
    const s = upgrades('default');
    assertContract('info-upgrades', s);
    expect(valueOf(s, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'granite' })).toBe(1763568000);
    expect(valueOf(s, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(Number.POSITIVE_INFINITY);
    const names = s.map((x) => x.labels['upgrade']);
    expect(names).toContain('apricotPhase1');
    expect(names).not.toContain('graniteEpochDuration');
    expect(names).not.toContain('apricotPhase4MinPChainHeight');
    expect(names).not.toContain('cortinaXChainStopVertexID');
    expect(names).toEqual([...names].sort());
  });
  it('behavior: a scheduled Helicon is its time', () => {
    expect(valueOf(upgrades('helicon-scheduled'), 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(1785250800);
  });
});

describe('info-upgrades: upgrade names across versions', () => {
  it('default: v1.12.2 names the F upgrade fUpgrade (Fortuna from v1.13.0): the series is upgrade="fortuna" all the same', () => {
    const samples = upgrades('v1.12.2');
    assertContract('info-upgrades', samples);
    expect(lines(samples.filter((s) => /^(etna|f|fortuna|fUpgrade)$/.test(s.labels['upgrade']!)))).toEqual([
      'avax_network_upgrade_timestamp_seconds{upgrade="etna"} 1607144400',
      'avax_network_upgrade_timestamp_seconds{upgrade="fortuna"} Infinity',
    ]);
    expect(samples).toHaveLength(13);
  });
});

describe('info-upgrades collect', () => {
  it('behavior: collect publishes Helicon for platform-validators (its value)', async () => {
    const { client } = fakeClient({ 'info.upgrades': result('info.upgrades', 'helicon-scheduled') });
    const r = await infoUpgrades.collect(makeCtx(infoUpgrades, client).ctx);
    expect(r.errors).toEqual([]);
    expect(r.value?.heliconTime).toBe(1785250800);
    expect(r.value?.times['granite']).toBe(1763568000);
  });
  it("behavior: an upgrade the exporter's ACP table does not know is logged once: info while scheduled, warn once it has activated; none for a known list", async () => {
    const answer = { ...result('info.upgrades', 'default'), ixionTime: '2027-03-01T15:00:00Z' };
    const { client } = fakeClient({ 'info.upgrades': answer });
    const ixion = Date.parse('2027-03-01T15:00:00Z');
    const slot = testSlot(infoUpgrades);
    const { ctx, lines: logged } = makeCtx(infoUpgrades, client, { now: ixion - 1000, slot });
    await infoUpgrades.collect(ctx);
    await infoUpgrades.collect(ctx);
    expect(logged.map((l) => [l.level, (l.args[0] as { upgrades: string[]; activated: string[] }).activated])).toEqual([['info', []]]);
    expect(logged[0]!.args[0]).toEqual({ upgrades: ['ixion'], activated: [] });
    const later = makeCtx(infoUpgrades, client, { now: ixion, slot });
    await infoUpgrades.collect(later.ctx);
    expect(later.lines.map((l) => l.level)).toEqual(['warn']);
    expect(later.lines[0]!.args[0]).toEqual({ upgrades: ['ixion'], activated: ['ixion'] });
    expect(String(later.lines[0]!.args[1])).toContain('Update avalanche-exporter');
    const known = makeCtx(infoUpgrades, fakeClient({ 'info.upgrades': result('info.upgrades', 'default') }).client);
    await infoUpgrades.collect(known.ctx);
    expect(known.lines).toEqual([]);
  });
  it('error: a timeout fails the collector, no series', async () => {
    const { client } = fakeClient({ 'info.upgrades': new TimeoutError('info.upgrades', 5000) });
    expect((await infoUpgrades.collect(makeCtx(infoUpgrades, client).ctx)).errors.map((e) => e.name)).toEqual(['TimeoutError']);
  });
});
