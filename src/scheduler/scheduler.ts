import { setMaxListeners } from 'node:events';
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { isBaseInterval } from '../config/intervals.js';
import { Semaphore } from '../semaphore.js';
import type { TargetSnapshot } from '../snapshot.js';
import type { TargetRunner } from './target-runner.js';

export interface SchedulerOptions {
  intervalSeconds: number;
  maxConcurrentTargets: number;
  logger: Logger;
  /** Called with each finished target cycle's snapshot (publish it). */
  onCycle: (snapshot: TargetSnapshot) => void;
}

interface Entry {
  runner: TargetRunner;
  running?: Promise<void>;
  offsetMs: number;
  /** Its first cycle (start-up: staggered, every collector) has ended. */
  startedUp: boolean;
  /**
   * Aborted when the scheduler stops: what the target's waits, collector runs and requests listen to.
   * One per target, so that their many short-lived listeners are not all on one signal (Node's
   * EventTarget finds a listener to remove by walking the list: with 1,000 targets, removing them from
   * the scheduler's one signal was 3 % of the main thread, CPU profile of issue 21).
   */
  shutdown: AbortController;
  /** Takes the target's signal off the scheduler's (when the target is removed). */
  unlink: () => void;
}

/** At most one cycle_overlap warning per process in this time. */
const OVERLAP_LOG_EVERY_MS = 3600_000;
/** A cycle_overlap warning names at most this many targets (those that skipped the most ticks). */
const OVERLAP_NAMES = 10;

