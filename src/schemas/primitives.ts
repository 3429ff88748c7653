import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { z } from 'zod';

/**
 * Wire primitives of avalanchego answers (docs/avalanchego-wire.md §2). Built from what real nodes send,
 * tolerant of the spec's variants (spec says "decimal strings, sometimes numbers": accept both).
 */

// ---------------------------------------------------------------------------------------------
// 64-bit unsigned integers: json.Uint64 is a base-10 string; some fields are plain numbers.

const DECIMAL_UINT = /^[0-9]+$/;
const U64_MAX = (1n << 64n) - 1n;

/** u64 as a decimal string or a JSON number → bigint (nAVAX amounts can exceed 2^53). */
export const U64 = z.union([z.string(), z.number()]).transform((v, ctx): bigint => {
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0) return BigInt(v);
    ctx.addIssue({ code: 'custom', message: `expected an unsigned integer, got ${v}` });
    return z.NEVER;
  }
  if (!DECIMAL_UINT.test(v)) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal unsigned integer string, got ${JSON.stringify(v.slice(0, 40))}` });
    return z.NEVER;
  }
  const b = BigInt(v);
  if (b > U64_MAX) {
    ctx.addIssue({ code: 'custom', message: 'unsigned integer exceeds 64 bits' });
    return z.NEVER;
  }
  return b;
});

/** Small integers (counts, network ID, observedUptime): decimal string or number → number. */
export const SmallInt = z.union([z.string(), z.number()]).transform((v, ctx): number => {
  const n = typeof v === 'number' ? v : DECIMAL_UINT.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: `expected a small unsigned integer, got ${JSON.stringify(typeof v === 'string' ? v.slice(0, 40) : v)}` });
    return z.NEVER;
  }
  return n;
});

/** Converts a u64 to a JS number at the edge (exact below 2^53, nearest double above). */
export function u64ToNumber(v: bigint): number {
  return Number(v);
}

const NANO = 1_000_000_000n;

/**
 * nAVAX → AVAX without precision surprises: integer and fractional parts are converted
 * separately, so values beyond 2^53 nAVAX keep their full AVAX precision as far as a double can.
 */
export function navaxToAvax(v: bigint): number {
  const whole = v / NANO;
  const frac = v % NANO;
  return Number(whole) + Number(frac) / 1e9;
}

/**
 * Percent (0-100, node strings carry at most 4 decimals) to a ratio without float noise:
 * 99.9103 / 100 is 0.9991030000000001 in binary floating point; this gives 0.999103.
 */
export function percentToRatio(percent: number): number {
  return Math.round(percent * 1e6) / 1e8;
}

// ---------------------------------------------------------------------------------------------
// Percentages: json.Float64/Float32 are strings with exactly 4 decimals ("99.9103"); accept any
// decimal string or a number. Output stays a percentage (0..100); collectors divide by 100.

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

export const Percentage = z.union([z.string(), z.number()]).transform((v, ctx): number => {
  const n = typeof v === 'number' ? v : DECIMAL.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal number, got ${JSON.stringify(typeof v === 'string' ? v.slice(0, 40) : v)}` });
    return z.NEVER;
  }
  return n;
});

/** A plain float (health `duration` is an int of ns; also accept a decimal string). */
export const Float = Percentage;

// ---------------------------------------------------------------------------------------------
// CB58: base58(payload ‖ last 4 bytes of sha256(payload)). IDs have a 32-byte payload; NodeIDs
// are "NodeID-" + CB58 of a 20-byte payload. A mainnet getCurrentValidators has ~1,500 entries,
// and the same IDs come back every cycle: decodes are cached per string (bounded).

const CB58_CACHE_MAX = 50_000;
const cb58Cache = new Map<string, number>(); // string → payload length, or -1 when invalid

/**
 * Longest string decoded. IDs and NodeIDs are at most 50 characters (36 bytes in base58); base58
 * decoding is quadratic, so a megabyte-long "ID" in an answer would block the event loop for
 * minutes, and would sit in the cache as a key. Longer strings are invalid without decoding.
 */
export const CB58_MAX_CHARS = 128;

/** Payload length of a valid CB58 string, or -1 (bad alphabet, too short or too long, bad checksum). */
export function cb58PayloadLength(s: string): number {
  if (s.length > CB58_MAX_CHARS) return -1;
  const hit = cb58Cache.get(s);
  if (hit !== undefined) return hit;
  let len = -1;
  const bytes = bs58.decodeUnsafe(s);
  if (bytes && bytes.length > 4) {
    const payload = bytes.subarray(0, bytes.length - 4);
    const digest = createHash('sha256').update(payload).digest();
    const sum = bytes.subarray(bytes.length - 4);
    if (digest[28] === sum[0] && digest[29] === sum[1] && digest[30] === sum[2] && digest[31] === sum[3]) len = payload.length;
  }
  if (cb58Cache.size >= CB58_CACHE_MAX) cb58Cache.clear();
  cb58Cache.set(s, len);
  return len;
}

/** The payload of a valid CB58 string of `length` bytes (checksum verified), or undefined. */
export function cb58Decode(s: string, length: number): Uint8Array | undefined {
  if (cb58PayloadLength(s) !== length) return undefined;
  return (bs58.decodeUnsafe(s) as Uint8Array).subarray(0, length);
}

/** Encodes a payload as CB58 (IDs the exporter computes, tests and fixtures). */
export function cb58Encode(payload: Uint8Array): string {
  const sum = createHash('sha256').update(payload).digest().subarray(28);
  const all = new Uint8Array(payload.length + 4);
  all.set(payload, 0);
  all.set(sum, payload.length);
  return bs58.encode(all);
}

