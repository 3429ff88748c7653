// Issue 22: the collector lists the exporter rules use are the collectors' own declarations.
import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { BOOTSTRAP_GATED_COLLECTORS, COLLECTOR_INTERVALS, SLOW_COLLECTORS, SLOW_INTERVAL_SECONDS, bootstrapGatedCollectors, isChainRoute } from '../../src/monitoring/collector-facts.js';
import { exporterRules } from '../../src/monitoring/rules/exporter.js';
import { groupRules } from '../../src/monitoring/rules/render.js';
import { DEFAULT_SETTINGS } from '../../src/monitoring/settings.js';

describe('collector facts (src/monitoring/collector-facts.ts)', () => {
  it('default: the intervals are every collector\'s declared default, in COLLECTORS order', () => {
    expect([...COLLECTOR_INTERVALS]).toEqual(COLLECTORS.map((c) => [c.name, c.interval]));
  });

  it('default: the slow collectors are those declared with an interval of 5 minutes or more', () => {
    expect(SLOW_COLLECTORS).toEqual(COLLECTORS.filter((c) => c.interval >= SLOW_INTERVAL_SECONDS).map((c) => c.name));
    expect(SLOW_COLLECTORS).toContain('platform-validators-full');
  });

  it('default: the bootstrap-gated collectors are those with a declared call on /ext/bc/... or /ext/index/..., or one declared untilBootstrapped (info.uptime)', () => {
    for (const c of ['platform-validators', 'chain-height', 'index-last-accepted', 'subnet-chains', 'info-uptime']) expect(BOOTSTRAP_GATED_COLLECTORS, c).toContain(c);
    for (const c of ['health', 'info-peers', 'node-metrics', 'node-info']) expect(BOOTSTRAP_GATED_COLLECTORS, c).not.toContain(c);
    const toy = { name: 'toy', calls: [{ pathPrefix: '/ext/info' }, { pathPrefix: '/ext/bc/toy' }] };
    expect(bootstrapGatedCollectors([...COLLECTORS, toy]).at(-1)).toBe('toy');
    const declared = { name: 'declared', calls: [{ pathPrefix: '/ext/info', untilBootstrapped: true }] };
    expect(bootstrapGatedCollectors([declared])).toEqual(['declared']);
    expect(bootstrapGatedCollectors([{ name: 'info', calls: [{ pathPrefix: '/ext/info' }] }])).toEqual([]);
  });

  it('behavior: chain routes are the chains\' own endpoints and the index API; info, health, admin and metrics are not', () => {
    for (const p of ['/ext/bc/P', '/ext/bc/C/rpc', '/ext/bc/X', '/ext/index/', '/ext/bc/2XDnKyAEr1RhhWpTpMXqrjeejN23vETmDykVzkb4PrU1fQjewh/rpc']) expect(isChainRoute(p), p).toBe(true);
    for (const p of ['/ext/info', '/ext/health', '/ext/admin', '/ext/metrics', '/ext/bcx']) expect(isChainRoute(p), p).toBe(false);
  });

  it('default: AvalancheExporterDataStale and AvalancheCollectorFailing use exactly these lists', () => {
    const rules = groupRules(exporterRules, DEFAULT_SETTINGS);
    const stale = rules.find((r) => r.alert === 'AvalancheExporterDataStale')!;
    expect(stale.expr).toContain(`collector=~"${SLOW_COLLECTORS.join('|')}"`);
    expect(stale.expr).toContain(`collector!~"${SLOW_COLLECTORS.join('|')}"`);
    for (const c of COLLECTORS) expect(stale.comment, c.name).toContain(c.name);
    const failing = rules.find((r) => r.alert === 'AvalancheCollectorFailing')!;
    expect(failing.expr).toContain(`collector=~"${BOOTSTRAP_GATED_COLLECTORS.join('|')}"`);
  });
});
