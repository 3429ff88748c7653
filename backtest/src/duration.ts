// Durations of the backtest in milliseconds: timelines (`at: 2h30m`, `for: 20m`), rules (`for: 10m`,
// `[15m]`) and the report. The grammar is the project's one (src/duration.ts) with Prometheus' `w` and
// `y`, and without plain numbers of seconds in text (`15` is refused: a timeline says `15s`).
import { formatDuration, parseDuration } from 'avalanche-exporter';

/** `1h30m`, `90s`, `7d`, `0` → milliseconds; undefined when it is not a Prometheus duration. */
export function parseDurationMs(input: unknown): number | undefined {
  const s = parseDuration(input, { weeksAndYears: true, plainSeconds: false });
  return s === undefined ? undefined : Math.round(s * 1000);
}

/** Milliseconds → the shortest Prometheus duration: 600000 → `10m`, 5400000 → `1h30m`, 0 → `0s`. */
export function formatDurationMs(ms: number): string {
  return formatDuration(ms / 1000);
}

/** Every range window `[15m]` (and subquery range `[1h:5m]`) of a PromQL expression, in ms. */
export function rangeWindowsMs(expr: string): number[] {
  const out: number[] = [];
  for (const m of expr.matchAll(/\[\s*([0-9a-z]+)\s*(?::[^\]]*)?\]/g)) {
    const ms = parseDurationMs(m[1]);
    if (ms !== undefined) out.push(ms);
  }
  return out;
}
