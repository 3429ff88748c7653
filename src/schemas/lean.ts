import type { z } from 'zod';
import { cb58PayloadLength, parseRfc3339 } from './primitives.js';

/**
 * Lean readers: the big answers (a mainnet platform.getCurrentValidators is 1.4 MB, info.peers 0.6 MB)
 * decoded at about the cost of their JSON.parse. A reader walks the already-parsed value, reads ONLY
 * the fields the exporter uses, validates those exactly as the zod schema of the same answer does (the
 * wire primitives of primitives.ts: same accepted values, same outputs) and builds the typed output.
 * Unknown and unused fields are never looked at, so a malformed unused field no longer fails the
 * answer. The zod schemas stay the reference: test/schemas/lean-*.test.ts hold every reader to them.
 *
 * The shape is what the node client uses of a zod schema: `safeParse(value)` giving the data or
 * issues with a path (`validators.3.weight: expected a u64 …`). Issues are collected like zod's: the
 * walk goes on after one, so every wrong used field is reported.
 */

export interface LeanIssue {
  readonly path: PropertyKey[];
  readonly message: string;
}

/**
 * What zod's safeParse gives, in the shape the node client reads. (No `data?: undefined` on the failure
 * branch as zod has: with it, `AnswerSchema<T>` would infer `T | undefined` from a zod schema.)
 */
export type LeanResult<T> = { success: true; data: T } | { success: false; error: { issues: LeanIssue[] } };

/** What the node client uses of a schema. */
export interface LeanReader<T> {
  safeParse(value: unknown): LeanResult<T>;
}


/** The state of one walk: the path of the value being read, and the issues found so far. */
export class Walk {
  readonly issues: LeanIssue[] = [];
  private readonly at: PropertyKey[] = [];
  /** RFC3339 strings already read in this walk (1,700 peers' lastReceived share a few seconds). */
  readonly times = new Map<string, number>();

  /** Records an issue at the current path, plus `key` when given. Returns undefined (read failed). */
  fail(key: PropertyKey | undefined, message: string): undefined {
    const path = this.at.slice();
    if (key !== undefined) path.push(key);
    this.issues.push({ path, message });
    return undefined;
  }

  /** Goes into a member (object key or array index). */
  in(key: PropertyKey): void {
    this.at.push(key);
  }

  out(): void {
    this.at.pop();
  }
}

/** A reader from a function that walks the whole answer. */
export function leanReader<T>(read: (w: Walk, value: unknown) => T): LeanReader<T> {
  return {
    safeParse(value: unknown): LeanResult<T> {
      const w = new Walk();
      const data = read(w, value);
      return w.issues.length === 0 ? { success: true, data } : { success: false, error: { issues: w.issues } };
    },
  };
}

/** A short description of a wrong value for an issue message (strings quoted and cut at 40 characters). */
export function got(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.slice(0, 40));
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

// ---------------------------------------------------------------------------------------------
// Field readers. Each takes the field's value and its key (for the path of an issue) and gives the
// decoded value, or undefined after recording an issue. Absent (undefined) is accepted as undefined
// (zod's .optional()) unless the reader says otherwise; null is a wrong value unless said.

/** A JSON object (not null, not an array); absent → undefined. */
export function object(w: Walk, v: unknown, key: PropertyKey): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  return w.fail(key, `expected an object, got ${got(v)}`);
}

/** A required JSON object: absent is an issue too. */
export function requiredObject(w: Walk, v: unknown, key: PropertyKey | undefined): Record<string, unknown> | undefined {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  return w.fail(key, `expected an object, got ${got(v)}`);
}

/** A reader of list items that must be objects: `read` reads an item's members, with the path inside it. */
export function objectItem<T>(read: (w: Walk, o: Record<string, unknown>) => T): (w: Walk, v: unknown, i: number) => T | undefined {
  return (w, v, i) => {
    const o = requiredObject(w, v, i);
    if (o === undefined) return undefined;
    w.in(i);
    const out = read(w, o);
    w.out();
    return out;
  };
}

