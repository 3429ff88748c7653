// The realnet suite (real avalanchego networks): run after the rest of `npm test`, one file at a time, so
// that its nodes do not share two cores with the other suites' child processes (and each network has the
// machine to itself while it starts).
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/realnet/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 400_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default'],
  },
});
