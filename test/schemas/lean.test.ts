// The walker of the lean readers (src/schemas/lean.ts): each field reader accepts exactly what the zod
// primitive of primitives.ts accepts, with the same output, and names the path of what it rejects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AcpNumber } from '../../src/schemas/info.js';
import {
  acpNumber,
  bool,
  cb58Id,
  hexBytes,
  leanReader,
  list,
  nodeId,
  object,
  percent,
  requiredSmallInt,
  rfc3339,
  smallInt,
  string,
  u64,
  Walk,
} from '../../src/schemas/lean.js';
import { CB58Id, cb58Encode, HexBytes, NodeId, Percentage, Rfc3339Seconds, SmallInt, U64 } from '../../src/schemas/primitives.js';
import { NASTY_STRINGS, nastyValue } from '../helpers/answer-mutations.js';

type Field = (w: Walk, v: unknown, key: PropertyKey) => unknown;

/** A field reader as a one-field answer `{x: v}` (absent when v is undefined). */
function field(read: Field) {
  return leanReader((w, v) => read(w, (v as { x?: unknown }).x, 'x'));
}

const ID = cb58Encode(new Uint8Array(32).fill(7));
const NODE = `NodeID-${cb58Encode(new Uint8Array(20).fill(9))}`;

/** Values near each primitive's edges, beside the nasty ones. */
const EDGES: unknown[] = [
  undefined, null, true, false, 0, -0, 1, -1, 1.5, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1e308, Number.MAX_SAFE_INTEGER,
  '0', '00', '18446744073709551615', '18446744073709551616', '9007199254740991', '9007199254740992', '1e3', '99.9103', '-1.5', '1e999', '.5', '5.',
  '0x', '0x0', '0x00', '0xAbCd', '0x1g', '2026-05-14T09:21:31Z', '2026-05-14T09:21:31.123456789+02:00', '2026-02-30T00:00:00Z', '0001-01-01T00:00:00Z',
  '4294967295', '4294967296', '0000000001', '00000000001', 4294967295, 4294967296,
  ID, ID.slice(1), NODE, NODE.slice(7), `${NODE}x`, 'NodeID-', 'x'.repeat(200), [], {}, ['a'], { a: 1 },
];

const PAIRS: [string, z.ZodType, Field][] = [
  ['U64', U64.optional(), u64],
  ['SmallInt', SmallInt.optional(), smallInt],
  ['Percentage', Percentage.optional(), percent],
  ['HexBytes', HexBytes.optional(), hexBytes],
  ['Rfc3339Seconds', Rfc3339Seconds.optional(), rfc3339],
  ['CB58Id', CB58Id.optional(), cb58Id],
  ['NodeId (required)', NodeId, nodeId],
  ['AcpNumber (required)', AcpNumber, acpNumber],
  ['boolean', z.boolean().optional(), bool],
  ['string max 128', z.string().max(128).optional(), (w, v, k) => string(w, v, k, 128)],
];

describe('lean field readers against the zod primitives', () => {
  it.each(PAIRS)('%s: same verdict and value on edge and nasty values', (_name, zod, read) => {
    const reader = field(read);
    const check = (v: unknown) => {
      const a = zod.safeParse(v);
      const b = reader.safeParse(v === undefined ? {} : { x: v });
      expect(b.success, `${JSON.stringify(v)?.slice(0, 60)}: zod ${a.success}`).toBe(a.success);
      if (a.success && b.success) expect(Object.is(b.data, a.data) || b.data === a.data, `${JSON.stringify(v)?.slice(0, 60)}`).toBe(true);
      if (!b.success) expect(b.error.issues[0]!.path).toEqual(['x']);
    };
    for (const v of [...EDGES, ...NASTY_STRINGS]) check(v);
    fc.assert(fc.property(fc.oneof(nastyValue, fc.string(), fc.stringMatching(/^[0-9]{1,22}$/), fc.double()), check), { numRuns: 300 });
  });

  it('default: an issue names the path of the field (zod style) and says what was expected', () => {
    const r = leanReader((w, v) => {
      const o = object(w, v, 'root');
      w.in('a');
      const n = list(w, o?.['a'], 'b', (w2, x, i) => u64(w2, x, i));
      w.out();
      return n;
    }).safeParse({ a: ['1', 'abc', null] });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'a.b.1: expected a u64 decimal string, got "abc"',
      'a.b.2: expected a u64 decimal string or number, got null',
    ]);
  });

  it('behavior: a required field that is absent is an issue; an optional one is undefined', () => {
    expect(field(requiredSmallInt).safeParse({})).toMatchObject({ success: false, error: { issues: [{ path: ['x'], message: 'expected a small unsigned integer, got nothing' }] } });
    expect(field(smallInt).safeParse({})).toEqual({ success: true, data: undefined });
    expect(field(nodeId).safeParse({}).success).toBe(false);
  });

  it('behavior: an array field that is null or absent is [] (Go encodes nil slices as null)', () => {
    const r = field((w, v, k) => list(w, v, k, (w2, x, i) => string(w2, x, i)));
    expect(r.safeParse({})).toEqual({ success: true, data: [] });
    expect(r.safeParse({ x: null })).toEqual({ success: true, data: [] });
    expect(r.safeParse({ x: {} }).success).toBe(false);
  });
});
