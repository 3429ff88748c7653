/**
 * A streaming reader of the Prometheus text exposition format (version 0.0.4, what avalanchego's
 * `GET /ext/metrics` serves through client_golang's promhttp), keeping only the families a caller asks for.
 *
 * Why our own: prom-client writes the format but does not read it, and the one parser on npm that would
 * fit builds every family of the body into objects. A mainnet node's /ext/metrics is several MB with
 * tens of thousands of lines, of which the exporter keeps a few hundred: this reader looks at a line's
 * metric name first and skips the line unless `wanted(name)` says yes, so only kept lines have their
 * labels parsed, and the body never needs to be held whole (chunks are fed as they arrive).
 *
 * Lenient by design: a line it cannot read is skipped and counted, never thrown. Comments (`# HELP`,
 * `# TYPE`) are skipped: the caller knows the types of what it keeps.
 */

export type TextLabels = Readonly<Record<string, string>>;

/** Receives each kept sample. */
export type SampleSink = (name: string, labels: TextLabels, value: number) => void;

/** Longest line looked at (a longer one is skipped whole: no real metric line is this long). */
export const MAX_LINE_CHARS = 64 * 1024;

export interface ReadStats {
  /** Lines seen (comments and blank lines included). */
  lines: number;
  /** Lines that look like a sample (a metric name followed by `{` or a blank), kept or not. */
  samples: number;
  /** Sample lines handed to the sink. */
  kept: number;
  /** Lines of a wanted family that could not be read (bad labels, bad value, too long). */
  malformed: number;
}

export class PrometheusTextReader {
  private rest = '';
  /** The current line is longer than MAX_LINE_CHARS: drop until its end. */
  private skipping = false;
  readonly stats: ReadStats = { lines: 0, samples: 0, kept: 0, malformed: 0 };

  constructor(
    private readonly wanted: (name: string) => boolean,
    private readonly sink: SampleSink,
  ) {}

  /** Feeds the next piece of the body (any split, lines may span pieces). */
  push(chunk: string): void {
    let start = 0;
    let text = chunk;
    if (this.rest !== '') {
      text = this.rest + chunk;
      this.rest = '';
    }
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      if (this.skipping) this.skipping = false;
      else this.line(text, start, nl);
      start = nl + 1;
    }
    if (start < text.length) {
      if (this.skipping) return;
      if (text.length - start > MAX_LINE_CHARS) {
        this.skipping = true;
        this.stats.lines++;
        this.stats.malformed++;
        return;
      }
      this.rest = text.slice(start);
    }
  }

  /** The body ended: reads a last line without a newline. */
  end(): ReadStats {
    if (this.rest !== '' && !this.skipping) this.line(this.rest, 0, this.rest.length);
    this.rest = '';
    this.skipping = false;
    return this.stats;
  }

  private line(text: string, from: number, to: number): void {
    this.stats.lines++;
    let i = from;
    while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    if (i >= to || text.charCodeAt(i) === 35 /* # */) return;
    let j = i;
    while (j < to && isNameChar(text.charCodeAt(j))) j++;
    if (j === i) return;
    const after = j < to ? text.charCodeAt(j) : -1;
    if (after !== 123 && after !== 32 && after !== 9) return;
    this.stats.samples++;
    const name = text.slice(i, j);
    if (!this.wanted(name)) return;
    if (to - from > MAX_LINE_CHARS) {
      this.stats.malformed++;
      return;
    }
    const parsed = parseRest(text, j, to);
    if (parsed === undefined) {
      this.stats.malformed++;
      return;
    }
    this.stats.kept++;
    this.sink(name, parsed.labels, parsed.value);
  }
}

/** Reads a whole body at once (tests, bench). */
export function readPrometheusText(text: string, wanted: (name: string) => boolean, sink: SampleSink): ReadStats {
  const r = new PrometheusTextReader(wanted, sink);
  r.push(text);
  return r.end();
}

function isNameChar(c: number): boolean {
  // [a-zA-Z0-9_:]
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 58) || c === 95;
}

/** `{k="v",...} value [timestamp]` after the name; undefined when not well formed. */
function parseRest(text: string, at: number, to: number): { labels: TextLabels; value: number } | undefined {
  let i = at;
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  if (text.charCodeAt(i) === 123 /* { */) {
    i++;
    for (;;) {
      while (i < to && text.charCodeAt(i) === 32) i++;
      if (i >= to) return undefined;
      if (text.charCodeAt(i) === 125 /* } */) {
        i++;
        break;
      }
      const k0 = i;
      while (i < to && isNameChar(text.charCodeAt(i)) && text.charCodeAt(i) !== 58) i++;
      if (i === k0) return undefined;
      const key = text.slice(k0, i);
      while (i < to && text.charCodeAt(i) === 32) i++;
      if (text.charCodeAt(i) !== 61 /* = */) return undefined;
      i++;
      while (i < to && text.charCodeAt(i) === 32) i++;
      if (text.charCodeAt(i) !== 34 /* " */) return undefined;
      i++;
      let value = '';
      let seg = i;
      for (;;) {
        if (i >= to) return undefined;
        const c = text.charCodeAt(i);
        if (c === 34) break;
        if (c === 92 /* \ */) {
          if (i + 1 >= to) return undefined;
          value += text.slice(seg, i);
          const e = text.charCodeAt(i + 1);
          value += e === 110 /* n */ ? '\n' : e === 92 ? '\\' : e === 34 ? '"' : '\\' + text[i + 1];
          i += 2;
          seg = i;
          continue;
        }
        i++;
      }
      value += text.slice(seg, i);
      i++;
      if (key in labels) return undefined;
      labels[key] = value;
      while (i < to && text.charCodeAt(i) === 32) i++;
      if (text.charCodeAt(i) === 44 /* , */) i++;
      else if (text.charCodeAt(i) !== 125) return undefined;
    }
  }
  if (i >= to || (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9)) return undefined;
  while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  let e = i;
  while (e < to && text.charCodeAt(e) !== 32 && text.charCodeAt(e) !== 9 && text.charCodeAt(e) !== 13) e++;
  const value = parseValue(text.slice(i, e));
  if (value === undefined) return undefined;
  // An optional timestamp (integer ms) may follow; anything else is not the format.
  while (e < to && (text.charCodeAt(e) === 32 || text.charCodeAt(e) === 9 || text.charCodeAt(e) === 13)) e++;
  if (e < to) {
    let t = e;
    if (text.charCodeAt(t) === 45) t++;
    const d0 = t;
    while (t < to && text.charCodeAt(t) >= 48 && text.charCodeAt(t) <= 57) t++;
    while (t < to && (text.charCodeAt(t) === 32 || text.charCodeAt(t) === 13)) t++;
    if (t === d0 || t < to) return undefined;
  }
  return { labels, value };
}

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A Go-formatted float: decimal, exponent, +Inf, -Inf, NaN. */
export function parseValue(s: string): number | undefined {
  if (s === '+Inf' || s === 'Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (s === 'NaN') return NaN;
  if (!FLOAT.test(s)) return undefined;
  return Number(s);
}
