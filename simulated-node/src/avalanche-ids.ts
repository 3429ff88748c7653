// Avalanche identifiers as the simulator writes and checks them: CB58 (ids.ID, ids.NodeID),
// bech32 P-chain addresses, BLS-looking keys.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import bs58 from 'bs58';
import { sha256, type Rng } from './deterministic-random.js';

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

/** constants.PrimaryNetworkID (ids.Empty in CB58): the primary network's subnet ID, also the P-chain's ID. */
export const PRIMARY_SUBNET_ID = '11111111111111111111111111111111LpoYY';

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
