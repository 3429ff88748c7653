import { z } from 'zod';
import { Float, isGoZeroTime, Rfc3339Seconds, SmallInt } from './primitives.js';

/**
 * Health API report (`GET /ext/health`, `/readiness`, `/liveness`; also the JSON-RPC
 * health.health result), docs/avalanchego-wire.md §3. The body is the same on 200 and 503.
 *
 * A check result, in field order: message (any JSON, omitted when nil), error (string, only when
 * failing), timestamp (always; `0001-01-01T00:00:00Z` while "not yet run"), duration (ns, int),
 * contiguousFailures (omitted when 0), timeOfFirstFailure (omitted when not failing, never null).
 */
export const HealthCheckResult = z.object({
  message: z.unknown().optional(),
  error: z.string().nullish(),
  timestamp: Rfc3339Seconds.optional(),
  duration: Float.optional(),
  contiguousFailures: SmallInt.optional(),
  timeOfFirstFailure: Rfc3339Seconds.nullish(),
});
export type HealthCheckResult = z.output<typeof HealthCheckResult>;

/**
 * A check that has not run yet: avalanchego registers every check as
 * `{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}` and runs it first one
 * health period (--health-check-frequency, 30 s) after start (api/health/worker.go). Recognised by
 * its meaning, Go's zero time (the check has no run), or by the error text.
 */
export function isPending(r: HealthCheckResult): boolean {
  return (r.timestamp !== undefined && isGoZeroTime(r.timestamp)) || r.error === 'not yet run';
}

/** `{checks: {<name>: Result}, healthy}`. Check names are an open set. */
export const HealthReport = z.object({
  checks: z
    .record(z.string(), HealthCheckResult)
    .nullish()
    .transform((v): Record<string, HealthCheckResult> => v ?? {}),
  healthy: z.boolean(),
});
export type HealthReport = z.output<typeof HealthReport>;

/** health.health / GET /ext/health. */
export const HealthHealthResult = HealthReport;
export type HealthHealthResult = HealthReport;
/** health.readiness / GET /ext/health/readiness (only `bootstrapped`). */
export const HealthReadinessResult = HealthReport;
export type HealthReadinessResult = HealthReport;
/** health.liveness / GET /ext/health/liveness (no checks registered: `{"checks":{},"healthy":true}`). */
export const HealthLivenessResult = HealthReport;
export type HealthLivenessResult = HealthReport;