/**
 * One node-cron task for the fleet: each tick starts a cycle of every target, and a target whose previous
 * cycle is still running skips it (trigger()), so a slow or dead target never delays another. (One task
 * per target cost node-cron's planning of 1,000 next ticks in one go at every tick: 1,000 targets,
 * bench/RESULTS.md issue 21.) Targets are
 * staggered across the first part of the interval and at most `maxConcurrentTargets` run at once.
 * A skipped tick is a warning (cycle_overlap: one line for the fleet at most once per OVERLAP_LOG_EVERY_MS,
 * at the first tick that skips after it, with how many targets skipped how many ticks since the last one and
 * the names of those that skipped most; an overloaded fleet skips ticks of most of its targets, and a line per
 * target was 826 lines in the first ten minutes of 1,000 targets, bench rows 7; which target skips is
 * avax_collection_skipped_ticks_total) except while the target's start-up
 * cycle runs: a fleet's first pass is spread over half an interval and queued behind the concurrency
 * bound, so whether its targets meet the first cron tick depends only on when the process started
 * (0 to 92 warnings per start of 100 targets, bench/RESULTS.md).
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly abort = new AbortController();
  private readonly sem: Semaphore;
  private task: ScheduledTask | undefined;
  private stopped = false;
  /** Ticks skipped per target since the last cycle_overlap warning, and when that was (ms, Date.now). */
  private readonly skippedSinceWarning = new Map<string, number>();
  private overlapWarnedAt = -Infinity;

  constructor(private readonly opts: SchedulerOptions) {
    this.sem = new Semaphore(opts.maxConcurrentTargets);
    // One listener per target (its own shutdown signal, Entry.shutdown): a fleet has more than the default 10.
    setMaxListeners(0, this.abort.signal);
  }

  /** Adds targets; each runs once right away (staggered), then on the cron schedule. */
  add(runners: readonly TargetRunner[]): void {
    const all = [...this.entries.values()].length + runners.length;
    // Spread the fleet over at most half the interval, never more than 1 s between two targets.
    const step = Math.min(1000, (this.opts.intervalSeconds * 1000) / 2 / Math.max(1, all));
    let i = this.entries.size;
    for (const runner of runners) {
      const shutdown = new AbortController();
      // A cycle's collectors of one wave each listen to it while they run.
      setMaxListeners(0, shutdown.signal);
      const stop = () => shutdown.abort(this.abort.signal.reason);
      if (this.abort.signal.aborted) stop();
      else this.abort.signal.addEventListener('abort', stop, { once: true });
      const unlink = () => this.abort.signal.removeEventListener('abort', stop);
      const entry: Entry = { runner, offsetMs: Math.round(i++ * step), startedUp: false, shutdown, unlink };
      this.entries.set(runner.name, entry);
      if (this.stopped) continue;
      void this.trigger(entry, true);
    }
    // No node-cron noOverlap: trigger() skips a tick per target, and names the target in its warning
    // (node-cron's own overlap warning names neither and is routed to debug, main.ts routeCronLogs).
    if (!this.stopped && !this.task && this.entries.size > 0) this.task = cron.schedule(cronFor(this.opts.intervalSeconds), () => this.tick(), { name: 'collection' });
  }

  /** A cron tick: a cycle of every target (staggered), each skipped while its previous one runs. */
  private tick(): void {
    for (const e of this.entries.values()) void this.trigger(e, true);
    this.warnOverlaps(Date.now());
  }

  /** The cycle_overlap warning, if ticks were skipped and the last one is OVERLAP_LOG_EVERY_MS old. */
  private warnOverlaps(now: number): void {
    if (this.skippedSinceWarning.size === 0 || now - this.overlapWarnedAt < OVERLAP_LOG_EVERY_MS) return;
    let skippedTicks = 0;
    for (const n of this.skippedSinceWarning.values()) skippedTicks += n;
    const most = [...this.skippedSinceWarning].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.opts.logger.warn(
      {
        event: 'cycle_overlap',
        skippedTargets: most.length,
        targets: this.entries.size,
        skippedTicks,
        mostSkipped: most.slice(0, OVERLAP_NAMES).map(([name]) => name),
        ...(this.overlapWarnedAt > -Infinity ? { sinceMs: now - this.overlapWarnedAt } : {}),
      },
      'previous cycle still running; tick skipped (these targets are collected less often than every interval: fewer targets per process, a longer --collection.interval, or a faster node; avax_collection_skipped_ticks_total says which, and the next warning comes in an hour at the earliest)',
    );
    this.skippedSinceWarning.clear();
    this.overlapWarnedAt = now;
  }

  /** Stops and removes targets (their series are removed by the caller). */
  async remove(names: readonly string[]): Promise<TargetRunner[]> {
    const removed: TargetRunner[] = [];
    for (const name of names) {
      const e = this.entries.get(name);
      if (!e) continue;
      this.entries.delete(name);
      this.skippedSinceWarning.delete(name);
      e.unlink();
      await e.running?.catch(() => {});
      removed.push(e.runner);
    }
    return removed;
  }

  runners(): TargetRunner[] {
    return [...this.entries.values()].map((e) => e.runner);
  }

  /** Runs one cycle of every target now and waits for it (tests, benchmarks). */
  async runAllOnce(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.trigger(e, false)));
  }

  /** `stagger`: a scheduled run (start-up or a cron tick), not runAllOnce(): only those skip ticks. */
  private trigger(entry: Entry, stagger: boolean): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (entry.running) {
      if (entry.startedUp && stagger) {
        entry.runner.noteSkippedTick();
        const name = entry.runner.name;
        this.skippedSinceWarning.set(name, (this.skippedSinceWarning.get(name) ?? 0) + 1);
      }
      return entry.running;
    }
    const signal = entry.shutdown.signal;
    entry.running = (async () => {
      if (stagger && entry.offsetMs > 0) await sleep(entry.offsetMs, signal);
      if (signal.aborted) return;
      if (!(await this.sem.acquire(signal).then(() => true, () => false))) return;
      let snapshot: TargetSnapshot;
      try {
        snapshot = await entry.runner.runCycle(signal);
      } finally {
        this.sem.release();
      }
      if (!signal.aborted && this.entries.get(entry.runner.name) === entry) this.opts.onCycle(snapshot);
    })()
      .catch((err) => this.opts.logger.error({ target: entry.runner.name, err: String(err) }, 'cycle crashed'))
      .finally(() => {
        entry.running = undefined;
        entry.startedUp = true;
      });
    return entry.running;
  }

  /** Stops scheduling, aborts running cycles, waits for them (bounded). */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    await this.task?.destroy();
    this.task = undefined;
    this.abort.abort(new Error('shutting down'));
    const running = [...this.entries.values()].map((e) => e.running).filter(Boolean);
    await Promise.race([Promise.allSettled(running), sleep(graceMs)]);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** node-cron expression (with seconds) of a base interval the configuration accepted (config/intervals.ts isBaseInterval). */
export function cronFor(seconds: number): string {
  if (!isBaseInterval(seconds)) throw new Error(`no cron schedule for a base interval of ${seconds} s: it must divide a minute or an hour`);
  return seconds < 60 ? `*/${seconds} * * * * *` : seconds === 60 ? '0 * * * * *' : `0 */${seconds / 60} * * * *`;
}
