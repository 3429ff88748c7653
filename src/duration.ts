/**
 * Durations, written as Prometheus writes them: one grammar and one formatter for the exporter's flags
 * and YAML, the HELP texts of /metrics, the landing page, the generated docs and monitoring.yaml, and
 * the backtest's timelines and rule windows.
 *
 * Grammar: units `y`, `w`, `d`, `h`, `m`, `s`, `ms` after whole numbers, largest first and each at most
 * once (`1h30m`, `500ms`, `7d`; Prometheus refuses `30s1m`, `1m1m` and `1.5h` too), or a plain number of
 * seconds (`15`, `0.5`). The exporter's settings take neither `y` nor `w` (no interval of ours is that
 * long, and `1w` in a flag is more likely a typo); PromQL windows and the backtest's timelines do.
 */

const UNITS = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
] as const;

/** Which durations a reader takes besides the units `d` to `ms`. */
export interface DurationGrammar {
  /** `y` and `w` too (PromQL, the backtest); default false (the exporter's settings) */
  readonly weeksAndYears?: boolean;
  /** a plain number of seconds (`15`, `0.5`); default true. `0` is always taken. */
  readonly plainSeconds?: boolean;
}

/** Each unit in its place, each at most once (the grammar of Prometheus' model.ParseDuration). */
const unitsRe = (from: number) => new RegExp(`^${UNITS.slice(from).map(([u]) => `(?:(\\d+)${u})?`).join('')}$`);
const ALL_UNITS_RE = unitsRe(0);
const DAYS_DOWN_RE = unitsRe(2);

/** `500ms`, `15s`, `1m30s`, `1h`, `7d` (`2w`, `1y` with weeksAndYears), or a number of seconds → seconds; undefined when it is none of those. */
export function parseDuration(input: unknown, grammar: DurationGrammar = {}): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return (grammar.plainSeconds ?? true) || Number(s) === 0 ? Number(s) : undefined;
  const all = grammar.weeksAndYears ?? false;
  const m = s === '' ? null : (all ? ALL_UNITS_RE : DAYS_DOWN_RE).exec(s);
  if (!m) return undefined;
  const units: readonly (readonly [string, number])[] = all ? UNITS : UNITS.slice(2);
  return units.reduce((ms, [, n], i) => ms + Number(m[i + 1] ?? 0) * n, 0) / 1000;
}

/** Seconds → a Prometheus duration: 600 → `10m`, 5400 → `1h30m`, 86400 → `1d`, 0.5 → `500ms`, 0 → `0s`. */
export function formatDuration(seconds: number): string {
  let rest = Math.round(seconds * 1000);
  if (rest <= 0) return '0s';
  let out = '';
  for (const [u, n] of UNITS.slice(2)) {
    const k = Math.floor(rest / n);
    if (k > 0) {
      out += `${k}${u}`;
      rest -= k * n;
    }
  }
  return out;
}
