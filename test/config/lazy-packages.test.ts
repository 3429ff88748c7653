// yaml and bcryptjs are loaded only by the setups that use them (issue 17: a single node watched with
// flags does not pay their memory). Checked in a fresh Node.js process on the compiled dist/.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/proc.js';

/** The packages in the CommonJS module cache after running `body` (an ES module snippet) in a fresh process. */
function loadedAfter(body: string): string[] {
  const script = `import { createRequire } from 'node:module';
const { loadConfig } = await import(${JSON.stringify(`${ROOT}/dist/config/load.js`)});
${body}
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(['yaml', 'bcryptjs'].filter((p) => cache.some((k) => k.includes('/node_modules/' + p + '/')))));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('packages only some setups need are loaded on first use', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('default: one node from flags: neither yaml nor bcryptjs is loaded', () => {
    expect(loadedAfter(`loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650'], env: {} });`)).toEqual([]);
  });

  it('behavior: a --config.file loads yaml (and still not bcryptjs)', () => {
    expect(loadedAfter(`loadConfig({ argv: ['--config.file', 'x.yaml'], env: {}, readFile: () => 'targets: [{ url: "http://127.0.0.1:9650" }]' });`)).toEqual(['yaml']);
  });
});
