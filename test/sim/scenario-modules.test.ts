// A scenario of the simulated node is one module in one place (issue 22, point 5): simulated-node/src/scenarios/
// holds one file per scenario, listed once in scenarios/index.ts; the README's scenario tables are
// checked against the modules; and no other file of simulated-node/src compares scenario names (the services
// consult the active scenario's hooks).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS, SCENARIO_HELP, SCENARIO_MODULES, isScenarioName, scenarioNamed } from '@avalanche-exporter/simulated-node';

const SIM_DIR = fileURLToPath(new URL('../../simulated-node/src/', import.meta.url));
const SCENARIO_DIR = join(SIM_DIR, 'scenarios');

/** The rows `| \`name\` | effect |` of the README's "Scenarios and control" section, in order. */
function readmeRows(): Array<{ name: string; effect: string }> {
  const text = readFileSync(join(SIM_DIR, '..', 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('## Scenarios and control'));
  return [...section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)].map((m) => ({ name: m[1] as string, effect: m[2] as string }));
}

/** The code of a TypeScript file without its comments (line comments and blocks; good enough for simulated-node/src). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('scenario modules', () => {
  it('default: one file per scenario, named after it, and each file listed once in index.ts', () => {
    const files = readdirSync(SCENARIO_DIR)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'scenario.ts')
      .map((f) => f.slice(0, -'.ts'.length))
      .sort();
    expect([...SCENARIOS].sort()).toEqual(files);
    expect(new Set(SCENARIOS).size).toBe(SCENARIOS.length);
    for (const name of files) {
      const text = readFileSync(join(SCENARIO_DIR, `${name}.ts`), 'utf8');
      expect(text, name).toContain(`name: '${name}',`);
    }
    expect(SCENARIOS).toEqual(SCENARIO_MODULES.map((s) => s.name));
  });

  it('default: the name, the help line and the lookup agree', () => {
    for (const s of SCENARIO_MODULES) {
      expect(isScenarioName(s.name)).toBe(true);
      expect(scenarioNamed(s.name)).toBe(s);
      expect(SCENARIO_HELP[s.name]).toBe(s.help);
      expect(s.help.length, s.name).toBeGreaterThan(5);
      expect(s.effect.length, s.name).toBeGreaterThan(5);
    }
    expect(isScenarioName('no-such-scenario')).toBe(false);
    expect(isScenarioName(undefined)).toBe(false);
    expect(Object.keys(SCENARIO_HELP)).toEqual(SCENARIOS);
  });

  it('default: README.md lists every scenario once, in the list order, with the effect its module holds', () => {
    const rows = readmeRows();
    expect(rows.map((r) => r.name)).toEqual(SCENARIOS);
    for (const s of SCENARIO_MODULES) {
      const row = rows.find((r) => r.name === s.name);
      expect(`| \`${s.name}\` | ${row?.effect} |`, `README row of ${s.name}`).toBe(`| \`${s.name}\` | ${s.effect} |`);
    }
  });

  it('default: healthy sets no hook (every hook left out means "as in healthy")', () => {
    expect(Object.keys(scenarioNamed('healthy')).sort()).toEqual(['effect', 'help', 'name']);
  });

  it('default: no file of simulated-node/src outside scenarios/ names a scenario in its code (only the default, healthy)', () => {
    const names = SCENARIOS.filter((n) => n !== 'healthy');
    const offenders: string[] = [];
    // cli.ts is exempt: its --help text names scenarios in prose ('slow', an example with bootstrapping).
    for (const f of readdirSync(SIM_DIR).filter((x) => x.endsWith('.ts') && x !== 'cli.ts')) {
      const c = code(readFileSync(join(SIM_DIR, f), 'utf8'));
      for (const n of names) if (c.includes(`'${n}'`) || c.includes(`"${n}"`) || c.includes(`\`${n}\``)) offenders.push(`${f}: ${n}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the comment stripper keeps code and drops comments', () => {
    expect(code("const a = 'down'; // 'slow'\n/* 'garbage' */ const u = 'http://x';")).toBe("const a = 'down'; \n const u = 'http://x';");
  });
});
