import { gauges, sample, type Sample } from '../model.js';
import { ENDPOINTS, healthCall } from '../node-client/index.js';
import { HealthReport, isPending, type HealthCheckResult } from '../schemas/health.js';
import { defineCollector, type CollectorOf } from './define.js';

/** The node's health report (GET /ext/health, parsed on 200 and 503 alike); undefined when it did not come. */
// Published for subnet-chains: the node registers one health check per chain it runs (chains/manager.go).
export interface HealthValue {
  readonly health?: HealthReport;
}

/**
 * Per-check series of one check result (docs/avalanchego-wire.md §3 Result object). A pending check (not yet
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

/** The readiness set of avalanchego is the `bootstrapped` check alone (docs/avalanchego-wire.md §3). */
const READINESS_CHECK = 'bootstrapped';

/**
 * avax_node_healthy from the report's `healthy` (the node's own verdict, also while checks are
 * pending); avax_node_ready from its `bootstrapped` check, which is all GET /ext/health/readiness runs
 * (pending = not ready, as that endpoint says); avax_node_live 1 when the Health API answered, which
 * is all GET /ext/health/liveness says (no liveness check is registered: always healthy). One request
 * instead of three (issue 23: the health report is asked every cycle). Then every check's series.
 */
export function toSamples(v: HealthValue): Sample[] {
  const report = v.health;
  if (!report) return [];
  const ready = report.checks[READINESS_CHECK];
  const out: Sample[] = [sample('avax_node_healthy', {}, report.healthy ? 1 : 0)];
  if (ready) out.push(sample('avax_node_ready', {}, !isPending(ready) && ready.error == null ? 1 : 0));
  out.push(sample('avax_node_live', {}, 1));
  for (const name of Object.keys(report.checks).sort()) out.push(...checkSamples(name, report.checks[name]!));
  return out;
}

/** A node process that just started: it has registered its checks and run none of them yet. */
export function justStarted(report: HealthReport): boolean {
  const checks = Object.values(report.checks);
  return checks.length > 0 && checks.every(isPending);
}

export const getHealthCall = healthCall({ path: ENDPOINTS.health, result: HealthReport });

export const health: CollectorOf<'health', HealthValue> = defineCollector({
  name: 'health',
  description: 'Health API: overall healthy/ready/live and every check (state, failures, duration, last run).',
  needs: 'Health API (not on public servers); checks refresh every 30 s on the node',
  // Every cycle: the chain checks of the L1s (subnet health, derive/subnet-healthy.ts) and a node that
  // just restarted (every check "not yet run") are seen within one cycle.
  interval: 15,
  nodeSpecific: true,
  metrics: [
    ...gauges([], {
      avax_node_healthy: '1 if GET /ext/health reports healthy.',
      avax_node_ready: "1 if the node's readiness check (bootstrapped, the one check GET /ext/health/readiness runs) passes; 0 while failing or not yet run.",
      avax_node_live: '1 when the Health API answers (GET /ext/health/liveness has no check: it is healthy whenever the node answers).',
    }),
    ...gauges(['check'], {
      avax_health_check_pending: 'Health check not yet run (the node registered it but has not run it, e.g. for about 30 s after a restart): 1; the other per-check series are absent while it is pending.',
      avax_health_check_healthy: 'Health check state: 1 when the check reports no error, 0 when failing; absent while the check is pending (not yet run).',
      avax_health_check_contiguous_failures: 'Contiguous failures of the health check (0 when passing).',
      avax_health_check_duration_seconds: "Duration of the health check's last run, in seconds.",
      avax_health_check_failing_since_timestamp_seconds: 'Unix time of the first failure of a failing health check (absent while passing).',
      avax_health_check_timestamp_seconds: "Unix time of the health check's last run (absent while not yet run).",
    }),
  ],
  calls: [getHealthCall],
  // A fresh process (every check not yet run) is a restart the engine refreshes every collector for.
  identifies: (v) => ({ started: v.health ? justStarted(v.health) : undefined }),
  async collect(ctx) {
    const r = await ctx.call(getHealthCall, undefined);
    if (!r.ok) return { value: {}, samples: [], errors: [r.error] };
    const value: HealthValue = { health: r.value.body };
    return { value, samples: toSamples(value), errors: [] };
  },
});
