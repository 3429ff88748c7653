import { describe, expect, it } from 'vitest';
import { toSamples } from '../../src/collectors/info-upgrades.js';
import { InfoUpgradesResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, lines } from './fake.js';

describe('info-upgrades: upgrade names across versions', () => {
  it('default: v1.12.2 names the F upgrade fUpgrade (Fortuna from v1.13.0): the series is upgrade="fortuna" all the same', () => {
    const samples = toSamples(InfoUpgradesResult.parse(result('info.upgrades', 'v1.12.2')));
    assertContract('info-upgrades', samples);
    expect(lines(samples.filter((s) => /^(etna|f|fortuna|fUpgrade)$/.test(s.labels['upgrade']!)))).toEqual([
      'avax_network_upgrade_timestamp_seconds{upgrade="etna"} 1607144400',
      'avax_network_upgrade_timestamp_seconds{upgrade="fortuna"} Infinity',
    ]);
    expect(samples).toHaveLength(13);
  });
  it('default: v1.13.5 and v1.14.2 answer fortunaTime, read as before', () => {
    for (const c of ['v1.13.5', 'default']) expect(InfoUpgradesResult.parse(result('info.upgrades', c)).times['fortuna']).toBe(Date.parse('2025-04-08T15:00:00Z') / 1000);
  });
  it('behavior: the named member wins over the placeholder, in either order', () => {
    for (const o of [{ fUpgradeTime: '9999-12-01T00:00:00Z', fortunaTime: '2025-04-08T15:00:00Z' }, { fortunaTime: '2025-04-08T15:00:00Z', fUpgradeTime: '9999-12-01T00:00:00Z' }]) {
      expect(InfoUpgradesResult.parse(o).times).toEqual({ fortuna: 1744124400 });
    }
  });
});
