// The layering of src/ (docs/ARCHITECTURE.md): no import cycle, each layer imports only what it may
// and only layers below it, a collector never imports another collector, and no source file grows past
// ~400 lines. The three packages (the exporter at the top, simulated-node/, backtest/) meet only at
// their front doors: their package names, never a path into another package.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesBelow, specifiers } from '../helpers/sources.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
/** The workspace packages' sources, by the name other packages import them by. */
const PACKAGES = {
  'avalanche-exporter': SRC,
  '@avalanche-exporter/simulated-node': join(ROOT, 'simulated-node', 'src'),
  '@avalanche-exporter/backtest': join(ROOT, 'backtest', 'src'),
} as const;
type PackageName = keyof typeof PACKAGES;
/** Which of our packages each package may import (by name only). */
const PACKAGE_MAY_IMPORT: Readonly<Record<PackageName, readonly PackageName[]>> = {
  'avalanche-exporter': ['@avalanche-exporter/simulated-node'],
  '@avalanche-exporter/simulated-node': [],
  '@avalanche-exporter/backtest': ['avalanche-exporter', '@avalanche-exporter/simulated-node'],
};
/** The TypeScript files below `dir`. */
const files = (dir: string): string[] => filesBelow(dir, /\.ts$/);

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

/**
 * The layers of src/, lowest first, and what each may import besides itself and npm packages: only layers
 * listed before it (checked below), so every arrow points down. docs/ARCHITECTURE.md's layer table is this
 * table (checked below too). main.ts and cli.ts wire everything and are not listed.
 */
const LAYERS: readonly (readonly [layer: string, mayImport: readonly string[]])[] = [
  // Root utilities: each imports nothing of ours.
  ['abort', []],
  ['semaphore', []],
  ['redact', []],
  ['lazy-require', []],
  ['project-links', []],
  ['version', []],
  ['logger', []],
  ['runtime-check', []],
  ['runtime-flags', []],
  ['runtime-priority', []],
  ['duration', []],
  ['listen-address', []],
  ['avalanche', []],
  ['model', []],
  ['target', []],
  ['schemas', []],
  ['node-client', ['abort', 'semaphore', 'redact']],
  ['collectors', ['model', 'target', 'avalanche', 'schemas', 'node-client']],
  ['snapshot', ['model', 'target', 'collectors']],
  ['derive', ['model', 'avalanche', 'schemas', 'collectors', 'snapshot']],
  ['metrics', ['duration', 'model', 'target', 'collectors', 'snapshot', 'derive']],
  ['config', ['lazy-require', 'duration', 'listen-address', 'model', 'target', 'collectors', 'metrics']],
  ['scheduler', ['abort', 'semaphore', 'redact', 'model', 'target', 'node-client', 'collectors', 'snapshot', 'config']],
  ['server', ['lazy-require', 'project-links', 'version', 'runtime-priority', 'duration', 'listen-address', 'logger', 'snapshot', 'config', 'metrics']],
  ['docs', ['duration', 'model', 'collectors', 'config', 'metrics']],
  ['monitoring', ['project-links', 'version', 'duration', 'collectors', 'config', 'metrics']],
];
const MAY_IMPORT = new Map(LAYERS);
/**
 * Wiring: main.ts, cli.ts (which also starts the simulated node for `demo` and `sim`) and library.ts,
 * the package's front door for programs that run the exporter in their own process (the backtest).
 */
const WIRING = ['main', 'cli', 'library'];

