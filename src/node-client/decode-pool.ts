import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decoderNameOf } from '../schemas/decoders.js';
import type { DecodeJob, DecodeReply } from './decode-worker.js';

/**
 * A small pool of worker threads that decode the big JSON answers (info.peers, the validator list,
 * the chain list: src/schemas/decoders.ts) off the event loop, so that a fleet's decoding never holds up
 * a scrape (issue 21: with 1,000 targets the main thread was busy in stretches of 400-600 ms). Bodies
 * under `minBytes`, answers without a named reader, and everything while no worker is alive are decoded
 * on the main thread as before. A worker decodes only a good answer: any other comes back `ok: false`
 * and the node client decodes it again in place, so every error is the one it always was.
 *
 * Workers start on the first answer that needs one (a small fleet never pays for a thread). A worker
 * that dies is not replaced: its jobs and every later one are decoded in place, and `onFailure` says so
 * once.
 */

/** Bodies smaller than this are decoded in place: a round trip to a worker costs more than they do. */
export const POOL_MIN_BYTES = 64 * 1024;

export interface DecodePoolOptions {
  /** Worker threads (at most; started when first needed). */
  readonly size: number;
  /** Smallest body sent to a worker (default POOL_MIN_BYTES). */
  readonly minBytes?: number;
  /** A worker failed (it is not replaced): called once per worker. */
  readonly onFailure?: (err: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, (r: DecodeReply) => void>;
  alive: boolean;
}

/** Pool statistics (tests and the bench). */
export interface DecodePoolStats {
  /** Answers decoded by a worker. */
  readonly decoded: number;
  /** Answers sent to a worker that came back to be decoded in place (a wrong answer, a dead worker). */
  readonly returned: number;
  /** Workers alive. */
  readonly workers: number;
}

export class DecodePool {
  private readonly slots: Slot[] = [];
  private readonly minBytes: number;
  private nextJob = 1;
  /** Workers started or tried (a worker that failed to start counts: it is not tried again). */
  private tried = 0;
  private closed = false;
  private decoded = 0;
  private returned = 0;

  constructor(private readonly o: DecodePoolOptions) {
    this.minBytes = o.minBytes ?? POOL_MIN_BYTES;
  }

  /**
   * The answer's result decoded by a worker (`ok: false`: decode it in place), or undefined when this
   * answer is decoded in place anyway (small, no named reader, no worker).
   */
  decode(method: string, rpcId: number, schema: unknown, body: Uint8Array): Promise<DecodeReply> | undefined {
    if (this.closed || body.byteLength < this.minBytes) return undefined;
    const decoder = decoderNameOf(schema);
    if (decoder === undefined) return undefined;
    const slot = this.pick();
    if (!slot) return undefined;
    const job = this.nextJob++;
    const msg: DecodeJob = { job, decoder, method, rpcId, body };
    return new Promise<DecodeReply>((resolve) => {
      slot.pending.set(job, (r) => {
        if (r.ok) this.decoded++;
        else this.returned++;
        resolve(r);
      });
      // The body is copied (a memcpy): the main thread keeps it to decode in place if need be.
      slot.worker.postMessage(msg);
    });
  }

  stats(): DecodePoolStats {
    return { decoded: this.decoded, returned: this.returned, workers: this.slots.filter((s) => s.alive).length };
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const s of slots) this.fail(s);
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => 0)));
  }

  /** The live worker with the fewest jobs, starting one while there are fewer than `size`. */
  private pick(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.alive && (!best || s.pending.size < best.pending.size)) best = s;
    if ((!best || best.pending.size > 0) && this.tried < this.o.size) {
      this.tried++;
      return this.start() ?? best;
    }
    return best;
  }

  private start(): Slot | undefined {
    let worker: Worker;
    try {
      worker = new Worker(workerScript());
    } catch (err) {
      this.o.onFailure?.(err instanceof Error ? err : new Error(String(err)));
      return undefined;
    }
    const slot: Slot = { worker, pending: new Map(), alive: true };
    worker.unref();
    worker.on('message', (r: DecodeReply) => {
      const done = slot.pending.get(r.job);
      slot.pending.delete(r.job);
      done?.(r);
    });
    const down = (err: Error) => {
      if (!slot.alive) return;
      this.fail(slot);
      if (!this.closed) this.o.onFailure?.(err);
    };
    worker.on('error', down);
    worker.on('exit', (code) => down(new Error(`decode worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  /** A worker is gone: its jobs are decoded in place. */
  private fail(slot: Slot): void {
    slot.alive = false;
    const jobs = [...slot.pending];
    slot.pending.clear();
    for (const [job, done] of jobs) done({ job, ok: false });
  }
}

/**
 * The worker's script: decode-worker.js beside this file (the build), or, when this file runs from the
 * TypeScript sources (the tests), the build's copy in dist/ (`npm test` builds first).
 */
function workerScript(): URL {
  const beside = new URL('./decode-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts') || existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/node-client/decode-worker.js', import.meta.url);
}
