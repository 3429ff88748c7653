// The dashboards type-check against @grafana/grafana-foundation-sdk, whose types are generated from
// Grafana's schema (issue 18): the project compiles (src/monitoring included), and a panel with an
// option Grafana does not have does not.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/proc.js';

/** Type errors of one TypeScript source placed (in memory only) at `path` inside the repository, with the project's compiler options. */
function typeErrors(path: string, source: string): string[] {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!cfg) throw new Error('cannot read tsconfig.json');
  // One probe file, not the composite project (which must list every file it compiles).
  const options = { ...cfg.options, noEmit: true, composite: false, declaration: false, incremental: false, tsBuildInfoFile: undefined };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, onError, create) => (f === path ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, onError, create));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => f === path || fileExists(f);
  const program = ts.createProgram([path], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const VIRTUAL = join(ROOT, 'src', 'monitoring', 'dashboards', '__type_probe__.ts');

describe('dashboards type-check against the Grafana foundation SDK', () => {
  it('default: tsc --noEmit passes on the whole project (src/monitoring included)', () => {
    const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 120_000);

  it('default: a panel written with the kit compiles', () => {
    const ok = `import { statPanel, steps, instant } from './kit.js';
export const p = statPanel('x').withTarget(instant('avax_up').refId('A')).thresholds(steps(['green', null])).unit('s').build();`;
    expect(typeErrors(VIRTUAL, ok)).toEqual([]);
  });

  it('error: options Grafana does not accept do not compile (an unknown colour mode, calcs not a list, a table option on a stat)', () => {
    const bad = `import * as common from '@grafana/grafana-foundation-sdk/common';
import { statPanel } from './kit.js';
export const a = statPanel('x').colorMode('rainbow');
export const b = statPanel('x').reduceOptions(new common.ReduceDataOptionsBuilder().calcs('last'));
export const c = statPanel('x').cellHeight(common.TableCellHeight.Sm);`;
    const errors = typeErrors(VIRTUAL, bad);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain(`'"rainbow"' is not assignable to parameter of type 'BigValueColorMode'`);
    expect(errors[1]).toContain(`'string' is not assignable to parameter of type 'string[]'`);
    expect(errors[2]).toContain(`Property 'cellHeight' does not exist`);
  });
});
