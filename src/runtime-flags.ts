/**
 * The V8 flags `run` sets for the whole process from the `runtime.*` settings, before the first request
 * (process-wide, so in the command and not in startExporter: tests run many exporters in one process).
 *
 * - `--liftoff-only` unless runtime.http-parser-tier-up: undici's HTTP parser (llhttp) is WebAssembly,
 *   and V8's optimizing recompilation of its one huge parse function holds about 35 MB for a moment at
 *   the first answers (bench/RESULTS.md: a single node's peak RSS 119 MB with it, about 100 MB without).
 *   Liftoff's code is fast enough here: llhttp reads the headers; a body is skipped by its length.
 * - `--optimize-for-size` with runtime.optimize-for-size (memory over speed, README Performance).
 */
export function v8Flags(runtime: { readonly optimizeForSize: boolean; readonly httpParserTierUp: boolean }): string[] {
  const flags: string[] = [];
  if (!runtime.httpParserTierUp) flags.push('--liftoff-only');
  if (runtime.optimizeForSize) flags.push('--optimize-for-size');
  return flags;
}
