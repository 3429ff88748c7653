// Go-compatible formatting as avalanchego writes it: time.RFC3339Nano, time.Duration.String,
// json.Float64 (4 decimals), encoding/json escaping, %q, set.Set ordering.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).


const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/**
 * time.Time.Format(time.RFC3339Nano) in UTC: fraction digits with trailing zeros
 * trimmed. `ms` is a millisecond timestamp, `extraNs` adds sub-millisecond
 * nanoseconds (0..999999).
 */
export function rfc3339Nano(ms: number, extraNs = 0): string {
  const whole = Math.floor(ms);
  const d = new Date(whole);
  let base =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const ns = (whole % 1000) * 1_000_000 + Math.floor(extraNs) % 1_000_000;
  if (ns > 0) base += '.' + String(ns).padStart(9, '0').replace(/0+$/, '');
  return base + 'Z';
}

/** RFC3339 with 1-second precision (time.RFC3339). */
export function rfc3339(ms: number): string {
  return rfc3339Nano(Math.floor(ms / 1000) * 1000);
}

/** Go time.Duration.String() for a nanosecond count. */
export function goDuration(nsIn: number): string {
  let ns = Math.round(nsIn);
  if (ns === 0) return '0s';
  const neg = ns < 0;
  if (neg) ns = -ns;
  let out: string;
  if (ns < 1000) out = `${ns}ns`;
  else if (ns < 1_000_000) out = fracUnit(ns, 1000) + 'µs';
  else if (ns < 1_000_000_000) out = fracUnit(ns, 1_000_000) + 'ms';
  else {
    const totalSec = Math.floor(ns / 1e9);
    const fracNs = ns % 1e9;
    const h = Math.floor(totalSec / 3600);
    const m = Math.floor((totalSec % 3600) / 60);
    const s = totalSec % 60;
    let secStr = String(s);
    if (fracNs > 0) secStr += '.' + String(fracNs).padStart(9, '0').replace(/0+$/, '');
    out = (h > 0 ? `${h}h` : '') + (h > 0 || m > 0 ? `${m}m` : '') + secStr + 's';
  }
  return neg ? '-' + out : out;
}

function fracUnit(ns: number, unit: number): string {
  const whole = Math.floor(ns / unit);
  const frac = ns % unit;
  if (frac === 0) return String(whole);
  const digits = String(unit).length - 1;
  return whole + '.' + String(frac).padStart(digits, '0').replace(/0+$/, '');
}

/** avalanchego json.Float64/Float32: exactly 4 decimals, as a string. */
export function fixed4(x: number): string {
  return x.toFixed(4);
}

/** Go fmt %f (6 decimals). */
export function goPercentF(x: number): string {
  return x.toFixed(6);
}

/**
 * JSON encoding like Go's encoding/json: HTML-significant characters and
 * U+2028/U+2029 are escaped as \u003c etc.
 */
export function goJson(v: unknown): string {
  return escapeGoJson(JSON.stringify(v));
}

export function escapeGoJson(s: string): string {
  return s.replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Go's %q for typical strings (ASCII); close enough for error texts. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go strconv.QuoteRune-ish for decoder error messages: 'x'. */
export function goQuoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const j = JSON.stringify(c).slice(1, -1);
  return `'${j}'`;
}

/** Go's set.Set marshalling: elements sorted by their JSON bytes. */
export function sortByJson<T>(arr: T[]): T[] {
  return arr
    .map((v) => [JSON.stringify(v), v] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((x) => x[1]);
}
