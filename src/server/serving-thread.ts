import { existsSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { parseListenAddress } from '../listen-address.js';
import { systemErrorCode } from '../runtime-priority.js';
import type { RenderedExposition } from '../metrics/exposition.js';
import type { LoopDelay } from '../metrics/process-metrics.js';
import type { ProbeSink, RenderSink } from '../metrics/publisher.js';
import type { ServerLimits } from './server.js';
import type { TargetView } from './target-view.js';

/**
 * The HTTP server in a thread of its own (--web.serving-thread; issue 21). The main thread collects:
 * with 1,000 targets it is busy most of the time (garbage collection of a ~400 MB heap, about 67
 * publications a second), and a /probe served there waited for it: p99 37 ms, max 213 ms. Here the
 * serving thread holds the /probe bytes of every target that is probed, handed over (moved, not copied)
 * as the target publishes, so a probe is answered without asking the main thread. A target's first
 * probe is asked of the main thread, and from then on the target is *watched*: its publications go to
 * the thread until nobody has probed it for `probeIdleMs` (10 minutes). The thread thus holds what the
 * main thread's probe cache held in one thread, no more (about 110 KB of text per mainnet target).
 * /metrics, the landing page and reload are asked of the main thread, which answers them as it always
 * did (a /metrics render is still made there, once per batch of publications; the serving thread keeps
 * the last one it got and is sent a new one only when there is one). A big fleet's watched /metrics is
 * the exception: there the main thread answers a scrape with its last complete render at once anyway
 * (Publisher.scrape), so each render is handed to the thread as it is made, and the thread answers the
 * scrape with it and tells the main thread afterwards (`scraped`: the publisher learns the cadence and
 * starts the next render). Asked, that scrape waited for the main thread's event loop: with 1,000
 * targets its p99 was 70 to 80 ms (bench rows 7).
 *
 * This file is the main thread's side; serving-thread-entry.ts is the thread's script. The server
 * itself (TLS, basic auth, limits, the routes) is createExporterServer in either case.
 */

/** What the serving thread is started with (plain data: it is copied into the thread). */
export interface ServingThreadSetup {
  readonly listenAddress: string;
  readonly telemetryPath: string;
  readonly version: string;
  readonly maxConcurrentScrapes: number;
  readonly webConfigFile?: string;
  readonly logLevel: string;
  /** POST /-/reload is enabled. */
  readonly reload: boolean;
  readonly limits?: Partial<ServerLimits>;
  /** A target not probed for this long is no longer watched (default PROBE_IDLE_MS; tests shorten it). */
  readonly probeIdleMs?: number;
  /** /metrics is watched this long after a scrape (the publisher's WATCH_WINDOW_MS). */
  readonly watchWindowMs: number;
  /** The window of the thread's event-loop delay figures (default LOOP_WINDOW_MS; tests shorten it). */
  readonly loopWindowMs?: number;
}

/** The serving thread reports its event-loop delay once per this window (the usual scrape interval). */
export const LOOP_WINDOW_MS = 15_000;

/** A target not probed for 10 minutes is no longer watched (the thread drops its bytes). */
export const PROBE_IDLE_MS = 10 * 60_000;

/** What the main thread answers for the serving thread (the same as ServerDeps in one thread). */
export interface MainThreadAnswers {
  exposition(): RenderedExposition | Promise<RenderedExposition>;
  probe(name: string): RenderedExposition | undefined;
  otherShard(name: string): string | undefined;
  targets(): TargetView[];
  reload?(): Promise<void>;
  /** The thread answered a /metrics scrape with the render it was handed (Publisher.scrape, its answer unused). */
  scraped?(): void;
}

/** A question the serving thread asks the main thread. `have`: the render it holds (0: none). */
export type Question =
  | { readonly kind: 'metrics'; readonly have: number }
  | { readonly kind: 'probe'; readonly name: string }
  | { readonly kind: 'other-shard'; readonly name: string }
  | { readonly kind: 'targets' }
  | { readonly kind: 'reload' };

/** The answer to `metrics`: the render's number, and its gzip unless the thread has it already. */
export interface MetricsAnswer {
  readonly seq: number;
  readonly gz?: Uint8Array;
  readonly series: number;
  readonly at: number;
}

/** One target's /probe text. */
export interface ProbeBytes {
  readonly bytes: Uint8Array;
  readonly series: number;
  readonly at: number;
}

export type ToServingThread =
  | ({ readonly t: 'probe'; readonly name: string } & ProbeBytes)
  | { readonly t: 'drop'; readonly name: string }
  /** A new render; `ahead`: the thread may answer watched scrapes with it (then its gzip comes along). */
  | { readonly t: 'render'; readonly seq: number; readonly ahead: boolean; readonly gz?: Uint8Array; readonly series: number; readonly at: number }
  | { readonly t: 'answer'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly t: 'answer'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly t: 'close' };

export type FromServingThread =
  /** `tid`: the thread's id in the kernel (Linux; src/runtime-priority.ts). */
  | { readonly t: 'listening'; readonly url: string; readonly port: number; readonly tid?: number }
  | { readonly t: 'listen-failed'; readonly message: string; readonly code?: string; readonly hostname?: string }
  | { readonly t: 'ask'; readonly id: number; readonly q: Question }
  | { readonly t: 'unwatch'; readonly name: string }
  | { readonly t: 'scraped' }
  /** The thread's event-loop delay over its last window (src/metrics/process-metrics.ts). */
  | ({ readonly t: 'loop' } & LoopDelay)
  | { readonly t: 'log'; readonly line: string };

export interface ServingThreadOptions {
  readonly logger: Logger;
  readonly answers: MainThreadAnswers;
  /** Wait before starting a stopped thread again (default 1 s; tests shorten it). */
  readonly restartDelayMs?: number;
}

const CLOSE_WAIT_MS = 5_000;
const MAX_RESTART_DELAY_MS = 30_000;

export class ServingThread implements ProbeSink, RenderSink {
  private worker: Worker | undefined;
  private closing = false;
  private readonly seqOf = new WeakMap<RenderedExposition, number>();
  private nextSeq = 1;
  private restartDelayMs: number;
  private restartTimer: NodeJS.Timeout | undefined;
  private starts = 0;
  /** Targets whose publications go to the thread (it asked for their probe and has not let go). */
  private readonly watched = new Set<string>();
  /** http(s)://host:port to show people (loopback for an all-interfaces bind). */
  url = '';
  /** The running thread's id in the kernel (Linux; undefined elsewhere): src/runtime-priority.ts. */
  tid: number | undefined;
  /** The running thread's event-loop delay over its last window (undefined until it reports one). */
  loopDelay: LoopDelay | undefined;
  /** The first thread's niceness: a thread started again is brought back to it (restoreNiceness). */
  private niceness: number | undefined;

  private constructor(
    private setup: ServingThreadSetup,
    private readonly o: ServingThreadOptions,
  ) {
    this.restartDelayMs = o.restartDelayMs ?? 1000;
  }

  /** Starts the thread; resolves once it listens (rejects with the listen error, its code kept). */
  static async start(setup: ServingThreadSetup, o: ServingThreadOptions): Promise<ServingThread> {
    const t = new ServingThread(setup, o);
    t.url = await t.spawn();
    return t;
  }

  /** Threads started so far (1, plus one per restart; tests). */
  get started(): number {
    return this.starts;
  }

  /** Ends the thread as if it had failed (tests of the restart). */
  async crashForTest(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Targets whose publications go to the thread (tests). */
  watching(): ReadonlySet<string> {
    return this.watched;
  }

  watches(name: string): boolean {
    return this.watched.has(name);
  }

  set(name: string, bytes: Buffer, series: number, at: number): void {
    if (!this.worker) return;
    // A Buffer that is its whole ArrayBuffer is moved; a slice of Node's pool (small texts) is copied.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const msg: ToServingThread = { t: 'probe', name, bytes, series, at };
    this.worker.postMessage(msg, whole ? [bytes.buffer as ArrayBuffer] : []);
  }

  rendered(r: RenderedExposition, ahead: boolean): void {
    if (!this.worker) return;
    // Only a render the thread may answer with travels at once (its gzip copied once per render).
    this.post({ t: 'render', seq: this.seqFor(r), ahead, gz: ahead ? r.gzip() : undefined, series: r.seriesCount, at: r.renderedAt });
  }

  drop(name: string): void {
    if (this.watched.delete(name)) this.post({ t: 'drop', name });
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    const w = this.worker;
    if (!w) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    this.post({ t: 'close' });
    const timer = setTimeout(() => void w.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private post(m: ToServingThread): void {
    this.worker?.postMessage(m);
  }

  private spawn(): Promise<string> {
    this.starts++;
    const worker = new Worker(workerScript(), { workerData: this.setup, name: 'avalanche-exporter serving' });
    this.worker = worker;
    this.watched.clear(); // a new thread holds nothing: each target's next probe asks again
    this.loopDelay = undefined; // nor has it measured anything yet
    return new Promise<string>((resolve, reject) => {
      let listening = false;
      worker.on('message', (m: FromServingThread) => {
        if (m.t === 'ask') this.answer(worker, m.id, m.q);
        else if (m.t === 'log') this.relay(m.line);
        else if (m.t === 'unwatch') this.watched.delete(m.name);
        else if (m.t === 'scraped') this.o.answers.scraped?.();
        else if (m.t === 'loop') this.loopDelay = { p50: m.p50, p99: m.p99, max: m.max, windowSeconds: m.windowSeconds };
        else if (m.t === 'listening') {
          listening = true;
          // A thread started again listens on the same port (`:0` picked one the first time).
          this.setup = { ...this.setup, listenAddress: withPort(this.setup.listenAddress, m.port) };
          this.tid = m.tid;
          if (this.starts === 1) this.niceness = niceOf(m.tid);
          else this.restoreNiceness(m.tid);
          resolve(m.url);
        } else reject(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}, m.hostname ? { hostname: m.hostname } : {}));
      });
      worker.on('error', (err) => {
        if (listening) this.o.logger.error({ event: 'serving_thread_error', err: String(err) }, 'the serving thread failed');
        else reject(err);
      });
      worker.on('exit', (code) => {
        if (this.worker === worker) this.worker = undefined;
        if (!listening) return reject(new Error(`the serving thread stopped (exit code ${code}) before it listened`));
        if (this.closing) return;
        this.o.logger.error({ event: 'serving_thread_stopped', code, restartInMs: this.restartDelayMs }, 'the serving thread stopped: /metrics and /probe are not served until it starts again');
        this.scheduleRestart();
      });
    });
  }

  private scheduleRestart(): void {
    const delay = this.restartDelayMs;
    this.restartTimer = setTimeout(() => {
      if (this.closing) return;
      this.spawn().then(
        () => {
          this.restartDelayMs = this.o.restartDelayMs ?? 1000;
          this.o.logger.info({ event: 'serving_thread_restarted' }, 'the serving thread is serving again');
        },
        (err: Error) => {
          this.restartDelayMs = Math.min(MAX_RESTART_DELAY_MS, delay * 2);
          this.o.logger.error({ event: 'serving_thread_restart_failed', err: err.message, restartInMs: this.restartDelayMs }, 'the serving thread could not start again');
          if (!this.closing) this.scheduleRestart();
        },
      );
    }, delay);
  }

  /**
   * A thread started again is made by the main thread and starts at its niceness, which `run` may have
   * raised (--runtime.collecting-niceness): it is brought back to the first thread's, which needs
   * CAP_SYS_NICE or an RLIMIT_NICE that allows it; without them it serves at the collectors' niceness
   * (both logged).
   */
  private restoreNiceness(tid: number | undefined): void {
    const now = niceOf(tid);
    if (tid === undefined || now === undefined || this.niceness === undefined || now === this.niceness) return;
    try {
      setPriority(tid, this.niceness);
      this.o.logger.info({ event: 'serving_thread_niceness', tid, niceness: this.niceness }, 'the serving thread started again at its first niceness');
    } catch (err) {
      this.o.logger.warn(
        { event: 'serving_thread_niceness', tid, niceness: now, wanted: this.niceness, err: systemErrorCode(err) },
        'the serving thread started again at the collecting threads\' niceness: lowering it back needs CAP_SYS_NICE or a higher RLIMIT_NICE (LimitNICE= in systemd); /probe may wait behind collection until the exporter restarts',
      );
    }
  }

  /** Answers one question of the thread (an error goes back as its message: the thread answers 500 or 400). */
  private answer(worker: Worker, id: number, q: Question): void {
    const reply = (value: unknown) => worker.postMessage({ t: 'answer', id, ok: true, value } satisfies ToServingThread);
    const fail = (err: unknown) => worker.postMessage({ t: 'answer', id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies ToServingThread);
    const a = this.o.answers;
    try {
      switch (q.kind) {
        case 'metrics': {
          const r = a.exposition();
          if (r instanceof Promise) r.then((x) => reply(this.metricsAnswer(x, q.have)), fail);
          else reply(this.metricsAnswer(r, q.have));
          return;
        }
        case 'probe': {
          // The thread keeps what it is answered, and gets the target's publications from now on.
          const r = a.probe(q.name);
          if (r) this.watched.add(q.name);
          return reply(r ? ({ bytes: r.text, series: r.seriesCount, at: r.renderedAt } satisfies ProbeBytes) : undefined);
        }
        case 'other-shard':
          return reply(a.otherShard(q.name));
        case 'targets':
          return reply(a.targets());
        case 'reload':
          if (!a.reload) return fail(new Error('POST /-/reload is not enabled (--web.enable-lifecycle)'));
          a.reload().then(() => reply(undefined), fail);
          return;
      }
    } catch (err) {
      fail(err);
    }
  }

  private seqFor(r: RenderedExposition): number {
    let seq = this.seqOf.get(r);
    if (seq === undefined) this.seqOf.set(r, (seq = this.nextSeq++));
    return seq;
  }

  private metricsAnswer(r: RenderedExposition, have: number): MetricsAnswer {
    const seq = this.seqFor(r);
    // The gzip is copied into the thread once per render: a scrape of the same render sends only its number.
    if (seq === have) return { seq, series: r.seriesCount, at: r.renderedAt };
    return { seq, gz: r.gzip(), series: r.seriesCount, at: r.renderedAt };
  }

  /** A log line of the thread (pino JSON), logged again here: one log, one destination, one redaction. */
  private relay(line: string): void {
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const { level, time: _time, service: _service, msg, ...rest } = rec;
    const log = this.o.logger as unknown as Record<string, unknown>;
    const fn = typeof level === 'string' ? log[level] : undefined;
    if (typeof fn === 'function') (fn as (o: object, m?: string) => void).call(this.o.logger, { ...rest, thread: 'serving' }, typeof msg === 'string' ? msg : undefined);
  }
}

/** A thread's niceness (undefined: no thread id, or the system does not say). */
function niceOf(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    return getPriority(tid);
  } catch {
    return undefined;
  }
}

/** `address` (host:port, :port, [v6]:port) with its port replaced. */
function withPort(address: string, port: number): string {
  const host = parseListenAddress(address)?.host;
  return `${host === undefined ? '' : host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The thread's script: serving-thread-entry.js beside this file (the build), or, when this file runs
 * from the TypeScript sources (the tests), the build's copy in dist/ (`npm test` builds first).
 */
function workerScript(): URL {
  const beside = new URL('./serving-thread-entry.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts') || existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/server/serving-thread-entry.js', import.meta.url);
}
