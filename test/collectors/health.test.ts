import { describe, expect, it } from 'vitest';
import { health, toSamples } from '../../src/collectors/health.js';
import { HttpError, NetworkError } from '../../src/node-client/index.js';
import { HealthReport } from '../../src/schemas/health.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const report = (m: string, n: string) => HealthReport.parse(result(m, n));

describe('health toSamples', () => {
  it('default: a healthy node, one set of series per check', () => {
    const s = toSamples({ health: report('health.health', 'default'), readiness: report('health.readiness', 'default'), liveness: report('health.liveness', 'default') });
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
  it('behavior: failing checks and "not yet run"', () => {
    const s = toSamples({ health: report('health.health', 'unhealthy'), readiness: report('health.readiness', 'not-yet-run') });
    assertContract('health', s);
    expect(valueOf(s, 'avax_node_healthy')).toBe(0);
    expect(valueOf(s, 'avax_node_ready')).toBe(0);
    expect(valueOf(s, 'avax_node_live')).toBeUndefined();
    expect(valueOf(s, 'avax_health_check_healthy', { check: 'network' })).toBe(0);
    expect(valueOf(s, 'avax_health_check_contiguous_failures', { check: 'network' })).toBe(12);
    expect(valueOf(s, 'avax_health_check_failing_since_timestamp_seconds', { check: 'network' })).toBe(1778750160);
    // not yet run: pending, neither healthy nor failing (no other per-check series)
    expect(lines(s.filter((x) => x.labels['check'] === 'P'))).toEqual(['avax_health_check_pending{check="P"} 1']);
  });
  it('behavior: readiness checks missing from the health body are added; health wins on overlap', () => {
    const h = HealthReport.parse({ checks: { network: { timestamp: '2026-05-14T09:21:30Z', duration: 1 } }, healthy: true });
    const r = HealthReport.parse({ checks: { bootstrapped: { timestamp: '2026-05-14T09:21:31Z', duration: 2 }, network: { error: 'x', timestamp: '2026-05-14T09:21:31Z', duration: 3 } }, healthy: true });
    const s = toSamples({ health: h, readiness: r });
    expect(valueOf(s, 'avax_health_check_duration_seconds', { check: 'bootstrapped' })).toBe(2e-9);
    expect(valueOf(s, 'avax_health_check_healthy', { check: 'network' })).toBe(1);
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
  const bodies = {
    '/ext/health': { status: 503, body: result('health.health', 'unhealthy') },
    '/ext/health/readiness': { status: 200, body: result('health.readiness', 'default') },
    '/ext/health/liveness': { status: 200, body: result('health.liveness', 'default') },
  };
  it('default: a 503 body is a report, not a failure', async () => {
    const { client, calls } = fakeClient({}, bodies);
    const { ctx } = makeCtx(client);
    const r = await health.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_node_healthy')).toBe(0);
    expect(valueOf(r.samples, 'avax_node_live')).toBe(1);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: liveness unreachable → its series absent, the others kept', async () => {
    const { client } = fakeClient({}, { ...bodies, '/ext/health/liveness': new NetworkError('GET /ext/health/liveness', 'ECONNRESET') });
    const r = await health.collect(makeCtx(client).ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['NetworkError']);
    expect(valueOf(r.samples, 'avax_node_live')).toBeUndefined();
    expect(valueOf(r.samples, 'avax_node_ready')).toBe(1);
  });
  it('error: health API disabled (404)', async () => {
    const e = new HttpError('GET', 404, '404 page not found');
    const { client } = fakeClient({}, { '/ext/health': e, '/ext/health/readiness': e, '/ext/health/liveness': e });
    const r = await health.collect(makeCtx(client).ctx);
    expect(r.errors).toHaveLength(3);
    expect(r.samples).toEqual([]);
  });
});
