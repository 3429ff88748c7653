// The Grafana SDK is a runtime dependency only so that `avalanche-exporter generate` works where the
// package is installed; the exporter itself (`run`, `demo`, `check-config`, `healthcheck`, `sim`) must
// never load it (issue 18). Checked on the compiled dist/: every import (static, and `import()` too)
// of every module outside dist/monitoring/, followed from dist/cli.js.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/proc.js';

const DIST = join(ROOT, 'dist');
const SDK = '@grafana/grafana-foundation-sdk';

interface Imports {
  static: string[];
  dynamic: string[];
}

/** The specifiers a compiled ES module imports: `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, and `import('x')` with a literal. */
function importsOf(file: string): Imports {
  const src = readFileSync(file, 'utf8')
    .replace(/\/\*[^]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const stat = [...src.matchAll(/^\s*(?:import|export)\s+(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const dyn = [...src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return { static: stat, dynamic: dyn };
}

/** Every module reachable from `entry` over static and dynamic imports, stopping at the modules `stop` accepts. */
function closure(entry: string, stop: (file: string, from: string) => boolean): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    const { static: s, dynamic: d } = importsOf(f);
    for (const spec of [...s, ...d]) {
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        continue;
      }
      const target = resolve(dirname(f), spec);
      if (stop(target, f)) continue;
      if (existsSync(target)) todo.push(target);
    }
  }
  return { files, packages };
}

const inMonitoring = (f: string) => relative(DIST, f).startsWith(`monitoring/`);

describe('the exporter does not load the Grafana SDK', () => {
  beforeAll(() => ensureBuilt());

  it('default: from dist/cli.js, outside dist/monitoring/, no module imports the SDK, and only cli.js reaches dist/monitoring/ (by a lazy import())', () => {
    const entries: string[] = [];
    const { files, packages } = closure(join(DIST, 'cli.js'), (target, from) => {
      if (inMonitoring(target)) entries.push(`${relative(DIST, from)} → ${relative(DIST, target)}`);
      return inMonitoring(target);
    });
    // The exporter's own modules are in the closure (the walk is not vacuous).
    for (const m of ['main.js', 'config/load.js', 'metrics/descriptors.js']) expect(files.has(join(DIST, m)), m).toBe(true);
    // The simulated node (`demo`, `sim`) is a package of its own, with no dependency but bs58 (test/sim/independence.test.ts).
    expect(packages.has('@avalanche-exporter/simulated-node')).toBe(true);
    expect(files.size).toBeGreaterThan(40);
    expect(packages.has('prom-client')).toBe(true);
    expect([...packages].filter((p) => p === SDK)).toEqual([]);
    // The one way in: cli.js's `generate`, dynamically.
    expect(entries).toEqual(['cli.js → monitoring/command.js']);
    expect(importsOf(join(DIST, 'cli.js')).static.filter((s) => s.includes('monitoring'))).toEqual([]);
  });

  it('default: every module outside dist/monitoring/ is free of SDK imports, static or dynamic', () => {
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.js') ? [join(d, e.name)] : []));
    const all = walk(DIST);
    const outside = all.filter((f) => !inMonitoring(f));
    expect(outside.length).toBeGreaterThan(40);
    // The package's front door (library.js, what the backtest imports) passes on the false-page budget of
    // src/monitoring/rules/types.ts: its imports of dist/monitoring/ are allowed when nothing they reach loads the SDK (checked below).
    const backtest = (f: string) => f === join(DIST, 'library.js');
    const offenders = outside.filter((f) => {
      const i = importsOf(f);
      return [...i.static, ...i.dynamic].some((s) => s.startsWith(SDK) || (f !== join(DIST, 'cli.js') && !backtest(f) && /(^|\/)monitoring\//.test(s)));
    });
    expect(offenders.map((f) => relative(DIST, f))).toEqual([]);
  });

  it('default: the front door the backtest imports (library.js) reaches dist/monitoring/ only where the SDK is not loaded', () => {
    const reached: string[] = [];
    const { packages } = closure(join(DIST, 'library.js'), (target) => {
      if (inMonitoring(target)) reached.push(relative(DIST, target));
      return false;
    });
    expect(reached.length).toBeGreaterThan(0); // the budget: the walk is not vacuous
    expect([...packages].filter((p) => p === SDK)).toEqual([]);
  });

  it('default: the walk finds the SDK from the generate command (sanity: the check can fail)', () => {
    const { packages } = closure(join(DIST, 'monitoring', 'command.js'), () => false);
    expect(packages.has(SDK)).toBe(true);
    expect(importsOf(join(DIST, 'monitoring', 'dashboards', 'kit.js')).static.some((s) => s.startsWith(`${SDK}/`))).toBe(true);
  });

  it('default: the Kubernetes models (kubernetes-models, @kubernetes-models/*) are imported only by dist/monitoring/formats/, which command.js loads by import() for --format', () => {
    const K8S = /^(kubernetes-models|@kubernetes-models\/)/;
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.js') ? [join(d, e.name)] : []));
    const importers = walk(DIST).filter((f) => {
      const i = importsOf(f);
      return [...i.static, ...i.dynamic].some((s) => K8S.test(s));
    });
    expect(importers.length).toBeGreaterThan(0);
    for (const f of importers) expect(relative(DIST, f)).toMatch(/^monitoring\/formats\//);
    const command = importsOf(join(DIST, 'monitoring', 'command.js'));
    expect(command.static.filter((s) => s.includes('formats/'))).toEqual([]);
    expect(command.dynamic.filter((s) => s.includes('formats/')).length).toBeGreaterThan(0);
    // generate --format files (command.js and what it imports statically) never reaches them.
    const { packages } = closure(join(DIST, 'monitoring', 'command.js'), (target, from) => importsOf(from).dynamic.some((d) => resolve(dirname(from), d) === target));
    expect([...packages].filter((p) => K8S.test(p))).toEqual([]);
  });
});
