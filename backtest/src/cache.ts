// The simulated series of a timeline depend only on the timeline, the code that produced them (the
// simulator, the exporter, the runner) and the metric names kept; the blocks are cached under that
// key, so that a change of the rules or of Alertmanager's configuration (the tuning loop) re-runs
// the queries only. A cache entry is complete once its run.json is written (last).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Files of backtest/dist that do not take part in producing the series (analysis, report). */
const ANALYSIS_ONLY = new Set([
  'alertmanager-config.js', 'amtool.js', 'cache.js', 'cli.js', 'evaluate.js', 'figures.js', 'library.js', 'notifications.js',
  'pipeline.js', 'promtool-check.js', 'prometheus.js', 'report.js', 'state-machine.js', 'vmalert.js', 'programs.js', 'worker.js',
]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.js') ? [p] : [];
  });
}

/**
 * Hash of the compiled code that produces the series: the exporter's dist/ (without the docs and
 * monitoring files), the simulated node's and the backtest's (without its analysis files).
 */
export function codeHash(root: string): string {
  const h = createHash('sha256');
  for (const [name, distDir] of [['exporter', join(root, 'dist')], ['simulated-node', join(root, 'simulated-node', 'dist')], ['backtest', join(root, 'backtest', 'dist')]] as const) {
    for (const f of existsSync(distDir) ? files(distDir).sort() : []) {
      const rel = relative(distDir, f);
      if (name === 'exporter' && (rel.startsWith('monitoring/') || rel.startsWith('docs/'))) continue;
      if (name === 'backtest' && ANALYSIS_ONLY.has(rel)) continue;
      h.update(name).update('/').update(rel).update('\0').update(readFileSync(f)).update('\0');
    }
  }
  return h.digest('hex');
}

export function cacheKey(timelineText: string, code: string, kept: ReadonlySet<string>): string {
  return createHash('sha256').update(timelineText).update('\0').update(code).update('\0').update([...kept].sort().join(',')).digest('hex').slice(0, 16);
}

export interface CacheEntry {
  readonly dir: string;
  readonly tsdb: string;
  readonly meta: string;
}

export function cacheEntry(root: string, name: string, key: string): CacheEntry {
  const dir = join(root, `${name}-${key}`);
  return { dir, tsdb: join(dir, 'tsdb'), meta: join(dir, 'run.json') };
}

export function readCached<T>(e: CacheEntry): T | undefined {
  if (!existsSync(e.meta)) return undefined;
  try {
    return JSON.parse(readFileSync(e.meta, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeCached(e: CacheEntry, meta: unknown): void {
  writeFileSync(e.meta, JSON.stringify(meta));
}

/** A fresh (empty) entry directory; other entries of the same timeline are removed (one per timeline). */
export function resetEntry(root: string, name: string, e: CacheEntry): void {
  mkdirSync(root, { recursive: true });
  for (const f of readdirSync(root)) if (f.startsWith(`${name}-`) && /^[0-9a-f]{16}$/.test(f.slice(name.length + 1))) rmSync(join(root, f), { recursive: true, force: true });
  mkdirSync(e.dir, { recursive: true });
}