/**
 * A JSON array that Go encodes as null when nil (primitives.ts nullableArray): absent or null → [].
 * `item` reads element i (its key for the path is i).
 */
export function list<T>(w: Walk, v: unknown, key: PropertyKey, item: (w: Walk, v: unknown, i: number) => T | undefined): T[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    w.fail(key, `expected an array, got ${got(v)}`);
    return [];
  }
  const out = new Array<T>(v.length);
  w.in(key);
  for (let i = 0; i < v.length; i++) out[i] = item(w, v[i], i) as T;
  w.out();
  return out;
}

/** A boolean; absent → undefined. */
export function bool(w: Walk, v: unknown, key: PropertyKey): boolean | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  return w.fail(key, `expected a boolean, got ${got(v)}`);
}

/** A string of at most `max` UTF-16 units; absent → undefined. */
export function string(w: Walk, v: unknown, key: PropertyKey, max = Infinity): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return w.fail(key, `expected a string, got ${got(v)}`);
  if (v.length > max) return w.fail(key, `expected a string of at most ${max} characters, got ${v.length}`);
  return v;
}

/** A required string (list elements). */
export function requiredString(w: Walk, v: unknown, key: PropertyKey, max = Infinity): string | undefined {
  if (v === undefined) return w.fail(key, 'expected a string, got nothing');
  return string(w, v, key, max);
}

const DECIMAL_UINT = /^[0-9]+$/;
const U64_MAX = (1n << 64n) - 1n;

/** primitives.ts U64: a decimal string up to 2^64-1, or a non-negative integer JSON number → bigint; absent → undefined. */
export function u64(w: Walk, v: unknown, key: PropertyKey): bigint | undefined {
  if (typeof v === 'string') {
    if (!DECIMAL_UINT.test(v)) return w.fail(key, `expected a u64 decimal string, got ${got(v)}`);
    const b = BigInt(v);
    return b > U64_MAX ? w.fail(key, 'unsigned integer exceeds 64 bits') : b;
  }
  if (typeof v === 'number') {
    // As U64: any non-negative integer number (a JSON number is finite).
    if (Number.isInteger(v) && v >= 0) return BigInt(v);
    return w.fail(key, `expected an unsigned integer, got ${v}`);
  }
  if (v === undefined) return undefined;
  return w.fail(key, `expected a u64 decimal string or number, got ${got(v)}`);
}

/** primitives.ts SmallInt: a decimal string or number that is a safe non-negative integer → number; absent → undefined. */
export function smallInt(w: Walk, v: unknown, key: PropertyKey): number | undefined {
  if (typeof v === 'number' || typeof v === 'string') {
    const n = typeof v === 'number' ? v : DECIMAL_UINT.test(v) ? Number(v) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= 0) return n;
    return w.fail(key, `expected a small unsigned integer, got ${got(v)}`);
  }
  if (v === undefined) return undefined;
  return w.fail(key, `expected a small unsigned integer (string or number), got ${got(v)}`);
}

/** A required SmallInt. */
export function requiredSmallInt(w: Walk, v: unknown, key: PropertyKey): number | undefined {
  if (v === undefined) return w.fail(key, 'expected a small unsigned integer, got nothing');
  return smallInt(w, v, key);
}

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/** primitives.ts Percentage: a decimal string or a finite number → number (0..100 on the wire, not checked); absent → undefined. */
export function percent(w: Walk, v: unknown, key: PropertyKey): number | undefined {
  if (typeof v === 'number' || typeof v === 'string') {
    const n = typeof v === 'number' ? v : DECIMAL.test(v) ? Number(v) : Number.NaN;
    if (Number.isFinite(n)) return n;
    return w.fail(key, `expected a decimal number, got ${got(v)}`);
  }
  if (v === undefined) return undefined;
  return w.fail(key, `expected a decimal number (string or number), got ${got(v)}`);
}

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** primitives.ts HexBytes: "0x" + hex bytes; absent → undefined. */
export function hexBytes(w: Walk, v: unknown, key: PropertyKey): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return w.fail(key, `expected a hex string, got ${got(v)}`);
  return HEX_BYTES.test(v) ? v : w.fail(key, 'expected "0x" followed by hex bytes');
}

