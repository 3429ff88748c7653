import { describe, expect, it } from 'vitest';
import { HealthReport } from '../../src/schemas/health.js';
import { GO_ZERO_TIME_SECONDS } from '../../src/schemas/primitives.js';
import { result } from '../fixtures/load.js';

describe('health report', () => {
  it('default: every check of a healthy node, open set of names', () => {
    const v = HealthReport.parse(result('health.health', 'default'));
    expect(v.healthy).toBe(true);
    expect(Object.keys(v.checks).sort()).toEqual(['C', 'P', 'X', 'bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router']);
    expect(v.checks['C']!.duration).toBe(41875);
    expect(v.checks['C']!.timestamp).toBeCloseTo(1778750490.512345678, 6);
    expect(v.checks['database']!.message).toBeUndefined();
  });
  it('behavior: failing and not-yet-run checks', () => {
    const v = HealthReport.parse(result('health.health', 'unhealthy'));
    expect(v.healthy).toBe(false);
    expect(v.checks['network']!.contiguousFailures).toBe(12);
    // 2026-05-14T05:16:00-04:00 = 09:16:00Z
    expect(v.checks['network']!.timeOfFirstFailure).toBe(1778750160);
    expect(v.checks['P']!.timestamp).toBe(GO_ZERO_TIME_SECONDS);
    expect(v.checks['P']!.error).toBe('not yet run');
  });
  it('behavior: liveness has no checks', () => {
    expect(HealthReport.parse(result('health.liveness', 'default'))).toEqual({ checks: {}, healthy: true });
  });
  it('error: healthy missing or not a boolean', () => {
    expect(HealthReport.safeParse({ checks: {} }).success).toBe(false);
    expect(HealthReport.safeParse({ checks: {}, healthy: 'yes' }).success).toBe(false);
  });
  it('error: bad check timestamp names the check', () => {
    const r = HealthReport.safeParse({ checks: { network: { timestamp: 'yesterday', duration: 1 } }, healthy: true });
    expect(r.error?.issues[0]?.path).toEqual(['checks', 'network', 'timestamp']);
    expect(r.error?.issues[0]?.message).toContain('invalid RFC3339 timestamp "yesterday"');
  });
});
