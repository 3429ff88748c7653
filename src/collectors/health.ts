import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS } from '../node-client/index.js';
import { HealthReport, type HealthCheckResult } from '../schemas/health.js';
import { isGoZeroTime } from '../schemas/primitives.js';
import { defineCollector } from './define.js';
import { failures, settleAll } from './support.js';

/** The reports that came back (GET bodies, parsed on 200 and 503 alike). */
export interface HealthValue {
  readonly health?: HealthReport;
  readonly readiness?: HealthReport;
  readonly liveness?: HealthReport;
}

declare module './define.js' {
  interface CollectorValues {
    // Published for subnet-chains: the node registers one health check per chain it runs (chains/manager.go).
    health: HealthValue;
  }
}

/**
 * A check that has not run yet: avalanchego registers every check as
 * `{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}` and runs it first one
 * health period (--health-check-frequency, 30 s) after start (api/health/worker.go). Recognised by
 * its meaning, Go's zero time (the check has no run), or by the error text.
 */
export function isPending(r: HealthCheckResult): boolean {
  return (r.timestamp !== undefined && isGoZeroTime(r.timestamp)) || r.error === 'not yet run';
}

/**
 * Per-check series of one check result (AVALANCHEGO.md §3 Result object). A pending check (not yet
 * run, e.g. for about 30 s after a restart) is neither healthy nor failing: it gets
 * avax_health_check_pending 1 and none of the other per-check series.
 */
export function checkSamples(check: string, r: HealthCheckResult): Sample[] {
  const labels = { check };
  if (isPending(r)) return [sample('avax_health_check_pending', labels, 1)];
  const out: Sample[] = [
    sample('avax_health_check_pending', labels, 0),
    sample('avax_health_check_healthy', labels, r.error == null ? 1 : 0),
    sample('avax_health_check_contiguous_failures', labels, r.contiguousFailures ?? 0),
    sample('avax_health_check_duration_seconds', labels, (r.duration ?? 0) / 1e9),
  ];
  if (r.timeOfFirstFailure != null) out.push(sample('avax_health_check_failing_since_timestamp_seconds', labels, r.timeOfFirstFailure));
  if (r.timestamp !== undefined) out.push(sample('avax_health_check_timestamp_seconds', labels, r.timestamp));
  return out;
}

/**
 * avax_node_healthy/ready/live from each report's `healthy` (the node's own verdict, also while
 * checks are pending), and the per-check series of the /ext/health report plus the readiness checks
 * it does not contain.
 */
export function toSamples(v: HealthValue): Sample[] {
  const out: Sample[] = [];
  if (v.health) out.push(sample('avax_node_healthy', {}, v.health.healthy ? 1 : 0));
  if (v.readiness) out.push(sample('avax_node_ready', {}, v.readiness.healthy ? 1 : 0));
  if (v.liveness) out.push(sample('avax_node_live', {}, v.liveness.healthy ? 1 : 0));
  const checks = new Map<string, HealthCheckResult>();
  for (const [name, r] of Object.entries(v.health?.checks ?? {})) checks.set(name, r);
  for (const [name, r] of Object.entries(v.readiness?.checks ?? {})) if (!checks.has(name)) checks.set(name, r);
  for (const name of [...checks.keys()].sort()) out.push(...checkSamples(name, checks.get(name)!));
  return out;
}

const TC = ['check'];

export const health = defineCollector({
  name: 'health',
  description: 'Health API: overall healthy/ready/live and every check (state, failures, duration, last run).',
  needs: 'Health API (not on public servers); checks refresh every 30 s on the node',
  interval: 30,
  nodeSpecific: true,
  metrics: [
    { name: 'avax_node_healthy', type: 'gauge', labels: [], help: '1 if GET /ext/health reports healthy.' },
    { name: 'avax_node_ready', type: 'gauge', labels: [], help: '1 if GET /ext/health/readiness reports healthy.' },
    { name: 'avax_node_live', type: 'gauge', labels: [], help: '1 if GET /ext/health/liveness reports healthy.' },
    { name: 'avax_health_check_pending', type: 'gauge', labels: TC, help: 'Health check not yet run (the node registered it but has not run it, e.g. for about 30 s after a restart): 1; the other per-check series are absent while it is pending.' },
    { name: 'avax_health_check_healthy', type: 'gauge', labels: TC, help: 'Health check state: 1 when the check reports no error, 0 when failing; absent while the check is pending (not yet run).' },
    { name: 'avax_health_check_contiguous_failures', type: 'gauge', labels: TC, help: 'Contiguous failures of the health check (0 when passing).' },
    { name: 'avax_health_check_duration_seconds', type: 'gauge', labels: TC, help: "Duration of the health check's last run, in seconds." },
    { name: 'avax_health_check_failing_since_timestamp_seconds', type: 'gauge', labels: TC, help: 'Unix time of the first failure of a failing health check (absent while passing).' },
    { name: 'avax_health_check_timestamp_seconds', type: 'gauge', labels: TC, help: "Unix time of the health check's last run (absent while not yet run)." },
  ],
  calls: [{ method: 'GET /ext/health' }, { method: 'GET /ext/health/readiness' }, { method: 'GET /ext/health/liveness' }],
  async collect(ctx) {
    const opts = { signal: ctx.signal };
    const settled = await settleAll([
      ctx.client.healthGet(ENDPOINTS.health, HealthReport, opts),
      ctx.client.healthGet(ENDPOINTS.healthReadiness, HealthReport, opts),
      ctx.client.healthGet(ENDPOINTS.healthLiveness, HealthReport, opts),
    ]);
    const [h, r, l] = settled;
    const value: HealthValue = {
      health: h.ok ? h.value.body : undefined,
      readiness: r.ok ? r.value.body : undefined,
      liveness: l.ok ? l.value.body : undefined,
    };
    return { value, samples: toSamples(value), errors: failures(settled) };
  },
});
