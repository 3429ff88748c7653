import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real avalanchego networks: their own run after this one (test/realnet/vitest.config.ts, `npm test`).
    exclude: ['test/realnet/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one file at a time on a 2-core machine (cores - 1): 685 s there against 436 s
    // with two, most files waiting on child processes (Prometheus, promtool, vmalert) or on loopback.
    // Two at least: the suite passed the same with a busy loop on one of the two cores (600 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