/** Arrows that issue 22 removed by moving a helper to the layer that owns it: none may come back. */
const REMOVED: readonly (readonly [from: string, to: string, now: string])[] = [
  ['collectors', 'metrics', 'Sample and MetricDescriptor are in src/model.ts; the descriptors assembly imports collectors'],
  ['snapshot', 'metrics', 'src/model.ts'],
  ['derive', 'metrics', 'src/model.ts (round6 too)'],
  ['scheduler', 'metrics', 'src/model.ts'],
  ['derive', 'node-client', 'PRIMARY_NETWORK_ID is in src/avalanche.ts'],
  ['metrics', 'config', 'formatDuration is in src/duration.ts'],
  ['config', 'scheduler', 'cronFor is in src/scheduler; config owns the interval rule (config/intervals.ts)'],
  ['config', 'server', 'cli.ts checks --web.config.file beside loadConfig'],
];

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
      if (WIRING.includes(layer)) continue;
      const allowed = MAY_IMPORT.get(layer);
      if (!allowed) {
        problems.push(`${file}: layer ${layer} is not in LAYERS (add it, and its row to docs/ARCHITECTURE.md)`);
        continue;
      }
      for (const d of deps) {
        const dl = layerOf(d);
        if (dl !== layer && !allowed.includes(dl)) problems.push(`${file} imports ${d} (${layer} may import ${allowed.join(', ') || 'nothing'})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('default: every allowed arrow points down the layers (a layer imports only layers listed before it)', () => {
    const order = LAYERS.map(([l]) => l);
    const up = LAYERS.flatMap(([l, may], i) => may.filter((m) => !order.slice(0, i).includes(m)).map((m) => `${l} → ${m}`));
    expect(up).toEqual([]);
  });

  it('default: the arrows the moves removed stay forbidden', () => {
    expect(REMOVED.filter(([from, to]) => MAY_IMPORT.get(from)?.includes(to)).map(([from, to, now]) => `${from} → ${to} (${now})`)).toEqual([]);
  });

  it('default: docs/ARCHITECTURE.md lists these layers in this order, each with what it may import', () => {
    const doc = readFileSync(resolve(SRC, '../docs/ARCHITECTURE.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Layers and what each may import'));
    const rows = section.split('\n').filter((l) => /^\| `src\//.test(l));
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const documented = rows.flatMap((row) => {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      const layers = ticked(cells[0]!).map((p) => layerOf(p.replace(/^src\//, '')));
      const may = cells[cells.length - 1] === 'everything' ? ['everything'] : ticked(cells[cells.length - 1]!);
      return layers.map((l) => [l, may] as const);
    });
    expect(documented).toEqual([...LAYERS, ...WIRING.map((w) => [w, ['everything']] as const)]);
  });

  it('default: a collector never imports another collector (only define, support and node-id-set)', () => {
    // node-metrics-signals/-ops/-pick and prometheus-text are node-metrics' own table, its data, picker and reader (not collectors).
    const shared = new Set(['collectors/define.ts', 'collectors/support.ts', 'collectors/node-id-set.ts', 'collectors/node-metrics-signals.ts', 'collectors/node-metrics-ops.ts', 'collectors/node-metrics-pick.ts', 'collectors/prometheus-text.ts']);
    const problems: string[] = [];
    for (const [file, deps] of g) {
      if (!file.startsWith('collectors/') || file === 'collectors/index.ts') continue;
      for (const d of deps) if (d.startsWith('collectors/') && !shared.has(d)) problems.push(`${file} imports ${d}`);
    }
    expect(problems).toEqual([]);
  });

  it('default: only cli.ts and library.ts (the front door the backtest runs it through) import main.ts', () => {
    const importers = [...g].filter(([, deps]) => deps.includes('main.ts')).map(([f]) => f);
    expect(importers.sort()).toEqual(['cli.ts', 'library.ts']);
  });

  it('default: the packages meet only at their front doors (a package name, never a path into another package)', () => {
    const problems: string[] = [];
    let crossings = 0;
    for (const [name, dir] of Object.entries(PACKAGES) as [PackageName, string][]) {
      for (const f of files(dir)) {
        for (const spec of specifiers(readFileSync(f, 'utf8'))) {
          const where = relative(ROOT, f);
          if (spec.startsWith('.')) {
            if (relative(dir, resolve(dirname(f), spec)).startsWith('..')) problems.push(`${where}: ${spec} is a path out of its package (import the package by name)`);
            continue;
          }
          const ours = (Object.keys(PACKAGES) as PackageName[]).find((p) => spec === p || spec.startsWith(`${p}/`));
          if (!ours) continue;
          crossings++;
          if (spec !== ours) problems.push(`${where}: ${spec} reaches past ${ours}'s front door (import '${ours}')`);
          else if (!PACKAGE_MAY_IMPORT[name].includes(ours)) problems.push(`${where}: ${name} may not import ${ours}`);
        }
      }
    }
    expect(crossings).toBeGreaterThan(4);
    expect(problems).toEqual([]);
  });

  it("default: each package's exports name one entry, and the exporter's is library.ts", () => {
    const doors = (dir: string) => Object.keys((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, string> }).exports ?? {}).filter((k) => k !== './package.json');
    expect(doors(ROOT)).toEqual(['.']);
    expect(doors(join(ROOT, 'simulated-node'))).toEqual(['.']);
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string> }).exports['.']).toBe('./dist/library.js');
  });

  it('default: no collector is named outside src/collectors, src/derive and src/monitoring (the rest reads what collectors declare)', async () => {
    const { COLLECTORS } = await import('../../src/collectors/index.js');
    const names = COLLECTORS.map((c) => c.name);
    // The Health API's call kind is spelled like the health collector; it names an API, not the collector.
    const notCollectors = new Set(['node-client/call.ts:health']);
    const problems: string[] = [];
    for (const f of files(SRC)) {
      const rel = relative(SRC, f);
      if (/^(collectors|derive|monitoring)\//.test(rel)) continue;
      const code = readFileSync(f, 'utf8').replace(/\/\*[^]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const n of names) if (code.includes(`'${n}'`) && !notCollectors.has(`${rel}:${n}`)) problems.push(`${rel} names the collector '${n}'`);
    }
    expect(names.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('default: no source file over 400 lines (in any package)', () => {
    const long = Object.values(PACKAGES)
      .flatMap((dir) => files(dir))
      .map((f) => ({ f: relative(ROOT, f), n: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.n > 400)
      .map((x) => `${x.f}: ${x.n} lines`);
    expect(long).toEqual([]);
  });
});
