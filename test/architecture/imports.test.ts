// The layering of src/ (docs/ARCHITECTURE.md): no import cycle, each layer imports only what it may,
// a collector never imports another collector, and no source file grows past ~400 lines.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** src-relative path → src-relative paths it imports (relative imports only; `import type` included). */
function graph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of files(SRC)) {
    const text = readFileSync(f, 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'|await import\('(\.[^']+)'\)/gm)]
      .map((m) => m[1] ?? m[2] ?? m[3]!)
      .map((d) => relative(SRC, resolve(dirname(f), d)).replace(/\.js$/, '.ts'));
    out.set(relative(SRC, f), deps);
  }
  return out;
}

const layerOf = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : p.replace(/\.ts$/, ''));

/** What each layer may import (besides itself and npm packages). See docs/ARCHITECTURE.md. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  schemas: [],
  'node-client': ['abort', 'semaphore', 'redact'],
  collectors: ['schemas', 'node-client', 'model', 'avalanche', 'snapshot'],
  snapshot: ['collectors', 'model'],
  derive: ['collectors', 'schemas', 'model', 'avalanche', 'snapshot'],
  scheduler: ['collectors', 'node-client', 'model', 'snapshot', 'config', 'abort', 'redact', 'semaphore'],
  metrics: ['collectors', 'derive', 'snapshot', 'model', 'duration'],
  config: ['collectors', 'lazy-require', 'duration', 'listen-address'],
  server: ['metrics', 'snapshot', 'config', 'project-links', 'version', 'lazy-require', 'duration', 'listen-address'],
  docs: ['collectors', 'config', 'metrics', 'model', 'duration'],
  monitoring: ['metrics', 'config', 'project-links', 'version', 'duration'],
  sim: [],
};

describe('architecture', () => {
  const g = graph();

  it('default: no import cycle in src/', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (n: string, stack: string[]) => {
      if (state.get(n) === 'done') return;
      if (state.get(n) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(n)), n].join(' → '));
        return;
      }
      state.set(n, 'open');
      for (const d of g.get(n) ?? []) visit(d, [...stack, n]);
      state.set(n, 'done');
    };
    for (const n of g.keys()) visit(n, []);
    expect(cycles).toEqual([]);
  });

  it('behavior: the cycle check finds a cycle (self-test on a made-up graph)', () => {
    const fake = new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]]);
    const found = [...fake.keys()].some((n) => (fake.get(n) ?? []).some((d) => (fake.get(d) ?? []).includes(n)));
    expect(found).toBe(true);
  });

  it('default: each layer imports only the layers it may', () => {
    const problems: string[] = [];
    for (const [file, deps] of g) {
      const layer = layerOf(file);
      const allowed = MAY_IMPORT[layer];
      if (!allowed) continue; // main.ts and cli.ts wire everything
      for (const d of deps) {
        const dl = layerOf(d);
        if (dl !== layer && !allowed.includes(dl)) problems.push(`${file} imports ${d} (${layer} may import ${allowed.join(', ') || 'nothing'})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('default: a collector never imports another collector (only define, support and node-id-set)', () => {
    // node-metrics-signals/-pick and prometheus-text are node-metrics' own table, picker and reader (not collectors).
    const shared = new Set(['collectors/define.ts', 'collectors/support.ts', 'collectors/node-id-set.ts', 'collectors/node-metrics-signals.ts', 'collectors/node-metrics-pick.ts', 'collectors/prometheus-text.ts']);
    const problems: string[] = [];
    for (const [file, deps] of g) {
      if (!file.startsWith('collectors/') || file === 'collectors/index.ts') continue;
      for (const d of deps) if (d.startsWith('collectors/') && !shared.has(d)) problems.push(`${file} imports ${d}`);
    }
    expect(problems).toEqual([]);
  });

  it('default: only cli.ts starts the exporter (main.ts only wires)', () => {
    const importers = [...g].filter(([, deps]) => deps.includes('main.ts')).map(([f]) => f);
    expect(importers).toEqual(['cli.ts']);
  });

  it('default: no source file over 400 lines', () => {
    const long = files(SRC)
      .map((f) => ({ f: relative(SRC, f), n: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.n > 400)
      .map((x) => `${x.f}: ${x.n} lines`);
    expect(long).toEqual([]);
  });
});
