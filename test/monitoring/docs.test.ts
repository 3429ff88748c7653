// The documentation of the settings says what the code does (issue 18): alerts/README.md lists every
// threshold with its default, examples/monitoring.yaml has every setting (and works with the other
// examples), and the settings table of docs/alerts-and-dashboards.md names every top-level key.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { GENERATED_MARK, generateHeader, renderFiles, writeFiles } from '../../src/monitoring/generate.js';
import { budgetTable, nodeDaysToProve, withAlertsTable, withBudgetTable } from '../../src/monitoring/alert-docs.js';
import { FALSE_PAGE_BUDGET, budgetPerNodeDay } from '../../src/monitoring/rules/types.js';
import { RULE_GROUPS } from '../../src/monitoring/rules/index.js';
import { groupRules } from '../../src/monitoring/rules/render.js';
import { DEFAULT_SETTINGS, GROUP_NAMES, THRESHOLD_KEYS, isDurationThreshold, parseSettings, parseSettingsYaml, settingsSchema, thresholdText, type MonitoringSettings, type Thresholds } from '../../src/monitoring/settings.js';
import { THRESHOLD_DOCS, withExampleThresholds, withThresholdTable } from '../../src/monitoring/threshold-docs.js';
import { KEY_METRICS_URL, officialTable, withOfficialTable } from '../../src/monitoring/official-docs.js';
import { onPath } from '../e2e/helpers/programs.js';
import { ROOT } from '../helpers/proc.js';

const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const PROMTOOL = onPath('promtool');
const shown = (k: keyof Thresholds): string => thresholdText(k, DEFAULT_SETTINGS.thresholds[k]);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('alerts/README.md', () => {
  const readme = readFileSync(join(ROOT, 'alerts', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Thresholds operators tune'), readme.indexOf('\n## ', readme.indexOf('## Thresholds operators tune') + 5));
  const rows = [...section.matchAll(/^\| `(\w+)` \| `([^`]+)` \| ([^|]+) \|/gm)].map((m) => ({ key: m[1]!, def: m[2]!, alerts: m[3]!.trim() }));

  it('default: the thresholds table lists every threshold setting once, with its default and the alert it feeds', () => {
    expect(rows.map((r) => r.key)).toEqual(Object.keys(DEFAULT_SETTINGS.thresholds));
    for (const r of rows) {
      expect(r.def, r.key).toBe(shown(r.key as keyof Thresholds));
      expect(r.alerts, r.key).toMatch(/^Avalanche[A-Za-z]+/);
    }
  });

  it('default: the table is what settings.ts and threshold-docs.ts generate (run `npm run monitoring`)', () => {
    expect(readme).toBe(withThresholdTable(readme, DEFAULT_SETTINGS.thresholds));
  });

  it('behavior: every row shows the value it is generated with (no default written by hand in a row)', () => {
    // Every threshold changed at once, to a value no default has: each row must show its own.
    const changed = Object.fromEntries(THRESHOLD_KEYS.map((k, i) => [k, k === 'vantages' ? 37 : DEFAULT_SETTINGS.thresholds[k] > 0 && DEFAULT_SETTINGS.thresholds[k] < 1 ? (123 + i) / 1e4 : 7 * 86400 + 60 * (i + 1)])) as Thresholds;
    for (const k of THRESHOLD_KEYS) {
      const row = withThresholdTable(readme, changed).split('\n').find((l) => l.startsWith(`| \`${k}\` |`))!;
      const cells = row.split(/(?<!\\)\|/).map((c) => c.trim());
      expect(cells[2], k).toBe(`\`${thresholdText(k, changed[k])}\``);
      const forms = [thresholdText(k, changed[k]), String(changed[k]), `${changed[k] / 86400} * 86400`];
      expect(forms.some((f) => cells[4]!.includes(f)), `${k}: ${cells[4]}`).toBe(true);
    }
  });

  it('default: the Builders Hub comparison is what official-docs.ts generates, with the thresholds in use', () => {
    expect(readme).toBe(withOfficialTable(readme, DEFAULT_SETTINGS.thresholds));
    expect(readme).toContain(KEY_METRICS_URL);
    const changed = { ...DEFAULT_SETTINGS.thresholds, pollFailureRatio: 0.0321, badBlocks: 4321, connectedStakeLow: 0.654, blocksProcessingCritical: 987 };
    const table = officialTable(changed);
    for (const shownValue of ['3.21 %', '4321', '65.4 %', '987']) expect(table).toContain(shownValue);
  });

  it('default: it tells operators to generate, not to edit the files', () => {
    expect(readme).toContain('avalanche-exporter generate --config monitoring.yaml --out');
    expect(readme).not.toMatch(/Edit the number in the expression/);
  });
});

