import { readlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logger.js';
import { makeRendered, renderedFromGzip, type RenderedExposition } from '../metrics/exposition.js';
import { LOOP_RESOLUTION_MS, loopDelayOf } from '../metrics/process-metrics.js';
import { GzipQueue } from './gzip-queue.js';
import { listen } from './listen.js';
import { createExporterServer } from './server.js';
import { LOOP_WINDOW_MS, PROBE_IDLE_MS, type FromServingThread, type MetricsAnswer, type ProbeBytes, type Question, type ServingThreadSetup, type ToServingThread } from './serving-thread.js';
import type { TargetView } from './target-view.js';

/**
 * The serving thread's script (serving-thread.ts says why it exists): createExporterServer, answering
 * /probe from the bytes the main thread hands over and asking the main thread for everything else.
 */

const port = parentPort;
if (!port) throw new Error('serving-thread-entry.js runs only as a worker thread (src/server/serving-thread.ts starts it)');
const setup = workerData as ServingThreadSetup;
const post = (m: FromServingThread) => port.postMessage(m);
// pino here, its lines logged again by the main thread's logger (ServingThread.relay).
const logger = createLogger(setup.logLevel, { write: (line: string) => post({ t: 'log', line }) });

const asked = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
let nextId = 1;
function ask<T>(q: Question): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    asked.set(id, { resolve: resolve as (v: unknown) => void, reject });
    post({ t: 'ask', id, q });
  });
}

const bytesOf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
/** The watched targets' latest probe, and when each was last probed (monotonic ms). */
const probes = new Map<string, { r: RenderedExposition; probedAt: number }>();
const idleMs = setup.probeIdleMs ?? PROBE_IDLE_MS;
/** Gzips of watched targets' new texts running at once on libuv's pool (four threads, shared with the main thread). */
const PROBE_GZIPS_AT_ONCE = 2;
const probeGzips = new GzipQueue(PROBE_GZIPS_AT_ONCE);
let metrics: { seq: number; r: RenderedExposition } | undefined;
/** The last render handed over may answer a watched scrape (serving-thread.ts: a big fleet). */
let direct = false;
let lastScrapeAt = -Infinity;

function exposition(): RenderedExposition | Promise<RenderedExposition> {
  const now = performance.now();
  const watched = now - lastScrapeAt <= setup.watchWindowMs;
  lastScrapeAt = now;
  if (direct && watched && metrics) {
    post({ t: 'scraped' });
    return metrics.r;
  }
  return askedRender();
}

async function askedRender(): Promise<RenderedExposition> {
  const a = await ask<MetricsAnswer>({ kind: 'metrics', have: metrics?.seq ?? 0 });
  if (a.gz) metrics = { seq: a.seq, r: renderedFromGzip(bytesOf(a.gz), a.series, a.at) };
  else if (metrics?.seq !== a.seq) throw new Error(`render ${a.seq} came without its bytes`);
  return metrics!.r;
}

/** A watched target's probe from here; a first probe is asked of the main thread, which then sends its publications. */
function probe(name: string): RenderedExposition | Promise<RenderedExposition | undefined> {
  const held = probes.get(name);
  if (held) {
    held.probedAt = performance.now();
    return held.r;
  }
  return ask<ProbeBytes | undefined>({ kind: 'probe', name }).then((p) => {
    if (!p) return undefined;
    const r = makeRendered(bytesOf(p.bytes), p.series, p.at);
    probes.set(name, { r, probedAt: performance.now() });
    return r;
  });
}

/**
 * A watched target's new /probe text, answered from at once; its gzip (what Prometheus asks for) is made
 * on zlib's pool, not on this thread: with every target probed (Prometheus probing a fleet) nearly every
 * probe is the first after a publication, and a gzip of a mainnet target's text here (about 1 ms) held up
 * every other answer. A probe before the gzip is ready makes it here, as before, and the queued one is
 * skipped when its turn comes; a gzip that comes back after a newer publication is dropped. Two at a
 * time (GzipQueue: a burst of publications holds two zlib jobs, not one per target, and leaves libuv's
 * pool to the main thread's gzip of /metrics).
 */
function hold(name: string, held: { r: RenderedExposition }, text: Buffer, series: number, at: number): void {
  const made = makeRendered(text, series, at);
  // A probe that comes before the queued gzip makes it here; the queued one is then skipped, not made twice.
  let gzippedHere = false;
  const r: RenderedExposition = {
    text: made.text,
    seriesCount: made.seriesCount,
    renderedAt: made.renderedAt,
    gzip: () => {
      gzippedHere = true;
      return made.gzip();
    },
  };
  held.r = r;
  const current = () => held.r === r && probes.get(name) === held;
  probeGzips.add(
    name,
    text,
    (gz) => {
      if (current()) held.r = makeRendered(text, series, at, gz);
    },
    () => !gzippedHere && current(),
  );
}

// Targets nobody probes any more: dropped here, and the main thread stops sending them.
setInterval(() => {
  const now = performance.now();
  for (const [name, held] of probes) {
    if (now - held.probedAt < idleMs) continue;
    probes.delete(name);
    probeGzips.delete(name);
    post({ t: 'unwatch', name });
  }
}, Math.min(60_000, idleMs)).unref();

// This thread's event-loop delay, reported once per window (the main thread puts it in the process metrics).
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loop.enable();
const loopWindowMs = setup.loopWindowMs ?? LOOP_WINDOW_MS;
setInterval(() => {
  const d = loopDelayOf(loop, loopWindowMs / 1000);
  if (d) post({ t: 'loop', ...d });
  loop.reset();
}, loopWindowMs).unref();

const server = createExporterServer({
  telemetryPath: setup.telemetryPath,
  version: setup.version,
  maxConcurrentScrapes: setup.maxConcurrentScrapes,
  logger,
  webConfigFile: setup.webConfigFile,
  limits: setup.limits,
  exposition,
  probe,
  otherShard: (name) => ask<string | undefined>({ kind: 'other-shard', name }),
  targets: () => ask<TargetView[]>({ kind: 'targets' }),
  reload: setup.reload ? () => ask<void>({ kind: 'reload' }) : undefined,
});

port.on('message', (m: ToServingThread) => {
  switch (m.t) {
    case 'probe': {
      // Only a watched target (one dropped a moment ago may still be on its way).
      const held = probes.get(m.name);
      if (held) hold(m.name, held, bytesOf(m.bytes), m.series, m.at);
      return;
    }
    case 'drop':
      probes.delete(m.name);
      probeGzips.delete(m.name);
      return;
    case 'render':
      if (m.gz) metrics = { seq: m.seq, r: renderedFromGzip(bytesOf(m.gz), m.series, m.at) };
      direct = m.ahead && metrics?.seq === m.seq;
      return;
    case 'answer': {
      const waiting = asked.get(m.id);
      asked.delete(m.id);
      if (m.ok) waiting?.resolve(m.value);
      else waiting?.reject(new Error(m.error));
      return;
    }
    case 'close':
      server.close(() => port.close());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2000).unref();
      return;
  }
});

listen(server, setup.listenAddress, setup.telemetryPath, logger).then(
  (url) => post({ t: 'listening', url, port: (server.address() as AddressInfo).port, tid: threadId() }),
  (err: NodeJS.ErrnoException & { hostname?: string }) => {
    post({ t: 'listen-failed', message: err.message, code: err.code, hostname: err.hostname });
    port.close();
  },
);

/** This thread's id in the kernel (/proc/thread-self is <pid>/task/<tid>): --runtime.collecting-niceness. Linux only. */
function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
