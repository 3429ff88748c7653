import { describe, expect, it } from 'vitest';
import { health, justStarted, toSamples } from '../../src/collectors/health.js';
import { HttpError, NetworkError } from '../../src/node-client/index.js';
import { HealthReport } from '../../src/schemas/health.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const report = (m: string, n: string) => HealthReport.parse(result(m, n));

describe('health toSamples', () => {
  it('default: a healthy node, one set of series per check', () => {
    const s = toSamples({ health: report('health.health', 'default') });
    assertContract('health', s);
    expect(lines(s).slice(0, 3)).toEqual(['avax_node_healthy 1', 'avax_node_ready 1', 'avax_node_live 1']);
    expect(lines(s.filter((x) => x.labels['check'] === 'C'))).toEqual([
      'avax_health_check_pending{check="C"} 0',
      'avax_health_check_healthy{check="C"} 1',
      'avax_health_check_contiguous_failures{check="C"} 0',
      'avax_health_check_duration_seconds{check="C"} 0.000041875',
      'avax_health_check_timestamp_seconds{check="C"} 1778750490.5123458',
    ]);
    expect(new Set(s.filter((x) => x.labels['check']).map((x) => x.labels['check'])).size).toBe(10);
    expect(s.some((x) => x.name === 'avax_health_check_failing_since_timestamp_seconds')).toBe(false);
  });
  it('behavior: failing checks; ready from the bootstrapped check (what the readiness endpoint runs)', () => {
    const s = toSamples({ health: report('health.health', 'unhealthy') });
    assertContract('health', s);
    expect(valueOf(s, 'avax_node_healthy')).toBe(0);
    expect(valueOf(s, 'avax_node_ready')).toBe(0); // bootstrapped: "subnets not bootstrapped"
    expect(valueOf(s, 'avax_node_live')).toBe(1);
    expect(valueOf(s, 'avax_health_check_healthy', { check: 'network' })).toBe(0);
    expect(valueOf(s, 'avax_health_check_contiguous_failures', { check: 'network' })).toBe(12);
    expect(valueOf(s, 'avax_health_check_failing_since_timestamp_seconds', { check: 'network' })).toBe(1778750160);
  });
  it('behavior: a node that just started: every check "not yet run" → pending, not ready, and justStarted', () => {
    const r = HealthReport.parse(result('health.readiness', 'not-yet-run'));
    const s = toSamples({ health: r });
    expect(valueOf(s, 'avax_node_ready')).toBe(0);
    // not yet run: pending, neither healthy nor failing (no other per-check series)
    expect(lines(s.filter((x) => x.labels['check'] === 'bootstrapped'))).toEqual(['avax_health_check_pending{check="bootstrapped"} 1']);
    expect(justStarted(r)).toBe(true);
    expect(justStarted(report('health.health', 'unhealthy'))).toBe(false);
    expect(justStarted(HealthReport.parse({ checks: {}, healthy: true }))).toBe(false);
  });
  it('behavior: pending is recognised by Go\'s zero time or by the error text', () => {
    const r = HealthReport.parse({
      checks: {
        zero: { error: 'something else', timestamp: '0001-01-01T00:00:00Z', duration: 0 },
        text: { error: 'not yet run', timestamp: '2026-05-14T09:21:30Z', duration: 0 },
        failing: { error: 'closed', timestamp: '2026-05-14T09:21:30Z', duration: 5, contiguousFailures: 2, timeOfFirstFailure: '2026-05-14T09:20:30Z' },
      },
      healthy: false,
    });
    const s = toSamples({ health: r });
    expect(valueOf(s, 'avax_health_check_pending', { check: 'zero' })).toBe(1);
    expect(valueOf(s, 'avax_health_check_pending', { check: 'text' })).toBe(1);
    expect(valueOf(s, 'avax_health_check_pending', { check: 'failing' })).toBe(0);
    expect(valueOf(s, 'avax_health_check_healthy', { check: 'failing' })).toBe(0);
    expect(valueOf(s, 'avax_health_check_healthy', { check: 'zero' })).toBeUndefined();
  });
  it('error: nothing came back → no series', () => {
    expect(toSamples({})).toEqual([]);
  });
});

describe('health collect', () => {
  it('default: one GET /ext/health; a 503 body is a report, not a failure', async () => {
    const { client, calls } = fakeClient({}, { '/ext/health': { status: 503, body: result('health.health', 'unhealthy') } });
    const { ctx } = makeCtx(health, client);
    const r = await health.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.method)).toEqual(['GET /ext/health']);
    expect(valueOf(r.samples, 'avax_node_healthy')).toBe(0);
    expect(valueOf(r.samples, 'avax_node_live')).toBe(1);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
    expect(health.identifies?.(r.value!)).toEqual({ started: false });
  });
  it('error: health API disabled (404) → no series, a failure', async () => {
    const { client } = fakeClient({}, { '/ext/health': new HttpError('GET /ext/health', 404, '404 page not found') });
    const r = await health.collect(makeCtx(health, client).ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.samples).toEqual([]);
  });
  it('error: reset → no series (nothing stale), a failure', async () => {
    const { client } = fakeClient({}, { '/ext/health': new NetworkError('GET /ext/health', 'ECONNRESET') });
    const r = await health.collect(makeCtx(health, client).ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['NetworkError']);
    expect(r.samples).toEqual([]);
  });
});