describe('examples/monitoring.yaml', () => {
  const text = readFileSync(join(ROOT, 'examples', 'monitoring.yaml'), 'utf8');
  const settings = parseSettingsYaml(text, 'examples/monitoring.yaml');

  it('default: its thresholds are what settings.ts and threshold-docs.ts generate (run `npm run monitoring`), one comment each', () => {
    expect(text).toBe(withExampleThresholds(text, DEFAULT_SETTINGS.thresholds));
    for (const k of THRESHOLD_KEYS) expect(THRESHOLD_DOCS[k].example, k).toMatch(/^Avalanche[A-Za-z]+/);
  });

  it('default: every setting is written out; the values are the defaults but for the selector and the data source of the other examples', () => {
    const doc = YAML.parse(text) as Record<string, unknown>;
    expect(Object.keys(doc).sort()).toEqual(Object.keys(settingsSchema.shape).sort());
    expect(Object.keys(doc['thresholds'] as object)).toEqual(Object.keys(DEFAULT_SETTINGS.thresholds));
    expect({ ...settings, selector: {}, datasource: undefined }).toEqual(DEFAULT_SETTINGS);
    // The job of examples/prometheus.yml and the data source of examples/grafana/provisioning.
    const prom = YAML.parse(readFileSync(join(ROOT, 'examples', 'prometheus.yml'), 'utf8')) as { scrape_configs: { job_name: string }[] };
    expect(settings.selector).toEqual({ job: prom.scrape_configs[0]!.job_name });
    const dsDir = join(ROOT, 'examples', 'grafana', 'provisioning', 'datasources');
    const ds = YAML.parse(readFileSync(join(dsDir, readdirSync(dsDir)[0]!), 'utf8')) as { datasources: { name: string }[] };
    expect(settings.datasource).toBe(ds.datasources[0]!.name);
  });

  it.skipIf(!PROMTOOL && !CI)('behavior: the rules generated from it pass promtool check rules', () => {
    if (!PROMTOOL) throw new Error('promtool is not on PATH but CI is set: install the Debian package `prometheus`');
    const out = mkdtempSync(join(tmpdir(), 'avax-monitoring-example-'));
    dirs.push(out);
    const files = renderFiles(settings, generateHeader('test', 'examples/monitoring.yaml'));
    writeFiles(out, files, { protect: true });
    expect(files.every((f) => GENERATED_MARK.test(f.text))).toBe(true);
    const rules = readdirSync(join(out, 'alerts')).map((f) => `alerts/${f}`);
    expect(rules).toHaveLength(7);
    const r = spawnSync(PROMTOOL, ['check', 'rules', ...rules], { cwd: out, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(out, 'alerts', 'node.rules.yaml'), 'utf8')).toContain('avax_peers{job="avalanche-exporter"} < on(target) group_left()');
    expect(readFileSync(join(out, 'alerts', 'node.rules.yaml'), 'utf8')).toContain('- 1), 20)');
  });
});

describe('docs/alerts-and-dashboards.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'alerts-and-dashboards.md'), 'utf8');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = doc.indexOf('## Fitting the rules and dashboards to your setup');
  const next = doc.indexOf('\n## ', start + 5);
  const section = doc.slice(start, next < 0 ? undefined : next);

  it('default: the settings table names every top-level setting; the section says why the SDK is a runtime dependency', () => {
    const keys = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(keys.sort()).toEqual(Object.keys(settingsSchema.shape).sort());
    // No count to keep by hand: alerts/README.md (generated) lists them.
    expect(section).toContain('the tunable numbers of the alerts');
    expect(section).toContain('runtime dependency');
    for (const text of [doc, readme]) expect(text).not.toContain('dashboards/provisioning');
  });
});

describe('alerts/README.md: which alert each threshold feeds', () => {
  const readme = readFileSync(join(ROOT, 'alerts', 'README.md'), 'utf8');
  const rulesOf = (s: MonitoringSettings) => GROUP_NAMES.flatMap((g) => groupRules(RULE_GROUPS[g], s));
  const base = rulesOf(DEFAULT_SETTINGS);
  /** The alerts whose expression or for: changes when threshold `k` moves a little. */
  const fedBy = (k: keyof Thresholds): Set<string> => {
    const v = DEFAULT_SETTINGS.thresholds[k];
    const moved = isDurationThreshold(k) ? v + 60 : Number.isInteger(v) ? v + 1 : v * 0.9;
    const changed = rulesOf(parseSettings({ thresholds: { [k]: moved } }));
    return new Set(changed.filter((r, i) => r.expr !== base[i]!.expr || r.for !== base[i]!.for).map((r) => r.alert));
  };
  const named = (text: string) => new Set(text.match(/\bAvalanche[A-Za-z0-9]+|\bWatchdog\b/g) ?? []);

  it('default: each row names exactly the alerts whose rules the threshold changes', () => {
    for (const k of THRESHOLD_KEYS) expect([...named(THRESHOLD_DOCS[k].alerts)].sort(), k).toEqual([...fedBy(k)].sort());
  });

  it('default: "Nothing to tune in the other alerts" names exactly the alerts no threshold changes', () => {
    const tuned = new Set(THRESHOLD_KEYS.flatMap((k) => [...fedBy(k)]));
    const paragraph = readme.slice(readme.indexOf('Nothing to tune in the other alerts'), readme.indexOf('\n\n', readme.indexOf('Nothing to tune in the other alerts')));
    expect([...named(paragraph)].sort()).toEqual([...new Set(base.map((r) => r.alert))].filter((a) => !tuned.has(a)).sort());
  });

  it('default: the table of rule files is generated from the rule groups (run `npm run monitoring`)', () => {
    expect(readme).toBe(withAlertsTable(readme, DEFAULT_SETTINGS));
  });

  it('default: the false-page budget is stated, generated from FALSE_PAGE_BUDGET (run `npm run monitoring`)', () => {
    expect(readme).toBe(withBudgetTable(readme));
    expect(readme).toContain(budgetTable());
    // one row per severity, each saying its budget
    for (const [sev, b] of Object.entries(FALSE_PAGE_BUDGET)) expect(readme).toContain(`| ${sev} | ${b.pages} per ${b.nodeDays.toLocaleString('en-US')} node-days |`);
  });

  it('behavior: a budget needs -ln(0.05) / budget node-days without a false page to be proven; stricter severities need more', () => {
    expect(nodeDaysToProve(1 / 100)).toBe(300); // 299.57: the rule of three
    expect(nodeDaysToProve(1 / 1000)).toBe(2996);
    expect(budgetPerNodeDay('critical')).toBeLessThan(budgetPerNodeDay('warning'));
    expect(budgetPerNodeDay('warning')).toBeLessThan(budgetPerNodeDay('info'));
  });
});
