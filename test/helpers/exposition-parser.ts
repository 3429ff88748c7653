/**
 * A strict parser of the Prometheus text format 0.0.4: the subset a scraper relies on (names,
 * escaping, TYPE/HELP placement, grouping, duplicates, histogram consistency). Used wherever a test
 * reads /metrics.
 */

export interface ParsedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly line: number;
}

export interface ParsedFamily {
  readonly name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  readonly samples: ParsedSample[];
}

export interface ParsedExposition {
  readonly families: Map<string, ParsedFamily>;
  readonly samples: ParsedSample[];
}

export class ExpositionError extends Error {
  override name = 'ExpositionError';
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const VALUE = /^(?:NaN|[+-]Inf|[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(s: string, where: string): number {
  if (!VALUE.test(s)) throw new ExpositionError(`${where}: invalid value ${JSON.stringify(s)}`);
  if (s === 'NaN') return Number.NaN;
  if (s === '+Inf') return Number.POSITIVE_INFINITY;
  if (s === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(s);
}

/** Canonical key of a series: name plus labels sorted by name. */
export function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  return `${name}${JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]))}`;
}

function parseSampleLine(line: string, where: string): { name: string; labels: Record<string, string>; value: number } {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new ExpositionError(`${where}: invalid metric name ${JSON.stringify(name)}`);
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    for (;;) {
      if (line[i] === '}') {
        i++;
        break;
      }
      const eq = line.indexOf('=', i);
      if (eq < 0) throw new ExpositionError(`${where}: label without "="`);
      const ln = line.slice(i, eq);
      if (!LABEL_NAME.test(ln)) throw new ExpositionError(`${where}: invalid label name ${JSON.stringify(ln)}`);
      if (ln in labels) throw new ExpositionError(`${where}: duplicate label ${ln}`);
      i = eq + 1;
      if (line[i] !== '"') throw new ExpositionError(`${where}: label value of ${ln} is not quoted`);
      i++;
      let v = '';
      for (;;) {
        if (i >= line.length) throw new ExpositionError(`${where}: unterminated label value of ${ln}`);
        const c = line[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\') {
          const n = line[i + 1];
          if (n === '\\') v += '\\';
          else if (n === '"') v += '"';
          else if (n === 'n') v += '\n';
          else throw new ExpositionError(`${where}: invalid escape \\${n ?? ''} in label ${ln}`);
          i += 2;
          continue;
        }
        v += c;
        i++;
      }
      labels[ln] = v;
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new ExpositionError(`${where}: expected "," or "}" after label ${ln}`);
    }
  }
  if (line[i] !== ' ') throw new ExpositionError(`${where}: expected one space before the value`);
  const rest = line.slice(i + 1).split(' ');
  if (rest.length > 2 || rest[0] === '') throw new ExpositionError(`${where}: expected "value [timestamp]", got ${JSON.stringify(line.slice(i + 1))}`);
  const value = parseValue(rest[0]!, where);
  if (rest.length === 2 && !/^-?\d+$/.test(rest[1]!)) throw new ExpositionError(`${where}: invalid timestamp ${JSON.stringify(rest[1])}`);
  return { name, labels, value };
}

/** The family a sample name belongs to, given the TYPEs declared so far. */
export function familyName(sampleName: string, declared: Map<string, ParsedFamily>): string {
  if (declared.has(sampleName)) return sampleName;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const base = sampleName.slice(0, -suffix.length);
    const f = declared.get(base);
    if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return base;
  }
  return sampleName;
}

/**
 * Parses a text exposition strictly. Throws ExpositionError on: bad names, unquoted or badly
 * escaped label values, duplicate labels, raw newlines in values (a line that does not parse),
 * TYPE after samples or twice, HELP twice, a family split in two, duplicate series, histograms
 * whose buckets decrease or whose +Inf bucket differs from _count, summaries without quantile.
 */
export function parseExposition(text: string): ParsedExposition {
  const families = new Map<string, ParsedFamily>();
  const samples: ParsedSample[] = [];
  if (text === '') return { families, samples };
  if (!text.endsWith('\n')) throw new ExpositionError('exposition does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  const seen = new Set<string>();
  const closed = new Set<string>();
  let current: string | undefined;
  const enter = (fam: string, where: string) => {
    if (current === fam) return;
    if (closed.has(fam)) throw new ExpositionError(`${where}: family ${fam} appears in two separate groups`);
    if (current !== undefined) closed.add(current);
    current = fam;
  };
  lines.forEach((line, idx) => {
    const where = `line ${idx + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!m) return; // a plain comment
      const [, kw, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) throw new ExpositionError(`${where}: invalid metric name in ${kw}`);
      enter(name!, where);
      let f = families.get(name!);
      if (!f) families.set(name!, (f = { name: name!, type: 'untyped', samples: [] }));
      if (kw === 'TYPE') {
        if (!TYPES.has(rest)) throw new ExpositionError(`${where}: unknown type ${JSON.stringify(rest)}`);
        if ((f as { typed?: boolean }).typed) throw new ExpositionError(`${where}: second TYPE for ${name}`);
        if (f.samples.length > 0) throw new ExpositionError(`${where}: TYPE for ${name} after its samples`);
        f.type = rest as ParsedFamily['type'];
        (f as { typed?: boolean }).typed = true;
      } else {
        if (f.help !== undefined) throw new ExpositionError(`${where}: second HELP for ${name}`);
        if (/\\(?![\\n])/.test(rest.replace(/\\\\/g, ''))) throw new ExpositionError(`${where}: invalid escape in HELP`);
        f.help = rest.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
      }
      return;
    }
    const s = parseSampleLine(line, where);
    const famName = familyName(s.name, families);
    enter(famName, where);
    let f = families.get(famName);
    if (!f) families.set(famName, (f = { name: famName, type: 'untyped', samples: [] }));
    const key = seriesKey(s.name, s.labels);
    if (seen.has(key)) throw new ExpositionError(`${where}: duplicate series ${line}`);
    seen.add(key);
    if (f.type === 'histogram' && s.name === `${famName}_bucket` && s.labels['le'] === undefined) throw new ExpositionError(`${where}: bucket without le`);
    if (f.type === 'histogram' && s.name === famName) throw new ExpositionError(`${where}: histogram sample without _bucket/_sum/_count`);
    if (f.type === 'summary' && s.name === famName && s.labels['quantile'] === undefined) throw new ExpositionError(`${where}: summary sample without quantile`);
    const parsed: ParsedSample = { ...s, line: idx + 1 };
    f.samples.push(parsed);
    samples.push(parsed);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return { families, samples };
}

function checkHistogram(f: ParsedFamily): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number }>();
  const groupOf = (labels: Readonly<Record<string, string>>) => {
    const { le: _le, ...rest } = labels;
    const k = seriesKey('', rest);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { buckets: [] }));
    return g;
  };
  for (const s of f.samples) {
    if (s.name === `${f.name}_bucket`) groupOf(s.labels).buckets.push([parseValue(s.labels['le']!, `le of ${f.name}`), s.value]);
    else if (s.name === `${f.name}_count`) groupOf(s.labels).count = s.value;
  }
  for (const [k, g] of groups) {
    const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new ExpositionError(`histogram ${f.name}${k}: buckets decrease`);
    }
    const inf = sorted.at(-1);
    if (!inf || inf[0] !== Number.POSITIVE_INFINITY) throw new ExpositionError(`histogram ${f.name}${k}: no +Inf bucket`);
    if (g.count !== undefined && g.count !== inf[1]) throw new ExpositionError(`histogram ${f.name}${k}: +Inf bucket ${inf[1]} != _count ${g.count}`);
  }
}

/** The samples of `name` whose labels include `labels`. */
export function find(p: ParsedExposition, name: string, labels: Record<string, string> = {}): ParsedSample[] {
  return p.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The single value of `name` with `labels`, or undefined. Throws when several series match. */
export function value(p: ParsedExposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const m = find(p, name, labels);
  if (m.length > 1) throw new Error(`${m.length} series of ${name} match ${JSON.stringify(labels)}`);
  return m[0]?.value;
}
