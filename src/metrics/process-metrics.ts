import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The exporter process's own metrics (prom-client's process_* and nodejs_*), as exposition text, and,
 * with the serving thread on, that thread's event-loop delay (`servingThreadLoop`: its last window, or
 * undefined before the first). Gauges named *_total fail `promtool check metrics`:
 * nodejs_active_{handles,requests,resources} (without _total) carry the same counts. prom-client writes
 * NaN as "Nan" (lib/util.js); the text format spells it NaN.
 */
export function processMetrics(servingThreadLoop?: () => LoopDelay | undefined): () => Promise<string> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const n of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(n);
  return async () => {
    const text = (await registry.metrics().catch(() => '')).replace(/ Nan$/gm, ' NaN');
    const loop = servingThreadLoop?.();
    return loop ? text + servingThreadLoopText(loop) : text;
  };
}

/**
 * The serving thread's event-loop delay over one window (seconds), measured in that thread with
 * perf_hooks' monitorEventLoopDelay: how long a request it was sent could wait before the thread ran
 * its handler (a /probe it answers alone, a scrape's bytes). Unlike prom-client's nodejs_eventloop_lag_*
 * of the main thread, the monitor's sampling interval (LOOP_RESOLUTION_MS) is taken off: 0 is no delay.
 */
export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The window's length, in seconds. */
  readonly windowSeconds: number;
}

/** monitorEventLoopDelay's sampling interval in the serving thread (prom-client's default too). */
export const LOOP_RESOLUTION_MS = 10;

/**
 * A window's figures from monitorEventLoopDelay's histogram (nanoseconds between its samples, so each
 * holds the sampling interval: taken off here). undefined for a window without a sample.
 */
export function loopDelayOf(h: { readonly count: number; readonly max: number; percentile(p: number): number }, windowSeconds: number): LoopDelay | undefined {
  if (h.count === 0) return undefined;
  const delay = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS) / 1000;
  return { p50: delay(h.percentile(50)), p99: delay(h.percentile(99)), max: delay(h.max), windowSeconds };
}

/**
 * The serving thread's delay as gauges of the process metrics, beside prom-client's nodejs_eventloop_lag_*
 * of the main thread and left out with them (--web.disable-exporter-metrics); named `delay`, not `lag`,
 * because the sampling interval is taken off.
 */
export function servingThreadLoopText(d: LoopDelay): string {
  const families: readonly (readonly [name: string, value: number, what: string])[] = [
    ['nodejs_serving_thread_eventloop_delay_p50_seconds', d.p50, 'The median'],
    ['nodejs_serving_thread_eventloop_delay_p99_seconds', d.p99, 'The 99th percentile'],
    ['nodejs_serving_thread_eventloop_delay_max_seconds', d.max, 'The maximum'],
  ];
  return families
    .map(
      ([name, v, what]) =>
        `# HELP ${name} ${what} of the serving thread's event-loop delay over its last ${d.windowSeconds} s window (--web.serving-thread), in seconds: how long a request could wait before that thread ran it.\n` +
        `# TYPE ${name} gauge\n${name} ${Number.isFinite(v) ? v : 'NaN'}\n`,
    )
    .join('');
}
