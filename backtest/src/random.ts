// Seeded randomness of the backtest (noise times, per-request timeouts, missed scrapes): the same
// timeline and seed give the same events, to the millisecond. Seeded independently of the simulator's
// streams on purpose (the simulator is an oracle; the noise is the harness's): only the generator,
// Mulberry32, is the simulator's.
import { Mulberry32 } from '@avalanche-exporter/simulated-node';

/** 32-bit hash of a list of integers (murmur3 finaliser over a running mix). */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    for (const w of hi === 0 ? [lo] : [lo, hi]) {
      h = Math.imul(h ^ w, 0x01000193) >>> 0;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b) >>> 0;
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35) >>> 0;
      h ^= h >>> 16;
    }
  }
  return h >>> 0;
}

/** A float in [0, 1) from a list of integers. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 4294967296;
}

/** String → integer, for seeding a stream with a name. */
export function nameKey(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) >>> 0;
  return h;
}

/** A sequential seeded stream (mulberry32), seeded with the hash of a list of integers. */
export class Stream extends Mulberry32 {
  constructor(...seed: number[]) {
    super(hash32(...seed));
  }
  /** uniform in [a, b] (whole milliseconds) */
  between(a: number, b: number): number {
    return this.int(a, b);
  }
  /** exponential inter-arrival time with this mean (a Poisson process) */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}
