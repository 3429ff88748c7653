/**
 * "Did you mean ...?" for misspelt flags and configuration keys, and the keys a zod schema accepts
 * at a path (so that an unknown YAML key can be answered with the nearest valid one).
 */

/** Edit distance with transpositions (optimal string alignment): `ulr` → `url` is 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo: at most 2 edits (3
 * for words of 12 characters or more), ignoring case and the difference between `-`, `_` and `.`;
 * otherwise the one candidate that `word` (4 characters or more) begins (`listen` → `listenAddress`).
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_.]/g, '');
  const w = norm(word);
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = norm(c) === w ? 0 : editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const limit = word.length >= 12 ? 3 : 2;
  if (best !== undefined && bestD <= limit && bestD < word.length) return best;
  const prefixed = [...candidates].filter((c) => w.length >= 4 && norm(c).startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean X?` or '' */
export function didYouMean(word: string, candidates: Iterable<string>, format: (s: string) => string = (s) => s): string {
  const n = nearest(word, candidates);
  return n === undefined ? '' : `; did you mean ${format(n)}?`;
}

interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string } };
}

/** Looks through wrappers (default, optional, pipe/transform, ...) to the schema that holds keys. */
function unwrap(s: ZodLike): ZodLike {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const def = cur._zod.def;
    const inner = (def['innerType'] ?? (def.type === 'pipe' ? def['in'] : undefined)) as ZodLike | undefined;
    if (!inner) return cur;
    cur = inner;
  }
  return cur;
}

/** A union with an object among its options (a string or an object: `validatorNodeIds`) → that object. */
function objectOption(s: ZodLike): ZodLike {
  if (s._zod.def.type !== 'union') return s;
  const options = (s._zod.def['options'] as ZodLike[]).map(unwrap);
  return options.find((o) => o._zod.def.type === 'object') ?? s;
}

/**
 * Keys an object schema accepts at `path` of its input (array indexes step into the element,
 * record keys into the value), or undefined when the path does not lead to an object schema.
 */
export function schemaKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  let cur = unwrap(schema as ZodLike);
  for (const p of path) {
    const def = cur._zod.def;
    if (def.type === 'object') {
      const next = (def['shape'] as Record<string, ZodLike>)[String(p)];
      if (!next) return undefined;
      cur = unwrap(next);
    } else if (def.type === 'array') {
      cur = unwrap(def['element'] as ZodLike);
    } else if (def.type === 'record') {
      cur = unwrap(def['valueType'] as ZodLike);
    } else {
      return undefined;
    }
    cur = objectOption(cur);
  }
  cur = objectOption(cur);
  return cur._zod.def.type === 'object' ? Object.keys(cur._zod.def['shape'] as object) : undefined;
}
