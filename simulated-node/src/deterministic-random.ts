// Deterministic hashing and pseudo-random numbers: every simulated value is a pure function of the
// seed (and the clock), so that two runs with the same seed answer the same.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { createHash } from 'node:crypto';

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

/**
 * Mulberry32 PRNG from a 32-bit state: sequential deterministic stream. The backtest's noise
 * (backtest/src/random.ts) draws from it too, seeded its own way.
 */
export class Mulberry32 {
  constructor(private s: number) {}
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
}

/** The simulator's stream: Mulberry32 seeded from a seed number. */
export class Rng extends Mulberry32 {
  constructor(seed: number) {
    super(h32(seed, 0x5eed) >>> 0);
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
