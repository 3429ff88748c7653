import { gzip as zlibGzip } from 'node:zlib';
import { GZIP_LEVEL } from '../metrics/exposition.js';

/** Gzips `text` and calls `done` once (zlib's pool in production; a test steps it by hand). */
export type GzipFn = (text: Buffer, done: (err: Error | null, gz?: Buffer) => void) => void;

/** The exposition's gzip level, on zlib's pool. */
export const poolGzip: GzipFn = (text, done) => zlibGzip(text, { level: GZIP_LEVEL }, done);

/**
 * Gzips that wait their turn: at most `limit` run at once, and per key only the newest text waits
 * (a newer text takes the place of the one still waiting, so each key is gzipped at most once per turn).
 *
 * The serving thread gzips each watched target's new /probe text as it arrives (serving-thread-entry.ts).
 * One zlib job each at once would let a burst of publications (a stalled main thread, a fleet's
 * answers shared by many targets at once) start as many jobs as there are watched targets: each holds
 * its deflate state (about 256 KB) and its output until it ends, and they queue on libuv's pool ahead of
 * the main thread's own gzip of /metrics. Bounded, the memory of a burst is `limit` jobs whatever its
 * size, and the pool keeps threads for the rest.
 */
export class GzipQueue {
  private readonly waiting = new Map<string, { text: Buffer; then: (gz: Buffer) => void; wanted: () => boolean }>();
  private running = 0;

  constructor(
    private readonly limit: number,
    private readonly gzip: GzipFn = poolGzip,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`GzipQueue: limit must be a positive integer, got ${limit}`);
  }

  /**
   * Queues `text` of `key`; `then` gets its gzip (not called when it fails: an answer gzips in place then).
   * `wanted` is asked when its turn comes: false (a probe already gzipped that text in place) skips it.
   */
  add(key: string, text: Buffer, then: (gz: Buffer) => void, wanted: () => boolean = () => true): void {
    // Map.set on a key still waiting keeps its place in the queue: a target updated while it waits is not sent back.
    this.waiting.set(key, { text, then, wanted });
    this.pump();
  }

  /** Forgets the text of `key` still waiting (a target no longer watched); a gzip already running ends as it may. */
  delete(key: string): void {
    this.waiting.delete(key);
  }

  /** Gzips running now. */
  get inFlight(): number {
    return this.running;
  }

  /** Keys whose text waits for a turn. */
  get queued(): number {
    return this.waiting.size;
  }

  private pump(): void {
    while (this.running < this.limit) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [key, job] = next.value;
      this.waiting.delete(key);
      if (!wantedNow(job.wanted)) continue;
      this.running++;
      let ended = false;
      const done = (err: Error | null, gz?: Buffer) => {
        if (ended) return; // a callback called twice must not free a second slot
        ended = true;
        this.running--;
        if (!err && gz) job.then(gz);
        this.pump();
      };
      try {
        this.gzip(job.text, done);
      } catch (err) {
        done(err instanceof Error ? err : new Error(String(err))); // thrown, not called back: the slot is freed all the same
      }
    }
  }
}

/** A job's `wanted`, false when it throws (the answer gzips in place then, as when a gzip fails). */
function wantedNow(wanted: () => boolean): boolean {
  try {
    return wanted();
  } catch {
    return false;
  }
}
