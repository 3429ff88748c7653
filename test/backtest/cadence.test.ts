// The default time-to-page counts how often the exporter refreshes what a rule reads (cadence.ts): a rule over
// a 5-minute collector's series gets that collector's interval instead of one scrape interval.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cadenceMs, METRIC_CADENCE_MS } from '../../backtest/src/cadence.js';
import { defaultDeadlineMs } from '../../backtest/src/figures.js';
import { loadRules } from '../../backtest/src/rules.js';
import { COLLECTORS } from '../../src/collectors/index.js';

const rule = (alert: string) => loadRules(resolve(import.meta.dirname, '../../alerts'), 15_000).find((r) => r.alert === alert)!;

describe('cadence', () => {
  it('a collector metric refreshes at its collector interval, a derived one at its slowest input', () => {
    const acps = COLLECTORS.find((c) => c.name === 'info-acps')!;
    expect(METRIC_CADENCE_MS.get('avax_acp_support_weight')).toBe(acps.interval * 1000);
    // newer-version ratio reads info-peers (30 s) and node-info (60 s)
    expect(METRIC_CADENCE_MS.get('avax_peers_newer_version_ratio')).toBe(60_000);
    expect(cadenceMs(['avax_health_check_healthy', 'avax_acp_support_weight'])).toBe(300_000);
    expect(cadenceMs(['not_ours'])).toBe(0);
  });

  it('the default deadline takes the slower of the scrape interval and the cadence', () => {
    const acp = rule('AvalancheACPMajoritySupport');
    expect(acp.cadenceMs).toBe(300_000);
    expect(defaultDeadlineMs(acp, 60_000)).toBe(acp.forMs + 2 * 15_000 + 300_000 + acp.windowMs);
    const down = rule('AvalancheNodeUnhealthy');
    expect(down.cadenceMs).toBeLessThanOrEqual(60_000);
    expect(defaultDeadlineMs(down, 60_000)).toBe(down.forMs + 2 * 15_000 + 60_000 + down.windowMs);
  });
});
