import { readdir, readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';

/**
 * --runtime.collecting-niceness: the threads that collect run at a lower CPU priority than the serving
 * thread (Linux niceness, per thread). `run` sets it once the serving thread listens (process-wide, so in
 * the command and not in startExporter: tests run many exporters in one process, and each would add to it).
 *
 * Why: with a big fleet the main thread (collection, decoding, renders), V8's GC helper and libuv's
 * pool (gzip) keep one of two cores busy most of the time, and the serving thread, which answers a
 * /probe from bytes it already holds, waited for the CPU behind them. Measured on 1,000 targets of one
 * mainnet-scale node, 2 cores, 21 runs of 150 s on two days, 9 at niceness 5 and 12 at 0 (bench/RESULTS.md):
 * median paced /probe p99 13.1 against 17.5 ms; a static server's in the same rounds 7.9 against 9.9 ms
 * (the whole machine answers faster while the collection yields), so the exporter's own excess over it
 * moved less (6.2 against 7.8 ms; on the second day 5.4 against 4.9); CPU, ticks skipped and start-up did
 * not change consistently. It is also the right order on a validator's host: the exporter's collection
 * yields to the node.
 *
 * How: every task of /proc/self/task but the serving thread is raised to the serving thread's niceness
 * plus N (at most 19); a thread already there or above is left alone, so a second call changes nothing.
 * libuv's pool is started first (the directory is read through it), so its threads are in the list;
 * threads made later inherit their creator's niceness. Raising niceness needs no privilege; lowering it
 * does (CAP_SYS_NICE or RLIMIT_NICE), so a serving thread started again after a crash, made by the main
 * thread, starts at the collectors' niceness, and ServingThread tries to bring it back (and logs which).
 * Off Linux (no /proc/self/task) nothing is changed and `run` logs that once.
 */

/** One thread of this process: its id and niceness (-20 to 19). */
export interface ThreadNice {
  readonly tid: number;
  readonly nice: number;
  /** The thread's name (/proc/<pid>/task/<tid>/comm, at most 15 bytes): for the log. */
  readonly name: string;
}

/** The highest niceness Linux has. */
export const MAX_NICENESS = 19;

/**
 * A line of /proc/<pid>/task/<tid>/stat: its name (field 2, in parentheses and able to hold any byte,
 * so read up to the LAST ')') and niceness (field 19). undefined for a line not of that form.
 */
export function parseTaskStat(tid: number, stat: string): ThreadNice | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // After ')': field 3 (state) is the first; niceness, field 19, is the 17th.
  const nice = Number(stat.slice(close + 2).split(' ')[16]);
  if (!Number.isInteger(nice) || nice < -20 || nice > MAX_NICENESS) return undefined;
  return { tid, nice, name: stat.slice(open + 1, close) };
}

/** Which threads to raise, and to what: every thread but `servingTid` below its niceness + `step` (at most 19). */
export function niceOrders(threads: readonly ThreadNice[], servingTid: number, step: number): { target: number; raise: ThreadNice[] } | undefined {
  const serving = threads.find((t) => t.tid === servingTid);
  if (!serving || step <= 0) return undefined;
  const target = Math.min(MAX_NICENESS, serving.nice + step);
  return { target, raise: threads.filter((t) => t.tid !== servingTid && t.nice < target) };
}

/** This process's threads now (empty off Linux, or where /proc is not mounted). */
export async function ownThreads(): Promise<ThreadNice[]> {
  let tids: string[];
  try {
    tids = await readdir('/proc/self/task');
  } catch {
    return [];
  }
  const threads: ThreadNice[] = [];
  for (const tid of tids) {
    // A thread may end between the listing and the read.
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
    const t = parseTaskStat(Number(tid), stat);
    if (t) threads.push(t);
  }
  return threads;
}

export interface NicenessOutcome {
  /** The niceness the collecting threads were raised to (undefined: nothing was done, see `reason`). */
  readonly niceness?: number;
  readonly raised: readonly string[];
  /** Threads that could not be raised (gone, or refused), with the error code. */
  readonly failed: readonly string[];
  readonly reason?: string;
}

/** Raises every thread of this process but the serving thread `servingTid` to its niceness + `step`. */
export async function lowerCollectingThreads(servingTid: number, step: number): Promise<NicenessOutcome> {
  const threads = await ownThreads();
  if (threads.length === 0) return { raised: [], failed: [], reason: 'this system has no /proc/self/task (per-thread niceness is Linux only)' };
  const orders = niceOrders(threads, servingTid, step);
  if (!orders) return { raised: [], failed: [], reason: `the serving thread (${servingTid}) is not a thread of this process` };
  const raised: string[] = [];
  const failed: string[] = [];
  for (const t of orders.raise) {
    try {
      setPriority(t.tid, orders.target);
      raised.push(`${t.tid} ${t.name}`);
    } catch (err) {
      failed.push(`${t.tid} ${t.name}: ${systemErrorCode(err)}`);
    }
  }
  return { niceness: orders.target, raised, failed };
}

/** The system's code of a failed os.setPriority (EACCES, ESRCH: Node wraps it in ERR_SYSTEM_ERROR). */
export function systemErrorCode(err: unknown): string {
  const e = err as { info?: { code?: unknown }; code?: unknown };
  return typeof e?.info?.code === 'string' ? e.info.code : typeof e?.code === 'string' ? e.code : String(err);
}
