import { once } from 'node:events';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { DESCRIPTOR_INDEX, type DescriptorIndex } from './descriptors.js';
import type { Sample } from '../model.js';
import { formatHeader, formatSample } from './render.js';
import { PLAIN_OUTPUT, type TargetOutput } from './target-output.js';

/**
 * One target's samples pre-rendered per metric family, as UTF-8 bytes (encoded once, when the target's
 * cycle is published, so that assembling the whole exposition is a copy of ready bytes: with 1,000
 * targets and 500,000 series, encoding everything on each render would cost more than the copy).
 * Immutable once built.
 */
export class TargetSegment {
  readonly chunks: ReadonlyMap<string, Buffer>;
  readonly seriesCount: number;
  /** Names of samples that matched no descriptor (a programming error; reported by the caller). */
  readonly unknown: readonly string[];

  /**
   * `output`: the target's user labels and the families it leaves out (metrics/target-output.ts); a
   * function for a segment of several targets' samples (the fleet derivations), asked per sample.
   */
  constructor(samples: readonly Sample[], index: DescriptorIndex = DESCRIPTOR_INDEX, output: TargetOutput | ((s: Sample) => TargetOutput) = PLAIN_OUTPUT) {
    const lines = new Map<string, string[]>();
    const unknown: string[] = [];
    const fixed = typeof output === 'function' ? undefined : output;
    let dropped = 0;
    for (const s of samples) {
      const fam = index.familyOf(s.name);
      if (!fam) {
        unknown.push(s.name);
        continue;
      }
      const out = fixed ?? (output as (s: Sample) => TargetOutput)(s);
      if (out.dropped.has(fam.name)) {
        dropped++;
        continue;
      }
      let arr = lines.get(fam.name);
      if (!arr) lines.set(fam.name, (arr = []));
      arr.push(formatSample(s, out.labelSuffix));
    }
    const chunks = new Map<string, Buffer>();
    for (const [name, arr] of lines) {
      // Gauges and counters are sorted for a stable output; histogram and summary lines keep their order.
      const fam = index.get(name)!;
      if (fam.type === 'gauge' || fam.type === 'counter') arr.sort();
      chunks.set(name, Buffer.from(arr.join(''), 'utf8'));
    }
    this.chunks = chunks;
    this.seriesCount = samples.length - unknown.length - dropped;
    this.unknown = unknown;
  }
}

export interface RenderedExposition {
  readonly text: Buffer;
  /** gzip of `text`: made with the render (the full exposition) or on first use (a probe), then kept. */
  gzip(): Buffer;
  readonly seriesCount: number;
  readonly renderedAt: number;
}

/** zlib level of the exposition's gzip: 6 (zlib's default, what Go's gzip writer uses too). */
export const GZIP_LEVEL = 6;

/** A rendered exposition; `gz` when its gzip was made beforehand. */
export function makeRendered(text: string | Buffer, seriesCount: number, renderedAt: number, gz?: Buffer): RenderedExposition {
  const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let zipped = gz;
  return {
    text: buf,
    gzip: () => (zipped ??= gzipSync(buf, { level: GZIP_LEVEL })),
    seriesCount,
    renderedAt,
  };
}

/**
 * A rendered exposition that is its gzip only (the full /metrics, see Publisher.render): Prometheus
 * always asks for gzip, and the text of a 1,000-target fleet is 30 times its gzip (about 100 MB against
 * 3 MB). A scrape without gzip (curl) gets the text inflated again, kept only while the garbage
 * collector lets it live (a WeakRef), so that a person polling with curl does not inflate it every
 * time and nobody pins it for good. A function of its own: closures made beside a text would share
 * (and keep) the context that holds it.
 */
export function renderedFromGzip(gz: Buffer, seriesCount: number, renderedAt: number): RenderedExposition {
  let inflated: WeakRef<Buffer> | undefined;
  return {
    get text(): Buffer {
      const kept = inflated?.deref();
      if (kept) return kept;
      const t = gunzipSync(gz);
      inflated = new WeakRef(t);
      return t;
    },
    gzip: () => gz,
    seriesCount,
    renderedAt,
  };
}

/** Input blocks of the streamed gzip: big enough that the stream's cost per write does not count. */
const GZIP_BLOCK_BYTES = 1 << 20;

/**
 * The gzip of the parts' concatenation, made on zlib's thread pool from blocks of about a megabyte:
 * the whole text (about 100 MB for 1,000 targets) never exists at once, only a block of it.
 */
export async function gzipParts(parts: readonly Buffer[], level: number): Promise<Buffer> {
  const z = createGzip({ level });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const ended = once(z, 'end');
  let block: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const ok = z.write(Buffer.concat(block, size));
    block = [];
    size = 0;
    if (!ok) await once(z, 'drain');
  };
  for (const p of parts) {
    block.push(p);
    size += p.length;
    if (size >= GZIP_BLOCK_BYTES) await flush();
  }
  await flush();
  z.end();
  await ended;
  return Buffer.concat(out);
}

/**
 * Holds every target's latest segment and assembles the exposition text from them, grouped by
 * family with one HELP/TYPE each. Assembly is a copy of cached byte chunks; it happens
 * once per finished cycle, never per scrape.
 */
export class Exposition {
  private readonly segments = new Map<string, TargetSegment>();
  private global: TargetSegment;

  constructor(
    private readonly helpSuffix: (family: string) => string = () => '',
    readonly index: DescriptorIndex = DESCRIPTOR_INDEX,
  ) {
    this.global = new TargetSegment([], index);
  }

  setTarget(name: string, segment: TargetSegment): void {
    this.segments.set(name, segment);
  }
  removeTarget(name: string): void {
    this.segments.delete(name);
  }
  targetNames(): string[] {
    return [...this.segments.keys()];
  }
  hasTarget(name: string): boolean {
    return this.segments.has(name);
  }
  setGlobal(samples: readonly Sample[]): void {
    this.global = new TargetSegment(samples, this.index);
  }

  /** Text of all targets (or only `only`), plus the global samples when `withGlobal`. */
  assemble(only?: string, withGlobal = true): { text: string; seriesCount: number } {
    const { bytes, seriesCount } = this.assembleBytes(only, withGlobal);
    return { text: bytes.toString('utf8'), seriesCount };
  }

  /** As assemble(), as bytes: the families' headers and the segments' ready chunks, copied once. */
  assembleBytes(only?: string, withGlobal = true): { bytes: Buffer; seriesCount: number } {
    const { parts, length, seriesCount } = this.parts(only, withGlobal);
    return { bytes: Buffer.concat(parts, length), seriesCount };
  }

  /**
   * What assembleBytes() copies, not yet copied: the headers and the segments' chunks in order (the
   * chunks are immutable, so holding them is as good as a copy made now).
   */
  parts(only?: string, withGlobal = true): { parts: Buffer[]; length: number; seriesCount: number } {
    const segs = only === undefined ? [...this.segments.values()] : this.segments.has(only) ? [this.segments.get(only)!] : [];
    if (withGlobal) segs.push(this.global);
    const parts: Buffer[] = [];
    let length = 0;
    let count = 0;
    for (const d of this.index.list) {
      let header: Buffer | undefined;
      for (const seg of segs) {
        const c = seg.chunks.get(d.name);
        if (c === undefined || c.length === 0) continue;
        if (!header) {
          header = Buffer.from(formatHeader(d, this.helpSuffix(d.name)), 'utf8');
          parts.push(header);
          length += header.length;
        }
        parts.push(c);
        length += c.length;
      }
    }
    for (const seg of segs) count += seg.seriesCount;
    return { parts, length, seriesCount: count };
  }
}
