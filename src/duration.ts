/**
 * Durations, written as Prometheus writes them: one grammar and one formatter for the exporter's flags
 * and YAML, the HELP texts of /metrics, the landing page, the generated docs and monitoring.yaml.
 *
 * Grammar: units `d`, `h`, `m`, `s`, `ms` after whole numbers, largest first and each at most once
 * (`1h30m`, `500ms`, `7d`; Prometheus refuses `30s1m`, `1m1m` and `1.5h` too), or a plain number of
 * seconds (`15`, `0.5`).
 */

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
] as const;

/** Each unit in its place, each at most once (the grammar of Prometheus' model.ParseDuration, without y and w). */
const DURATION_RE = new RegExp(`^${UNITS.map(([u]) => `(?:(\\d+)${u})?`).join('')}$`);

/** `500ms`, `15s`, `1m30s`, `1h`, `7d`, or a number of seconds → seconds; undefined when it is none of those. */
export function parseDuration(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const m = s === '' ? null : DURATION_RE.exec(s);
  if (!m) return undefined;
  return UNITS.reduce((ms, [, n], i) => ms + Number(m[i + 1] ?? 0) * n, 0) / 1000;
}

/** Seconds → a Prometheus duration: 600 → `10m`, 5400 → `1h30m`, 86400 → `1d`, 0.5 → `500ms`, 0 → `0s`. */
export function formatDuration(seconds: number): string {
  let rest = Math.round(seconds * 1000);
  if (rest <= 0) return '0s';
  let out = '';
  for (const [u, n] of UNITS) {
    const k = Math.floor(rest / n);
    if (k > 0) {
      out += `${k}${u}`;
      rest -= k * n;
    }
  }
  return out;
}
