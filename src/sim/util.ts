// Small deterministic helpers for the simulated node: hashing/PRNG, CB58, bech32,
// Go-compatible formatting (RFC3339Nano, time.Duration.String, json.Float64) and a
// JSON encoder that escapes like Go's encoding/json.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';

// ---------------------------------------------------------------------------
// Hashing and pseudo-random numbers (pure functions of their inputs)

/** 32-bit avalanche mix (murmur3 finaliser). */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Deterministic 32-bit hash of a list of integers. */
export function h32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    // fold both halves so that values above 2^32 still matter
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = mix32((h ^ lo) + 0x7f4a7c15);
    if (hi !== 0) h = mix32((h ^ hi) + 0x165667b1);
  }
  return h;
}

/** Deterministic float in [0,1) from a list of integers. */
export function hf(...parts: number[]): number {
  return h32(...parts) / 4294967296;
}

/** Mulberry32 PRNG: sequential deterministic stream. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = h32(seed, 0x5eed) >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(this.next() * 256);
    return b;
  }
  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.next() * arr.length)] as T;
  }
}

export function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Deterministic bytes derived from a label (sha256 counter mode). */
export function derivedBytes(label: string, n: number): Buffer {
  const out = Buffer.alloc(n);
  let off = 0;
  let ctr = 0;
  while (off < n) {
    const block = sha256(`${label}#${ctr++}`);
    off += block.copy(out, off, 0, Math.min(block.length, n - off));
  }
  return out;
}

// ---------------------------------------------------------------------------
// CB58 and IDs

/** CB58 = base58(payload || last 4 bytes of sha256(payload)). */
export function cb58Encode(payload: Buffer): string {
  const sum = sha256(payload).subarray(28);
  return bs58.encode(Buffer.concat([payload, sum]));
}

/** Decodes CB58 and verifies the checksum; returns null when invalid. */
export function cb58Decode(s: string): Buffer | null {
  let raw: Uint8Array;
  try {
    raw = bs58.decode(s);
  } catch {
    return null;
  }
  if (raw.length < 5) return null;
  const buf = Buffer.from(raw);
  const payload = buf.subarray(0, buf.length - 4);
  const sum = buf.subarray(buf.length - 4);
  if (!sha256(payload).subarray(28).equals(sum)) return null;
  return payload;
}

export function idFromBytes(b: Buffer): string {
  return cb58Encode(b);
}

export function nodeIdFromBytes(b: Buffer): string {
  return 'NodeID-' + cb58Encode(b);
}

/** Valid ids.ID (32 bytes) string? */
export function isValidId(s: string): boolean {
  const p = cb58Decode(s);
  return p !== null && p.length === 32;
}

/** Valid ids.NodeID ("NodeID-" + 20 bytes) string? */
export function isValidNodeId(s: string): boolean {
  if (!s.startsWith('NodeID-')) return false;
  const p = cb58Decode(s.slice(7));
  return p !== null && p.length === 20;
}

export const PRIMARY_SUBNET_ID = '11111111111111111111111111111111LpoYY';

// ---------------------------------------------------------------------------
// bech32 (BIP-173), used for P-avax1… owner addresses

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const b = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((b >>> i) & 1) chk ^= GEN[i] as number;
  }
  return chk >>> 0;
}

function convertBits(data: Buffer, from: number, to: number): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & maxv);
    }
  }
  if (bits > 0) out.push((acc << (to - bits)) & maxv);
  return out;
}

export function bech32Encode(hrp: string, data: Buffer): string {
  const words = convertBits(data, 8, 5);
  const hrpExp: number[] = [];
  for (const c of hrp) hrpExp.push(c.charCodeAt(0) >>> 5);
  hrpExp.push(0);
  for (const c of hrp) hrpExp.push(c.charCodeAt(0) & 31);
  const pm = bech32Polymod([...hrpExp, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum: number[] = [];
  for (let i = 0; i < 6; i++) checksum.push((pm >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...words, ...checksum].map((w) => BECH32_CHARSET[w]).join('');
}

export function pAddress(bytes20: Buffer): string {
  return 'P-' + bech32Encode('avax', bytes20);
}

// ---------------------------------------------------------------------------
// BLS-looking keys (compressed G1 / G2 encodings; not real keys)

export function blsPublicKeyHex(rng: Rng): string {
  const b = rng.bytes(48);
  b[0] = 0x80 | ((b[0] as number) & 0x20) | ((b[0] as number) % 0x1a);
  return '0x' + b.toString('hex');
}

export function blsPopHex(rng: Rng): string {
  const b = rng.bytes(96);
  b[0] = 0x80 | ((b[0] as number) & 0x20) | ((b[0] as number) % 0x1a);
  return '0x' + b.toString('hex');
}

// ---------------------------------------------------------------------------
// Go-compatible formatting

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
