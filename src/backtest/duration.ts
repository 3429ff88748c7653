// Durations of the backtest: timelines (`at: 2h30m`, `for: 20m`), rules (`for: 10m`, `[15m]`) and
// the report. Prometheus' syntax (units y w d h m s ms, largest first); milliseconds in, out.

const UNITS: readonly (readonly [string, number])[] = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/** `1h30m`, `90s`, `7d`, `0` → milliseconds; undefined when it is not a Prometheus duration. */
export function parseDurationMs(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? Math.round(input * 1000) : undefined;
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (s === '0') return 0;
  const re = /(\d+)(ms|y|w|d|h|m|s)/gy;
  let total = 0;
  let end = 0;
  let lastRank = -1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    const rank = UNITS.findIndex(([u]) => u === m![2]);
    if (rank <= lastRank) return undefined; // a unit twice or out of order, as Prometheus refuses
    lastRank = rank;
    total += Number(m[1]) * UNITS[rank]![1];
    end = re.lastIndex;
  }
  return end === s.length && s.length > 0 ? total : undefined;
}

/** Milliseconds → the shortest Prometheus duration: 600000 → `10m`, 5400000 → `1h30m`, 0 → `0s`. */
export function formatDurationMs(ms: number): string {
  if (ms <= 0) return '0s';
  let rest = Math.round(ms);
  let out = '';
  for (const [u, n] of UNITS) {
    if (u === 'y' || u === 'w') continue;
    const k = Math.floor(rest / n);
    if (k > 0) {
      out += `${k}${u}`;
      rest -= k * n;
    }
  }
  return out;
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
