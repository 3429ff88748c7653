// The scheduler's tick policy: a tick that finds the target's previous cycle still running is
// skipped; that is a warning (cycle_overlap, one line for the fleet at most hourly) except during the target's start-up
// cycle, whose overlap with the first cron tick depends only on when the process started.
import { afterEach, describe, expect, it } from 'vitest';
import cron from 'node-cron';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import type { TargetRunner } from '../../src/scheduler/target-runner.js';
import type { TargetSnapshot } from '../../src/snapshot.js';
import { memoryLogger } from '../helpers/log.js';
import { waitFor } from '../helpers/proc.js';

/** A runner whose cycles take the given times (ms), one after the other; later cycles take the last. */
function slowRunner(name: string, cycleMs: number[]) {
  let n = 0;
  let firstEndedAt = Infinity;
  let skipped = 0;
  const runner = {
    name,
    noteSkippedTick: () => void skipped++,
    async runCycle(signal: AbortSignal): Promise<TargetSnapshot> {
      const ms = cycleMs[Math.min(n, cycleMs.length - 1)]!;
      n++;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
      if (n === 1) firstEndedAt = Date.now();
      return { target: { name } } as unknown as TargetSnapshot;
    },
  };
  return { runner: runner as unknown as TargetRunner, cycles: () => n, firstEndedAt: () => firstEndedAt, skipped: () => skipped };
}

let scheduler: Scheduler | undefined;
afterEach(async () => {
  await scheduler?.stop(1000);
  scheduler = undefined;
});

const overlaps = (lines: () => Record<string, unknown>[]) => lines().filter((l) => l['event'] === 'cycle_overlap');

describe('scheduler: skipped ticks', () => {
  it('behavior: a tick skipped while the start-up cycle runs is not a warning', async () => {
    const log = memoryLogger('debug');
    // The start-up cycle spans at least two 1 s ticks; later cycles are quick.
    const r = slowRunner('a', [2300, 10]);
    scheduler = new Scheduler({ intervalSeconds: 1, maxConcurrentTargets: 4, logger: log.logger, onCycle: () => {} });
    scheduler.add([r.runner]);
    await waitFor(() => r.cycles() >= 3, 15_000, 50);
    // none while the start-up cycle ran (its two or three ticks were skipped: the second cycle came after it)
    expect(overlaps(log.lines).filter((l) => (l['time'] as number) <= r.firstEndedAt())).toEqual([]);
    // nor counted in avax_collection_skipped_ticks_total (later cycles are quick: no skip at all)
    expect(r.skipped()).toBe(0);
  });

  it('behavior: later cycles that outlast a tick are a warning naming the target, at most one per hour', async () => {
    const log = memoryLogger('debug');
    // start-up quick, then every cycle spans two or three ticks: ticks are skipped again and again
    const r = slowRunner('b', [10, 2300]);
    scheduler = new Scheduler({ intervalSeconds: 1, maxConcurrentTargets: 4, logger: log.logger, onCycle: () => {} });
    scheduler.add([r.runner]);
    await waitFor(() => overlaps(log.lines).length >= 1, 15_000, 50);
    expect(overlaps(log.lines)[0]).toMatchObject({ event: 'cycle_overlap', skippedTargets: 1, targets: 1, skippedTicks: 1, mostSkipped: ['b'] });
    await waitFor(() => r.cycles() >= 4, 20_000, 50); // two more slow cycles, more skipped ticks
    expect(overlaps(log.lines)).toHaveLength(1);
    // the counter (avax_collection_skipped_ticks_total) counts every skip, the log only the first of the hour
    expect(r.skipped()).toBeGreaterThanOrEqual(2);
  });

  it('behavior: a fleet whose targets all fall behind logs one line for the fleet, naming at most 10 of them, not one per target', async () => {
    const log = memoryLogger('debug');
    // 15 targets, start-up quick, then every cycle spans two or three ticks
    const fleet = Array.from({ length: 15 }, (_, i) => slowRunner(`t${String(i).padStart(2, '0')}`, [10, 2300]));
    scheduler = new Scheduler({ intervalSeconds: 1, maxConcurrentTargets: 15, logger: log.logger, onCycle: () => {} });
    scheduler.add(fleet.map((f) => f.runner));
    await waitFor(() => fleet.every((f) => f.skipped() >= 2), 20_000, 50);
    const lines = overlaps(log.lines);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line['targets']).toBe(15);
    const named = line['mostSkipped'] as string[];
    expect(named.length).toBe(Math.min(10, line['skippedTargets'] as number));
    expect(named.every((n) => fleet.some((f) => f.runner.name === n))).toBe(true);
    expect(line['skippedTicks']).toBeGreaterThanOrEqual(line['skippedTargets'] as number);
    expect(line).not.toHaveProperty('target');
  });
});

describe('scheduler: one cron task for the fleet', () => {
  it('default: 200 targets, added in two batches, make one node-cron task whose ticks run every target; stop ends it', async () => {
    const log = memoryLogger('debug');
    const before = cron.getTasks().size;
    const fleet = Array.from({ length: 200 }, (_, i) => slowRunner(`t${i}`, [5]));
    scheduler = new Scheduler({ intervalSeconds: 1, maxConcurrentTargets: 50, logger: log.logger, onCycle: () => {} });
    scheduler.add(fleet.slice(0, 150).map((f) => f.runner));
    scheduler.add(fleet.slice(150).map((f) => f.runner));
    expect(cron.getTasks().size - before).toBe(1);
    // the start-up cycle, then at least one cron tick for every target
    await waitFor(() => fleet.every((f) => f.cycles() >= 2), 15_000, 50);
    await scheduler.stop(1000);
    scheduler = undefined;
    expect(cron.getTasks().size - before).toBe(0);
  });
});

describe('scheduler: stop', () => {
  it('behavior: stop aborts the running cycle through its target\'s signal, and targets still waiting for their turn never start', async () => {
    const log = memoryLogger('debug');
    let aborted = 0;
    let started = 0;
    const hanging = (name: string) =>
      ({
        name,
        noteSkippedTick: () => {},
        runCycle: (signal: AbortSignal) =>
          new Promise<TargetSnapshot>((resolve) => {
            started++;
            signal.addEventListener('abort', () => (aborted++, resolve({ target: { name } } as unknown as TargetSnapshot)), { once: true });
          }),
      }) as unknown as TargetRunner;
    // one at a time: the first hangs, the others wait for the semaphore (or still sleep in their stagger)
    scheduler = new Scheduler({ intervalSeconds: 60, maxConcurrentTargets: 1, logger: log.logger, onCycle: () => {} });
    scheduler.add([hanging('a'), hanging('b'), hanging('c')]);
    await waitFor(() => started === 1, 5_000, 10);
    const grace = 30_000;
    const t0 = Date.now();
    await scheduler.stop(grace);
    scheduler = undefined;
    expect(Date.now() - t0).toBeLessThan(grace / 2); // it ended because the cycles did, not by the grace period
    expect(aborted).toBe(1);
    expect(started).toBe(1);
  });
});
