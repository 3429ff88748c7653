// The exporter process's own metrics (src/metrics/process-metrics.ts): prom-client's process_* and
// nodejs_*, and with the serving thread on, that thread's event-loop delay.
import { describe, expect, it } from 'vitest';
import { LOOP_RESOLUTION_MS, loopDelayOf, processMetrics, servingThreadLoopText } from '../../src/metrics/process-metrics.js';
import { promtoolCheck } from '../helpers/promtool.js';

/** A histogram as monitorEventLoopDelay keeps it: nanoseconds between samples. */
const histogram = (samplesMs: number[]) => {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    max: (sorted.at(-1) ?? 0) * 1e6,
    percentile: (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 1e6,
  };
};

describe('process metrics: the serving thread\'s event-loop delay', () => {
  it('takes the sampling interval off each figure: an idle thread is 0, a stall is its length', () => {
    const idle = loopDelayOf(histogram(Array.from({ length: 100 }, () => LOOP_RESOLUTION_MS + 0.1)), 15);
    expect(idle!.p50).toBeCloseTo(0.0001, 6);
    expect(idle!.max).toBeCloseTo(0.0001, 6);
    // 98 quiet samples, one 30 ms late, one 250 ms late.
    const stalled = loopDelayOf(histogram([...Array.from({ length: 98 }, () => LOOP_RESOLUTION_MS), LOOP_RESOLUTION_MS + 30, LOOP_RESOLUTION_MS + 250]), 15)!;
    expect(stalled).toEqual({ p50: 0, p99: 0.03, max: 0.25, windowSeconds: 15 });
    // A sample earlier than the interval (the monitor's own timer) is no negative delay.
    expect(loopDelayOf(histogram([LOOP_RESOLUTION_MS - 1]), 15)!.p50).toBe(0);
    expect(loopDelayOf(histogram([]), 15)).toBeUndefined();
  });

  it('renders three gauges that promtool accepts, each named once in full', () => {
    const text = servingThreadLoopText({ p50: 0.0004, p99: 0.012, max: 0.25, windowSeconds: 15 });
    expect(text.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual([
      'nodejs_serving_thread_eventloop_delay_p50_seconds 0.0004',
      'nodejs_serving_thread_eventloop_delay_p99_seconds 0.012',
      'nodejs_serving_thread_eventloop_delay_max_seconds 0.25',
    ]);
    expect(text).toContain('over its last 15 s window');
    promtoolCheck(text); // throws with promtool's words
    expect(servingThreadLoopText({ p50: NaN, p99: 0, max: 0, windowSeconds: 15 })).toContain('nodejs_serving_thread_eventloop_delay_p50_seconds NaN');
  });

  it('is in the process metrics only once the thread has reported a window', async () => {
    let loop: ReturnType<typeof loopDelayOf>;
    const text = processMetrics(() => loop);
    expect(await text()).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(await text()).not.toContain('nodejs_serving_thread_eventloop_delay');
    loop = { p50: 0, p99: 0.002, max: 0.004, windowSeconds: 15 };
    const after = await text();
    expect(after).toContain('nodejs_serving_thread_eventloop_delay_p99_seconds 0.002');
    promtoolCheck(after);
  });
});
