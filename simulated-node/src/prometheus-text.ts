// The Prometheus text format 0.0.4 of the simulated node's GET /ext/metrics: samples, their rendering in
// families (# HELP, # TYPE) and the number spelling.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).

/** One sample. */
export interface Line {
  /** the v1.11.8+ name */
  name: string;
  labels: Record<string, string>;
  value: number;
  type: string;
  /** the family's HELP text (default: its name) */
  help?: string;
}

export function fmt(v: number): string {
  if (v === Infinity) return '+Inf';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  // Go's strconv 'g' with shortest repr, close enough: exponent for large/small values
  return Math.abs(v) >= 1e21 || (v !== 0 && Math.abs(v) < 1e-4) ? v.toExponential().replace(/e([+-])(\d)$/, 'e$10$2') : String(v);
}

/** A sample's identity: its name and its labels in key order (label values never hold NUL). */
function sampleKey(l: Line): string {
  const keys = Object.keys(l.labels);
  if (keys.length > 1) keys.sort();
  let k = l.name;
  for (const x of keys) k += `\u0000${x}\u0000${l.labels[x]}`;
  return k;
}

/**
 * Renders the samples (summing the ones a naming folds together), with # TYPE lines per family.
 * The benchmark's fleets ask for a mainnet-scale body often: the key is built by hand (JSON.stringify of
 * sorted entries was a third of a body's cost) and labels are shared, never changed.
 */
export function render(lines: readonly Line[]): string {
  const sums = new Map<string, Line>();
  for (const l of lines) {
    const key = sampleKey(l);
    const s = sums.get(key);
    if (s) s.value += l.value;
    else sums.set(key, { ...l });
  }
  // One block per family (a renaming may interleave them), in first-seen order.
  const families = new Map<string, Line[]>();
  for (const l of sums.values()) {
    const base = l.type === 'histogram' || l.type === 'summary' ? l.name.replace(/_(bucket|sum|count)$/, '') : l.name;
    const f = families.get(base);
    if (f) f.push(l);
    else families.set(base, [l]);
  }
  const parts: string[] = [];
  for (const [base, ls] of families) {
    parts.push(`# HELP ${base} ${ls[0]!.help ?? base}\n# TYPE ${base} ${ls[0]!.type}\n`);
    for (const l of ls) parts.push(line(l));
  }
  return parts.join('');
}

function line(l: Line): string {
  {
    const keys = Object.keys(l.labels).sort((a, b) => (a === 'le' || a === 'quantile' ? 1 : b === 'le' || b === 'quantile' ? -1 : a < b ? -1 : 1));
    const lab = keys.length ? `{${keys.map((k) => `${k}="${l.labels[k]}"`).join(',')}}` : '';
    return `${l.name}${lab} ${fmt(l.value)}\n`;
  }
}