function cb58Issue(v: string, what: string, expectedLen: number, got: number): string {
  const shown = JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  return got < 0
    ? `invalid ${what} ${shown}: not CB58 or bad checksum`
    : `invalid ${what} ${shown}: payload is ${got} bytes, expected ${expectedLen}`;
}

/** CB58 ID (tx, block, chain, subnet, validation ID): 32-byte payload with checksum. */
export const CB58Id = z.string().check((ctx) => {
  const got = cb58PayloadLength(ctx.value);
  if (got !== 32) ctx.issues.push({ code: 'custom', input: ctx.value, message: cb58Issue(ctx.value, 'CB58 ID', 32, got) });
});

const NODE_ID_PREFIX = 'NodeID-';

/** `NodeID-` + CB58 of a 20-byte payload with checksum. */
export const NodeId = z.string().check((ctx) => {
  const v = ctx.value;
  if (!v.startsWith(NODE_ID_PREFIX)) {
    ctx.issues.push({ code: 'custom', input: v, message: `invalid NodeID ${JSON.stringify(v.slice(0, 60))}: missing "NodeID-" prefix` });
    return;
  }
  const got = cb58PayloadLength(v.slice(NODE_ID_PREFIX.length));
  if (got !== 20) ctx.issues.push({ code: 'custom', input: v, message: cb58Issue(v, 'NodeID', 20, got) });
});

// ---------------------------------------------------------------------------------------------
// RFC3339 (Go RFC3339Nano in the node's local time zone): any offset, 0–9 fraction digits,
// trailing zeros trimmed. Date.parse is not used: it is lossy past 3 fraction digits and maps
// years 0–99 to 19xx.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Parses RFC3339 to Unix seconds (float), or returns an error message. */
export function parseRfc3339(s: string): number | string {
  const m = RFC3339.exec(s);
  if (!m) return `invalid RFC3339 timestamp ${JSON.stringify(s.slice(0, 60))}`;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12) return `invalid RFC3339 timestamp ${JSON.stringify(s)}: month out of range`;
  const dim = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > dim) return `invalid RFC3339 timestamp ${JSON.stringify(s)}: day out of range`;
  if (hour > 23 || minute > 59 || second > 59) return `invalid RFC3339 timestamp ${JSON.stringify(s)}: time out of range`;
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return `invalid RFC3339 timestamp ${JSON.stringify(s)}: offset out of range`;
    offset = (oh * 3600 + om * 60) * (m[9] === '-' ? -1 : 1);
  }
  const whole = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  const frac = m[7] === undefined ? 0 : Number(m[7]) / 10 ** m[7].length;
  return whole + frac;
}

/** Go's zero time.Time `0001-01-01T00:00:00Z` in Unix seconds ("not yet run" health checks). */
export const GO_ZERO_TIME_SECONDS = -62135596800;
/** 0002-01-01T00:00:00Z: anything before it is "year 1", i.e. Go's zero time in some zone. */
const YEAR_2_SECONDS = -62104060800;

/** True for Go's zero time (year 1, whatever the offset). */
export function isGoZeroTime(seconds: number): boolean {
  return seconds < YEAR_2_SECONDS;
}

/** Unscheduled upgrades are set to 9999-12-01T00:00:00Z (docs/avalanchego-wire.md §4 info.upgrades). */
export const UNSCHEDULED_SECONDS = 253399622400;

/** RFC3339 string → Unix seconds (float). */
export const Rfc3339Seconds = z.string().transform((v, ctx): number => {
  const r = parseRfc3339(v);
  if (typeof r === 'string') {
    ctx.addIssue({ code: 'custom', message: r });
    return z.NEVER;
  }
  return r;
});

// ---------------------------------------------------------------------------------------------
// Hex.

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;

/** "0x" + an even number of hex digits (BLS keys, proofs of possession; no checksum). */
export const HexBytes = z.string().regex(HEX_BYTES, { message: 'expected "0x" followed by hex bytes' });

/** Ethereum hex quantity ("0x1b4") → bigint. Leading zeros and upper case are tolerated. */
export const HexQuantity = z.string().transform((v, ctx): bigint => {
  if (!HEX_QUANTITY.test(v)) {
    ctx.addIssue({ code: 'custom', message: `expected a hex quantity "0x…", got ${JSON.stringify(v.slice(0, 40))}` });
    return z.NEVER;
  }
  return BigInt(v);
});

/** JSON arrays that Go may encode as null when nil: null → []. */
export function nullableArray<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);
}

/**
 * An object with one member the node may spell two ways (`name`, or `alias`: a deprecated duplicate or
 * the spec's other name): either is accepted, `name` first; neither is an issue at `name`. The output
 * has `name` only.
 */
export function memberOrAlias<const K extends string, const A extends string, T extends z.ZodType>(name: K, alias: A, member: T) {
  const shape = { [name]: member.optional(), [alias]: member.optional() } as { [P in K | A]: z.ZodOptional<T> };
  return z
    .object(shape)
    .check((ctx) => {
      const v = ctx.value as Partial<Record<K | A, z.output<T>>>;
      if (v[name] === undefined && v[alias] === undefined) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: `expected "${name}" (or "${alias}")`, path: [name] });
      }
    })
    .transform((o) => {
      const v = o as Partial<Record<K | A, z.output<T>>>;
      return { [name]: v[name] ?? v[alias] } as { [P in K]: z.output<T> };
    });
}
