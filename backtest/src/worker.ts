// Worker threads that simulate timelines (simulate.ts), at most `size` at a time: the exporter and
// the simulated fleet are CPU-bound in one thread each, so two timelines use both cores.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { simulate, type SimulateRequest, type Simulated } from './simulate.js';

const YOUNG_GENERATION_MB = 128;

type Reply = { ok: true; result: Simulated } | { ok: false; error: string } | { progress: string };

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (req: SimulateRequest) => {
    simulate(req, (msg) => port.postMessage({ progress: msg } satisfies Reply)).then(
      (result) => port.postMessage({ ok: true, result } satisfies Reply),
      (e: unknown) => port.postMessage({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies Reply),
    );
  });
}

/**
 * Simulates every request, `size` at a time in worker threads (size 0: one after the other in this
 * thread, e.g. under vitest, which cannot start a worker on TypeScript sources); results in request order.
 */
export async function simulateAll(reqs: readonly SimulateRequest[], size: number, onProgress: (msg: string) => void, onDone: (s: Simulated, i: number) => void): Promise<Simulated[]> {
  const out: Simulated[] = new Array(reqs.length);
  if (size < 1) {
    for (const [i, req] of reqs.entries()) {
      out[i] = await simulate(req, onProgress);
      onDone(out[i]!, i);
    }
    return out;
  }
  let next = 0;
  const lane = async (): Promise<void> => {
    // A larger young generation: the exporter and the simulator allocate short-lived answers at a high
    // rate; measured 10-15 % less CPU than V8's default for a simulated fleet.
    const worker = new Worker(new URL('./worker.js', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    try {
      while (next < reqs.length) {
        const i = next++;
        out[i] = await new Promise<Simulated>((resolve, reject) => {
          const onMessage = (m: Reply) => {
            if ('progress' in m) return onProgress(m.progress);
            worker.off('message', onMessage);
            worker.off('error', reject);
            if (m.ok) resolve(m.result);
            else reject(new Error(`${reqs[i]!.file}: ${m.error}`));
          };
          worker.on('message', onMessage);
          worker.once('error', reject);
          worker.postMessage(reqs[i]);
        });
        onDone(out[i]!, i);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, reqs.length)) }, lane));
  return out;
}
