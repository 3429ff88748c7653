// Issue 13: the simulator is an independent oracle on purpose. It shares no code with the exporter
// (src/): its own CB58, JSON-RPC envelope and constants, so that a decoding bug in
// the exporter cannot hide behind the same bug in the simulator. This test fails when a simulated-node/src
// file imports anything other than another simulated-node/src file, a node: builtin or an npm package.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow, specifiers } from '../helpers/sources.js';

const SIM_DIR = fileURLToPath(new URL('../../simulated-node/src/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The packages the simulated node may use are its own package.json's, never the exporter's.
const pkg = JSON.parse(readFileSync(join(ROOT, 'simulated-node', 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const NPM_PACKAGES = new Set(Object.keys(pkg.dependencies ?? {}));

/** Why `spec`, imported by the file at `file`, is not allowed; null when it is. */
function violation(file: string, spec: string): string | null {
  if (spec.startsWith('node:')) return null;
  if (spec.startsWith('.')) {
    const target = resolve(dirname(file), spec);
    const rel = relative(SIM_DIR, target);
    return rel.startsWith('..') || rel.startsWith(sep) ? `${spec} resolves outside simulated-node/src` : null;
  }
  if (spec.startsWith('/') || /^[A-Za-z]:/.test(spec)) return `${spec} is an absolute path`;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
  if (NPM_PACKAGES.has(name)) return null;
  if (builtinModules.includes(name)) return `${spec}: use the node: prefix for builtins`;
  return `${spec} is neither a simulated-node/src file, a node: builtin nor a package of simulated-node/package.json`;
}

/** The package's sources (JavaScript too, should one appear). */
const simSources = (): string[] => filesBelow(SIM_DIR, /\.(ts|js|mjs|cjs)$/);

describe('simulated-node/src is an independent oracle', () => {
  it('no simulated-node/src file imports from outside simulated-node/src (only node: builtins and npm packages)', () => {
    const files = simSources();
    expect(files.length).toBeGreaterThan(20);
    const bad: string[] = [];
    let imports = 0;
    for (const f of files) {
      for (const spec of specifiers(readFileSync(f, 'utf8'))) {
        imports++;
        const why = violation(f, spec);
        if (why) bad.push(`${relative(ROOT, f)}: ${why}`);
      }
    }
    expect(imports).toBeGreaterThan(50);
    expect(bad).toEqual([]);
  });

  it('the check catches what it must catch', () => {
    const f = join(SIM_DIR, 'server.ts');
    const cases: Array<[string, string, boolean]> = [
      ["import { x } from '../collectors/info-peers.js';", '../collectors/info-peers.js', false],
      ["import type {\n  Y,\n} from '../schemas/info.js';", '../schemas/info.js', false],
      ["export { z } from '../../src/util/cb58.js';", '../../src/util/cb58.js', false],
      ["import '../metrics/registry.js';", '../metrics/registry.js', false],
      ["const m = await import('../config.js');", '../config.js', false],
      ["import fs from 'fs';", 'fs', false],
      ["import q from 'left-pad';", 'left-pad', false],
      ["import { COLLECTORS } from 'avalanche-exporter';", 'avalanche-exporter', false],
      ["import { z } from 'zod';", 'zod', false],
      ["import ok from './node-model.js';", './node-model.js', true],
      ["import bs58 from 'bs58';", 'bs58', true],
      ["import http from 'node:http';", 'node:http', true],
    ];
    for (const [line, spec, allowed] of cases) {
      expect(specifiers(line), line).toEqual([spec]);
      expect(violation(f, spec) === null, line).toBe(allowed);
    }
    expect(violation(join(SIM_DIR, 'sub', 'x.ts'), '../server.js')).toBeNull();
  });

  it('every simulated-node/src file says so in its header', () => {
    for (const f of simSources()) {
      const head = readFileSync(f, 'utf8').split('\n').slice(0, 15).join('\n');
      expect(head, relative(ROOT, f)).toContain('independent oracle ON PURPOSE');
    }
  });
});
