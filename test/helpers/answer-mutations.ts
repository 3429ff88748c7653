/**
 * Property-test material: strings and numbers that break naive code, mutations of the fixtures as a
 * node might send them, and a render round trip through the exposition.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { Exposition, TargetSegment } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/model.js';
import { wellFormedUnique } from '../../src/metrics/target-samples.js';
import { fixtureNames, result as fixtureResult } from '../fixtures/load.js';
import { parseExposition, seriesKey } from './exposition-parser.js';
import { TARGET } from './fault-matrix.js';

/**
 * Strings that break naive code: escaping (quotes, backslashes, newlines, an injected sample),
 * non-ASCII and lone surrogates (JSON can carry "\ud800"), NaN-like and huge numerals, bad times.
 */
export const NASTY_STRINGS: readonly string[] = [
  '', ' ', '"', '\\', '\n', '\r\n', '\\n', '\\"', 'a"b\\c\nd', '"}\nfake_metric{a="b"} 1\n# TYPE x gauge', '} 1\n',
  'ünïcödé', '日本語', '😀', 'e\u0301', '\u202e', '\ud800', '\udfff', '\u0000', '\u2028', '\t', '\u00a0',
  'NaN', '-NaN', 'Infinity', '-Infinity', '+Inf', '1e309', '-1e309', '-0', '0x', '0x1g', '-1', '1.5', ' 42', '42 ',
  '18446744073709551616', '99999999999999999999999', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999+23:59',
  '2026-02-30T00:00:00Z', 'null', 'true', '__proto__', 'constructor',
];

const LONG = 'x'.repeat(70_000);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('"', '\\', '\n', 'n', 'é', '😀', '{', '}', ',', '=', ' ', 'a', '#'), maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constant(LONG) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, -1.5, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, -(2 ** 63)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

const DROP = Symbol('drop');

/** How often (weight against 100) each kind of mutation happens at each node of an answer. */
export interface MutationRates {
  /** A leaf replaced by a nasty value or retyped; an object or array replaced by a leaf. */
  readonly leaf: number;
  /** An object field dropped or renamed (health check names, VM names), an unknown field added. */
  readonly field: number;
  /** An array losing elements or having them twice (the same peer twice). */
  readonly array: number;
}

/**
 * A mutation of a JSON value. Separate rates give answers that are still valid but odd in one
 * way (only duplicated elements, only renamed keys, only nasty strings), as well as broken ones.
 */
export function mutated(v: unknown, r: MutationRates, depth = 0): fc.Arbitrary<unknown> {
  const keep = fc.constant(v);
  if (depth > 8 || (r.leaf === 0 && r.field === 0 && r.array === 0)) return keep;
  const w = (weight: number, arbitrary: fc.Arbitrary<unknown>) => ({ weight, arbitrary });
  if (Array.isArray(v)) {
    const elems = fc.tuple(...v.map((x) => mutated(x, r, depth + 1)));
    return fc.oneof(
      w(100, elems),
      w(r.array, elems.chain((a) => fc.subarray(a))),
      w(r.array, elems.map((a) => [...a, ...a])),
      w(r.leaf, nastyValue),
      w(r.leaf, fc.constant(null)),
    );
  }
  if (v !== null && typeof v === 'object') {
    const fields = Object.entries(v).map(
      ([k, x]) =>
        fc.tuple(fc.oneof(w(100, fc.constant(k)), w(r.field, nastyString)), fc.oneof(w(100, mutated(x, r, depth + 1)), w(r.field, fc.constant(DROP)))) as fc.Arbitrary<
          [string, unknown]
        >,
    );
    const extra = fc.oneof(w(100, fc.constant(undefined)), w(r.field, fc.tuple(nastyString, nastyValue))) as fc.Arbitrary<[string, unknown] | undefined>;
    const obj = fc.tuple(fc.tuple(...fields), extra).map(([fs, x]) => {
      const out: Record<string, unknown> = {};
      for (const [k, val] of [...fs, ...(x ? [x] : [])]) if (val !== DROP) Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
      return out;
    });
    return fc.oneof(w(100, obj), w(r.leaf, nastyValue), w(r.leaf, fc.constant(null)));
  }
  if (typeof v === 'string') {
    return fc.oneof(w(100, keep), w(3 * r.leaf, nastyString), w(r.leaf, nastyString.map((n) => v + n)), w(r.leaf, nastyNumber), w(r.leaf, nastyValue));
  }
  if (typeof v === 'number') {
    return fc.oneof(w(100, keep), w(2 * r.leaf, nastyNumber), w(r.leaf, fc.constant(String(v))), w(r.leaf, nastyString), w(r.leaf, nastyValue));
  }
  return fc.oneof(w(100, keep), w(r.leaf, nastyValue), w(r.leaf, fc.constant(String(v))));
}

const RATES: readonly MutationRates[] = [
  { leaf: 0, field: 0, array: 0 },
  { leaf: 2, field: 0, array: 0 },
  { leaf: 8, field: 0, array: 0 },
  { leaf: 25, field: 0, array: 0 },
  { leaf: 0, field: 10, array: 0 },
  { leaf: 0, field: 0, array: 100 },
  { leaf: 3, field: 3, array: 10 },
  { leaf: 20, field: 20, array: 20 },
];

/** What a node may send back: mutations of every fixture of `method`, through JSON (as on the wire). */
export function mutatedAnswer(method: string): fc.Arbitrary<unknown> {
  const cases = fixtureNames(method);
  return fc
    .tuple(fc.constantFrom(...cases), fc.constantFrom(...RATES))
    .chain(([c, rates]) => mutated(fixtureResult(method, c), rates))
    .map((x) => (x === undefined ? null : JSON.parse(JSON.stringify(x))));
}

/** A label value as it comes out of the exposition bytes (UTF-8: lone surrogates become U+FFFD). */
export function wireString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/**
 * Renders samples like the runner does (`target` label added, label values made well-formed,
 * repeated series dropped), assembles the exposition, takes it through UTF-8 bytes, parses it,
 * and checks that every series comes back with its labels and value. Returns the text.
 */
export function renderRoundTrip(samples: readonly Sample[], target = TARGET): string {
  const withTarget = wellFormedUnique(samples, target);
  const seg = new TargetSegment(withTarget);
  expect(seg.unknown).toEqual([]);
  const e = new Exposition();
  e.setTarget(target, seg);
  const text = wireString(e.assemble().text);
  const parsed = parseExposition(text);
  expect(parsed.samples.length).toBe(withTarget.length);
  const byKey = new Map(parsed.samples.map((s) => [seriesKey(s.name, s.labels), s.value]));
  for (const s of withTarget) {
    const got = byKey.get(seriesKey(s.name, s.labels));
    expect(got, `${s.name} ${JSON.stringify(s.labels).slice(0, 200)} round-trips`).toBeDefined();
    if (Number.isNaN(s.value)) expect(got).toBeNaN();
    else expect(got).toBe(s.value === 0 ? 0 : s.value);
  }
  // Every input series is there, its label values as UTF-8 carries them.
  for (const s of samples) {
    const labels = Object.fromEntries(Object.entries({ target, ...s.labels }).map(([k, v]) => [k, wireString(v)]));
    expect(byKey.has(seriesKey(s.name, labels)), `${s.name} ${JSON.stringify(labels).slice(0, 200)} is exported`).toBe(true);
  }
  return text;
}
