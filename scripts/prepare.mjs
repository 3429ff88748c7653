// npm `prepare` (runs on `npm ci` / `npm install` in a clone, `npm pack`, `npm install -g <clone>`):
// builds the simulated node's dist/ and then the exporter's dist/ (the exporter's `demo` imports the
// simulated node's package), without source maps, as the package ships them (the maps would point at
// src/, which the package does not ship). The backtest is built by `npm run build`, never shipped. Without the dev dependencies (`npm ci --omit=dev` after a build) an existing
// dist/ is kept; with neither, it says what to run instead of failing on a missing `tsc`.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  if (existsSync('dist/cli.js') && existsSync('simulated-node/dist/index.js')) {
    console.error('avalanche-exporter prepare: TypeScript is not installed (production install); keeping the existing dist/');
    process.exit(0);
  }
  console.error('avalanche-exporter prepare: building dist/ needs the dev dependencies: run `npm ci` in the clone first (then `npm install -g .` if you want the command on PATH)');
  process.exit(1);
}
for (const project of ['simulated-node', '.']) {
  rmSync(`${project}/dist`, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [tsc, '-p', `${project}/tsconfig.json`, '--sourceMap', 'false'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
