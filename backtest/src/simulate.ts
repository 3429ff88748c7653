// One timeline from its file to TSDB blocks: parse, run in simulated time (runner.ts), backfill with
// promtool, and keep the blocks in the cache (cache.ts); a cached entry is used as it is.
// Runs in a worker thread (worker.ts) so that two timelines simulate at once on two cores.
import { join } from 'node:path';
import { cacheEntry, cacheKey, readCached, resetEntry, writeCached } from './cache.js';
import { backfill, BLOCK_MS } from './prometheus.js';
import { runTimeline, type RunResult } from './runner.js';
import { parseTimeline } from './timeline.js';

export interface SimulateRequest {
  readonly file: string;
  readonly text: string;
  readonly cacheRoot: string;
  readonly code: string;
  readonly keep: readonly string[];
  /** ignore the cache (and replace the entry) */
  readonly fresh?: boolean;
}

/** What the analysis needs of a run (JSON: it crosses the worker boundary and sits in the cache). */
export type RunMeta = Omit<RunResult, 'files'> & { readonly samples: number; readonly backfillMs: number };

export interface Simulated {
  readonly file: string;
  readonly tsdb: string;
  readonly meta: RunMeta;
  readonly cached: boolean;
}

export async function simulate(req: SimulateRequest, progress?: (msg: string) => void): Promise<Simulated> {
  const timeline = parseTimeline(req.text, req.file);
  const keep = new Set(req.keep);
  const entry = cacheEntry(req.cacheRoot, timeline.name, cacheKey(req.text, req.code, keep));
  if (!req.fresh) {
    const meta = readCached<RunMeta>(entry);
    if (meta) return { file: req.file, tsdb: entry.tsdb, meta, cached: true };
  }
  resetEntry(req.cacheRoot, timeline.name, entry);
  const run = await runTimeline({
    timeline,
    dir: join(entry.dir, 'openmetrics'),
    keep,
    fileWindowMs: BLOCK_MS,
    progress: progress ? (done, total) => progress(`${timeline.name}: ${Math.round((100 * done) / total)}% of ${Math.round(total / 3_600_000)}h simulated`) : undefined,
  });
  const filled = await backfill(run.files, entry.tsdb);
  const { files: _files, ...rest } = run;
  const meta: RunMeta = { ...rest, samples: filled.samples, backfillMs: filled.wallMs };
  writeCached(entry, meta);
  return { file: req.file, tsdb: entry.tsdb, meta, cached: false };
}