/** primitives.ts Rfc3339Seconds: an RFC3339 string → Unix seconds; absent → undefined. */
export function rfc3339(w: Walk, v: unknown, key: PropertyKey): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return w.fail(key, `expected an RFC3339 string, got ${got(v)}`);
  const seen = w.times.get(v);
  if (seen !== undefined) return seen;
  const r = parseRfc3339(v);
  if (typeof r === 'string') return w.fail(key, r);
  w.times.set(v, r);
  return r;
}

function cb58Message(v: string, what: string, expectedLen: number, len: number): string {
  const shown = JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  return len < 0 ? `invalid ${what} ${shown}: not CB58 or bad checksum` : `invalid ${what} ${shown}: payload is ${len} bytes, expected ${expectedLen}`;
}

/** The last valid CB58 ID read: every peer's trackedSubnets starts with the primary network's ID. */
let lastId = '';

/** primitives.ts CB58Id (32-byte payload, checksum; decodes cached); absent → undefined. */
export function cb58Id(w: Walk, v: unknown, key: PropertyKey): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return w.fail(key, `expected a CB58 ID string, got ${got(v)}`);
  if (v === lastId) return v;
  const len = cb58PayloadLength(v);
  if (len !== 32) return w.fail(key, cb58Message(v, 'CB58 ID', 32, len));
  lastId = v;
  return v;
}

/** A required CB58Id. */
export function requiredCb58Id(w: Walk, v: unknown, key: PropertyKey): string | undefined {
  if (v === undefined) return w.fail(key, 'expected a CB58 ID string, got nothing');
  return cb58Id(w, v, key);
}

const ACP_DIGITS = /^\d{1,10}$/;

/** info.ts AcpNumber (required): a JSON number, or a string of 1-10 digits, that is an integer in 0..2^32-1. */
export function acpNumber(w: Walk, v: unknown, key: PropertyKey): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && ACP_DIGITS.test(v) ? Number(v) : undefined;
  if (n === undefined) return w.fail(key, `expected an ACP number, got ${got(v)}`);
  return Number.isInteger(n) && n >= 0 && n <= 4294967295 ? n : w.fail(key, `expected an ACP number (uint32), got ${got(v)}`);
}

const NODE_ID_PREFIX = 'NodeID-';

/**
 * NodeIDs already found valid. The same ~2,000 peers and validators come back in every answer (and, in a
 * fleet, from every node), and checking one is a CB58 decode with a SHA-256 checksum: the largest part of
 * reading info.peers. Bounded: emptied when full, so it never holds more than a network's worth.
 */
const VALID_NODE_IDS = new Set<string>();
const MAX_VALID_NODE_IDS = 20_000;

/** The problem with a NodeID string (primitives.ts NodeId), or undefined when it is one. */
export function nodeIdProblem(v: string): string | undefined {
  if (VALID_NODE_IDS.has(v)) return undefined;
  if (!v.startsWith(NODE_ID_PREFIX)) return `invalid NodeID ${JSON.stringify(v.slice(0, 60))}: missing "NodeID-" prefix`;
  const len = cb58PayloadLength(v.slice(NODE_ID_PREFIX.length));
  if (len !== 20) return cb58Message(v, 'NodeID', 20, len);
  if (VALID_NODE_IDS.size >= MAX_VALID_NODE_IDS) VALID_NODE_IDS.clear();
  VALID_NODE_IDS.add(v);
  return undefined;
}

/** A required NodeID: "NodeID-" + CB58 of a 20-byte payload. */
export function nodeId(w: Walk, v: unknown, key: PropertyKey): string | undefined {
  if (typeof v !== 'string') return w.fail(key, `expected a NodeID string, got ${got(v)}`);
  const problem = nodeIdProblem(v);
  return problem === undefined ? v : w.fail(key, problem);
}
