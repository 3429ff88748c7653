/**
 * The V8 flags `run` sets for the whole process from the `runtime.*` settings, before the first request
 * (process-wide, so in the command and not in startExporter: tests run many exporters in one process).
 *
 * - `--liftoff-only` unless runtime.http-parser-tier-up: undici's HTTP parser (llhttp) is WebAssembly,
 *   and V8's optimizing recompilation of its one huge parse function holds about 35 MB for a moment at
 *   the first answers (bench/RESULTS.md: a single node's peak RSS 119 MB with it, about 100 MB without).
 *   Liftoff's code is fast enough here: llhttp reads the headers; a body is skipped by its length.
 * - `--heap-growing-percent=N` unless runtime.heap-growing-percent is 0: after each full GC, V8 lets the old
 *   generation grow by a factor it picks from GC and allocation speed (1.1 to 4). A fleet's start-up pass, a
 *   burst of answers, made it pick large ones: one build's 100-target process peaked anywhere from 198 to
 *   340 MB. A fixed factor makes the heap live × (1 + N/100), a few MB above its minimum step. V8 reads the
 *   flag each time it sets the next limit, so setting it at run time works (unlike the semi-space sizes).
 *   The default, 35, is where a 1,000-target fleet kept its CPU (bench/RESULTS.md: 25 cost it 17 points of a
 *   core, 50 let its RSS creep 15 % from minute 2).
 * - with `optimizeForSize` (runtime.optimize-for-size; unset: below OPTIMIZE_FOR_SIZE_AUTO_TARGETS targets,
 *   src/config/settings.ts), memory over speed: `--optimize-for-size`; `--no-turbofan`, because the
 *   optimizing compiler's own memory was about 8 MB of a single node's peak RSS (bench/README.md), and a
 *   single node's CPU is mostly JSON.parse and the network, which it does not speed up;
 *   `--semi-space-growth-factor=1`: the young generation keeps its initial 1 MB semi-spaces
 *   instead of doubling up to 16 MB while the first cycle decodes every answer at once. V8 fixes the
 *   largest semi-space when the heap is made, but reads the growth factor each time it would grow it,
 *   so this one works at run time.
 */
export function v8Flags(runtime: { readonly httpParserTierUp: boolean; readonly heapGrowingPercent: number }, optimizeForSize: boolean): string[] {
  const flags: string[] = [];
  if (!runtime.httpParserTierUp) flags.push('--liftoff-only');
  if (runtime.heapGrowingPercent > 0) flags.push(`--heap-growing-percent=${runtime.heapGrowingPercent}`);
  if (optimizeForSize) flags.push('--optimize-for-size', '--no-turbofan', '--semi-space-growth-factor=1');
  return flags;
}

/**
 * Node.js's own options the shipped launchers start the exporter with (the Dockerfile's ENTRYPOINT, the
 * systemd unit, `npm start`): options of the process that no code can set once it runs, so they live in
 * the command that starts it (test/packaging checks the three agree with this list).
 *
 * - `--v8-pool-size=1`: one V8 helper thread beside the main thread, not Node's default four. V8 runs its
 *   background GC (concurrent marking and sweeping, parallel scavenges and compaction) on that pool; four
 *   helpers on a 2-core machine that also runs the node ran behind each other and the main thread.
 *   Measured on 1,000 targets of one mainnet-scale node, 2 cores, nine 150 s runs alternated
 *   (bench/RESULTS.md): median exporter CPU 98 % of a core with four helpers, 83 % with one; median paced
 *   /probe p99 41 against 18 ms; median ticks skipped 694 against 288 (the machine is noisy: one run with
 *   one helper was as bad as the worst with four, one with four as good as most with one). An
 *   exporter is a guest on its node's host: one helper is its share.
 */
export const NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];
