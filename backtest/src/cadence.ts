// How often the exporter refreshes each metric, read off the declarations (a collector's `interval`, a
// derivation's `reads`): a change on the node reaches a series at the next run of the collector behind it,
// so an alert over a series of a 5-minute collector cannot fire sooner than one such run after the fault.
// The backtest adds it to an alert's default time-to-page, as it adds the expression's range window.
import { COLLECTORS, DERIVATIONS, FLEET_DERIVATIONS } from 'avalanche-exporter';

const intervalOf = new Map<string, number>(COLLECTORS.map((c) => [c.name, c.interval * 1000]));

/** metric name → its refresh period in ms (the collector's interval; a derived metric: its slowest input). */
export const METRIC_CADENCE_MS: ReadonlyMap<string, number> = new Map([
  ...COLLECTORS.flatMap((c) => c.metrics.map((m) => [m.name, c.interval * 1000] as const)),
  ...[...DERIVATIONS, ...FLEET_DERIVATIONS].flatMap((d) => {
    const ms = Math.max(0, ...d.reads.map((r) => intervalOf.get(r) ?? 0));
    return d.metrics.map((m) => [m.name, ms] as const);
  }),
]);

/** The slowest refresh period among the metrics an expression selects (0 when none is the exporter's). */
export function cadenceMs(metrics: readonly string[]): number {
  return Math.max(0, ...metrics.map((m) => METRIC_CADENCE_MS.get(m) ?? 0));
}
