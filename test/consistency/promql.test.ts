// Consistency of the shipped alert rules, dashboards and runbook:
// - every PromQL expression parses (lezer-promql) and uses only avax_* metrics documented in the
//   project's metric contract (docs/metrics.md, generated from the code) and present in the golden
//   /metrics output;
// - every alert has a runbook section and a matching runbook_url, and promtool test cases;
// - dashboards keep their fixed uids and use the datasource and target variables everywhere;
// - promtool check rules / test rules pass (when promtool is installed; always in CI).
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { METRICS_DOC, documentedFamilies } from '../helpers/metrics-doc.js';
// The one PromQL reader of the tests (lezer-promql, the parser of Prometheus' own UI).
import { parsePromQL } from '../monitoring/helpers.js';
import { repositoryWebUrl } from '../../src/project-links.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const alertsDir = path.join(repoRoot, 'alerts');
const alertTestsDir = path.join(alertsDir, 'tests');
const dashboardsDir = path.join(repoRoot, 'dashboards');
const runbookPath = path.join(repoRoot, 'docs', 'runbook.md');
/** The golden /metrics outputs: fixture answers (v1.14.2), and a real v1.15.0 node's (its C-Chain on SAE). */
const goldenPaths = ['metrics.txt', 'metrics-real-v1.15.0.txt'].map((f) => path.join(repoRoot, 'test', 'golden', f));
// The runbook links follow package.json `repository` (the one place to change the project's home).
const pkgRepository = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { repository?: unknown }).repository;
const RUNBOOK_BASE = `${repositoryWebUrl(pkgRepository) ?? 'package.json has no https repository URL'}/blob/main/docs/runbook.md`;
const EXPECTED_DASHBOARDS: Record<string, string> = {
  'avalanche-overview.json': 'avax-overview',
  'avalanche-node.json': 'avax-node',
  'avalanche-validator.json': 'avax-validator',
  'avalanche-node-internals.json': 'avax-node-internals',
};
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];
/**
 * The always-firing heartbeat of the alerting pipeline, named as in every Prometheus stack: `vector(1)` (no
 * series, no target, no value worth showing), firing at once. The checks below that it cannot meet exempt it
 * by this name, and only it.
 */
const WATCHDOG = 'Watchdog';
const TARGET_SENTINEL = 'TARGET_VARIABLE';

// ------------------------------------------------------------------ loading

interface Rule {
  file: string;
  group: string;
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function listFiles(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => path.join(dir, f));
}

const ruleFiles = listFiles(alertsDir, '.rules.yaml');
const ruleTestFiles = listFiles(alertTestsDir, '.test.yaml');
const dashboardFiles = listFiles(dashboardsDir, '.json');

function loadRules(): Rule[] {
  const out: Rule[] = [];
  for (const file of ruleFiles) {
    const doc = YAML.parse(readFileSync(file, 'utf8')) as { groups?: { name: string; rules?: Omit<Rule, 'file' | 'group'>[] }[] };
    for (const g of doc.groups ?? []) {
      for (const r of g.rules ?? []) out.push({ ...r, expr: String(r.expr), file: path.relative(repoRoot, file), group: g.name });
    }
  }
  return out;
}

interface Panel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: { type?: string; uid?: string } | string | null;
  targets?: { expr?: string; refId?: string; datasource?: { type?: string; uid?: string } | string | null }[];
  panels?: Panel[];
}
interface Dashboard {
  uid?: string;
  id?: number | null;
  title?: string;
  schemaVersion?: number;
  __inputs?: unknown;
  panels?: Panel[];
  templating?: { list?: Record<string, unknown>[] };
}

function loadDashboard(file: string): Dashboard {
  return JSON.parse(readFileSync(file, 'utf8')) as Dashboard;
}

/** Every panel, including those nested in rows (collapsed rows keep theirs in `panels`). */
function allPanels(d: Dashboard): Panel[] {
  const out: Panel[] = [];
  const walk = (ps: Panel[] | undefined): void => {
    for (const p of ps ?? []) {
      out.push(p);
      walk(p.panels);
    }
  };
  walk(d.panels);
  return out;
}

interface Expr {
  where: string;
  expr: string;
  dashboard: boolean;
}

function allExprs(): Expr[] {
  const out: Expr[] = loadRules().map((r) => ({ where: `${r.file} ${r.alert ?? r.record}`, expr: r.expr, dashboard: false }));
  for (const file of dashboardFiles) {
    const d = loadDashboard(file);
    for (const p of allPanels(d)) {
      for (const t of p.targets ?? []) {
        if (t.expr === undefined) continue;
        out.push({ where: `${path.relative(repoRoot, file)} panel "${p.title}" ${t.refId}`, expr: t.expr, dashboard: true });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ PromQL

/** Replace Grafana template variables by harmless values so the expression is plain PromQL. */
function substituteVariables(expr: string): string {
  return expr
    .replace(/\$\{?__(rate_interval|interval|range|range_s|range_ms|interval_ms)\}?/g, (_m, v: string) =>
      v.endsWith('_s') || v.endsWith('_ms') ? '300' : '5m',
    )
    .replace(/\$\{?target(?::\w+)?\}?/g, TARGET_SENTINEL)
    .replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]/g, 'x');
}

// ------------------------------------------------------------------ the contract

interface Contract {
  names: Set<string>;
  histograms: Set<string>;
}

function loadContract(): Contract {
  const names = new Set<string>();
  const histograms = new Set<string>();
  for (const f of documentedFamilies().values()) {
    names.add(f.name);
    // A summary's _sum and _count (no _bucket) are checked like a histogram's.
    if (f.type === 'histogram' || f.type === 'summary') histograms.add(f.name);
  }
  return { names, histograms };
}

function inContract(name: string, c: Contract): boolean {
  if (c.names.has(name)) return true;
  return HISTOGRAM_SUFFIXES.some((s) => name.endsWith(s) && c.histograms.has(name.slice(0, -s.length)));
}

function goldenNames(): Set<string> {
  const names = new Set<string>();
  for (const line of goldenPaths.flatMap((p) => readFileSync(p, 'utf8').split('\n'))) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}

function referencedAvaxMetrics(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const e of allExprs()) {
    for (const s of parsePromQL(substituteVariables(e.expr)).selectors) {
      if (!s.metric?.startsWith('avax_')) continue;
      used.set(s.metric, [...(used.get(s.metric) ?? []), e.where]);
    }
  }
  // template variable queries: label_values(avax_up, target)
  for (const file of dashboardFiles) {
    for (const v of loadDashboard(file).templating?.list ?? []) {
      const q = typeof v.query === 'string' ? v.query : (v.query as { query?: string } | undefined)?.query;
      for (const m of (q ?? '').matchAll(/label_values\(\s*(avax_[a-z0-9_]+)/g)) {
        used.set(m[1], [...(used.get(m[1]) ?? []), `${path.relative(repoRoot, file)} variable ${String(v.name)}`]);
      }
    }
  }
  return used;
}

// ------------------------------------------------------------------ tests

describe('PromQL in alerts and dashboards', () => {
  const exprs = allExprs();

  it('finds the rule files and dashboards', () => {
    expect(ruleFiles.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['node.rules.yaml', 'validator.rules.yaml', 'index.rules.yaml', 'exporter.rules.yaml']),
    );
    expect(dashboardFiles.map((f) => path.basename(f))).toEqual(expect.arrayContaining(Object.keys(EXPECTED_DASHBOARDS)));
    expect(exprs.filter((e) => e.dashboard).length).toBeGreaterThan(20);
    expect(exprs.filter((e) => !e.dashboard).length).toBeGreaterThan(15);
  });

  it('the parser reports errors (sanity check of the harness)', () => {
    expect(parsePromQL('avax_up{target="a"').errors.length).toBeGreaterThan(0);
    expect(parsePromQL('sum(rate(avax_up[5m]) by (x)').errors.length).toBeGreaterThan(0);
    const ok = parsePromQL('histogram_quantile(0.9, sum by (le) (rate(avax_rpc_request_duration_seconds_bucket{target=~"a"}[5m]))) or {__name__="avax_up"}');
    expect(ok.errors).toEqual([]);
    expect(ok.selectors.map((s) => s.metric)).toEqual(['avax_rpc_request_duration_seconds_bucket', 'avax_up']);
  });

  it('every expression parses with lezer-promql', () => {
    const failures = exprs
      .map((e) => ({ e, errors: parsePromQL(substituteVariables(e.expr)).errors }))
      .filter((x) => x.errors.length > 0)
      .map((x) => `${x.e.where}: ${x.errors.join('; ')}\n  ${x.e.expr}`);
    expect(failures).toEqual([]);
  });

  it('every expression selects at least one avax_ metric', () => {
    const none = exprs.filter((e) => e.where !== `alerts/exporter.rules.yaml ${WATCHDOG}` && !parsePromQL(substituteVariables(e.expr)).selectors.some((s) => s.metric?.startsWith('avax_')));
    expect(exprs.find((e) => e.where === `alerts/exporter.rules.yaml ${WATCHDOG}`)?.expr).toBe('vector(1)');
    expect(none.map((e) => e.where)).toEqual([]);
  });

  it(`every avax_ metric is in the contract (${path.relative(repoRoot, METRICS_DOC)})`, () => {
    const contract = loadContract();
    expect(contract.names.size).toBeGreaterThan(30);
    expect(contract.histograms.has('avax_rpc_request_duration_seconds')).toBe(true);
    const unknown = [...referencedAvaxMetrics()].filter(([m]) => !inContract(m, contract)).map(([m, where]) => `${m} (${where.join(', ')})`);
    expect(unknown).toEqual([]);
  });

  it('every avax_ metric appears in a golden /metrics output (test/golden/metrics.txt, metrics-real-v1.15.0.txt), or is listed with the reason', () => {
    /** Referenced series no golden run can show, each with the reason (and the test that sees it). */
    const notInGolden: Record<string, string> = {
      avax_node_cchain_gas_time_wall_time_gap_seconds:
        'the recorded v1.15.0 node had executed no C-Chain block: its MaxInt64-ns placeholder gives no series (test/collectors/node-metrics.test.ts reads a real gap)',
      // The goldens' validators have a fixed end or are genesis validators (none auto-renewed); the real auto-renewed
      // validator's recording is replayed by test/real-node/helicon-rewards.test.ts.
      avax_validator_auto_compound_reward_ratio: 'only for an auto-renewed validator (ACP-236): test/real-node/helicon-rewards.test.ts',
      avax_validator_authority_threshold: 'only for an auto-renewed validator (ACP-236): test/real-node/helicon-rewards.test.ts',
      avax_validator_authority_addresses: 'only for an auto-renewed validator (ACP-236): test/real-node/helicon-rewards.test.ts',
    };
    const golden = goldenNames();
    const missing = [...referencedAvaxMetrics()].filter(([m]) => !golden.has(m) && !(m in notInGolden)).map(([m, where]) => `${m} (${where.join(', ')})`);
    expect(missing).toEqual([]);
    for (const m of Object.keys(notInGolden)) {
      expect(golden.has(m), `${m} is in a golden output now: remove it from the list`).toBe(false);
      expect(referencedAvaxMetrics().has(m), `${m} is no longer used: remove it from the list`).toBe(true);
    }
  });
});

describe('alerts, runbook and rule tests', () => {
  const rules = loadRules();
  const alerts = rules.filter((r) => r.alert !== undefined);
  const alertNames = [...new Set(alerts.map((r) => r.alert as string))];
  const runbook = existsSync(runbookPath) ? readFileSync(runbookPath, 'utf8') : '';
  const sections = [...runbook.matchAll(/^## (\S+)\s*$/gm)].map((m) => m[1]);

  it('ships the required alerts', () => {
    expect(alertNames).toEqual(
      expect.arrayContaining([
        'AvalancheChainNotBootstrapped', 'AvalancheNodeUnhealthy', 'AvalancheHealthCheckFailing',
        'AvalancheUptimeBelowRequirement', 'AvalancheUptimeAtRisk', 'AvalancheRewardingStakeLow',
        'AvalancheIndexStalled', 'AvalancheIndexUnavailable', 'AvalancheChainHeightStalled',
        'AvalancheValidatorNotActive', 'AvalancheValidatorDisconnected', 'AvalancheValidationEndingSoon',
        'AvalanchePeersLow', 'AvalancheTargetDown', 'AvalancheCollectorFailing', 'AvalancheExporterDataStale',
        'AvalancheExporterAbsent',
        // issue 7: operator intelligence
        'AvalancheValidatorRewardsLost', 'AvalancheDelegationCapacityFull', 'AvalancheL1ValidatorBalanceLow',
        'AvalancheL1ValidatorInactive', 'AvalancheValidatorBLSKeyMismatch', 'AvalancheNodeNotInValidatorSet',
        'AvalancheNetworkUpgradeNodeOutdated', 'AvalancheFutureUpgradeUnknown', 'AvalancheNodeVersionBehindPeers',
        'AvalancheACPMajoritySupport', 'AvalancheValidatorFewVantagesConnected',
      ]),
    );
    const severities = (name: string): (string | undefined)[] => alerts.filter((a) => a.alert === name).map((a) => a.labels?.severity).sort();
    expect(severities('AvalancheValidationEndingSoon')).toEqual(['critical', 'info', 'warning']);
    expect(severities('AvalancheL1ValidatorBalanceLow')).toEqual(['critical', 'warning']);
  });

  it('alerts are CamelCase with severity, summary, description and a for: window of at least 2m', () => {
    const seconds = (d: string): number => {
      let total = 0;
      for (const m of d.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) {
        total += Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 }[m[2] as 'ms'];
      }
      return total;
    };
    // Alerts about one validator as seen from several targets: they aggregate the target label
    // away (one alert per validator, not per vantage), so they name the node_id instead.
    const CROSS_TARGET = new Set(['AvalancheValidatorFewVantagesConnected']);
    const problems: string[] = [];
    for (const a of alerts) {
      const name = a.alert as string;
      if (name === WATCHDOG) {
        if (a.expr !== 'vector(1)' || a.for !== '0s' || a.labels?.severity !== 'info') problems.push(`${name}: expected vector(1), for: 0s, severity info`);
        continue;
      }
      if (!/^Avalanche[A-Z][A-Za-z0-9]*$/.test(name)) problems.push(`${name}: not CamelCase with the Avalanche prefix`);
      if (!['critical', 'warning', 'info'].includes(a.labels?.severity ?? '')) problems.push(`${name}: severity ${a.labels?.severity}`);
      if (!a.annotations?.summary || !a.annotations.description) problems.push(`${name}: summary/description missing`);
      const text = `${a.annotations?.summary ?? ''} ${a.annotations?.description ?? ''}`;
      if (CROSS_TARGET.has(name)) {
        if (!text.includes('$labels.node_id')) problems.push(`${name}: annotations do not name the validator`);
      } else if (!a.expr.includes('absent(') && !text.includes('$labels.target')) problems.push(`${name}: annotations do not name the target`);
      if (!text.includes('$value')) problems.push(`${name}: annotations do not show the value`);
      if (!a.for || seconds(a.for) < 120) problems.push(`${name}: for: ${a.for} (at least 2m, so one bad sample never pages)`);
    }
    expect(problems).toEqual([]);
  });

  it('every alert has a runbook section and a runbook_url with the right anchor', () => {
    expect(existsSync(runbookPath)).toBe(true);
    const problems: string[] = [];
    for (const a of alerts) {
      const name = a.alert as string;
      if (!sections.includes(name)) problems.push(`${name}: no "## ${name}" in docs/runbook.md`);
      const want = `${RUNBOOK_BASE}#${name.toLowerCase()}`;
      if (a.annotations?.runbook_url !== want) problems.push(`${name}: runbook_url ${a.annotations?.runbook_url}, want ${want}`);
    }
    for (const s of sections) if (!alertNames.includes(s)) problems.push(`runbook section ${s} has no alert`);
    expect(problems).toEqual([]);
  });

  it('every rules file has a test file and every alert has promtool test cases (firing and not firing)', () => {
    interface AlertTest { alertname: string; exp_alerts?: unknown[] | null }
    interface TestFile { rule_files?: string[]; tests?: { alert_rule_test?: AlertTest[] }[] }
    const firing = new Set<string>();
    const silent = new Set<string>();
    const covered = new Set<string>();
    for (const file of ruleTestFiles) {
      const doc = YAML.parse(readFileSync(file, 'utf8')) as TestFile;
      for (const rf of doc.rule_files ?? []) {
        const abs = path.resolve(path.dirname(file), rf);
        expect(existsSync(abs), `${path.relative(repoRoot, file)}: rule file ${rf} not found`).toBe(true);
        covered.add(abs);
      }
      for (const t of doc.tests ?? []) {
        for (const at of t.alert_rule_test ?? []) {
          (at.exp_alerts && at.exp_alerts.length > 0 ? firing : silent).add(at.alertname);
        }
      }
    }
    expect(ruleFiles.filter((f) => !covered.has(f)).map((f) => path.relative(repoRoot, f))).toEqual([]);
    expect(alertNames.filter((n) => !firing.has(n)).map((n) => `${n}: no case where it fires`)).toEqual([]);
    // Watchdog always fires, by design (the alerting pipeline's heartbeat): it has no case where it does not.
    const ALWAYS_FIRING = new Set([WATCHDOG]);
    expect(alertNames.filter((n) => !silent.has(n) && !ALWAYS_FIRING.has(n)).map((n) => `${n}: no case where it does not fire`)).toEqual([]);
    expect([...ALWAYS_FIRING].filter((n) => silent.has(n) || !alertNames.includes(n))).toEqual([]);
  });
});

describe('dashboards', () => {
  for (const [file, uid] of Object.entries(EXPECTED_DASHBOARDS)) {
    describe(file, () => {
      const full = path.join(dashboardsDir, file);
      const d = existsSync(full) ? loadDashboard(full) : ({} as Dashboard);
      const panels = allPanels(d).filter((p) => p.type !== 'row');

      it(`has uid ${uid}, no __inputs, and a recent schemaVersion`, () => {
        expect(d.uid).toBe(uid);
        expect(d.__inputs).toBeUndefined();
        expect(d.id ?? null).toBeNull();
        expect(d.schemaVersion).toBeGreaterThanOrEqual(36);
        expect(typeof d.title).toBe('string');
      });

      it('has the datasource and target variables', () => {
        const vars = d.templating?.list ?? [];
        const ds = vars.find((v) => v.name === 'datasource');
        expect(ds).toMatchObject({ type: 'datasource', query: 'prometheus' });
        const target = vars.find((v) => v.name === 'target');
        expect(target).toMatchObject({ type: 'query', multi: true, includeAll: true, datasource: { uid: '${datasource}' } });
        const q = typeof target?.query === 'string' ? target.query : (target?.query as { query?: string } | undefined)?.query;
        expect(q).toBe('label_values(avax_up, target)');
      });

      it('has unique panel ids and every panel and query uses ${datasource}', () => {
        const ids = allPanels(d).map((p) => p.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(panels.length).toBeGreaterThan(5);
        const bad: string[] = [];
        for (const p of panels) {
          const uidOf = (x: unknown): unknown => (typeof x === 'object' && x !== null ? (x as { uid?: string }).uid : x);
          if (uidOf(p.datasource) !== '${datasource}') bad.push(`panel "${p.title}": datasource ${JSON.stringify(p.datasource)}`);
          if (!p.targets?.length) bad.push(`panel "${p.title}": no queries`);
          for (const t of p.targets ?? []) {
            if (t.datasource !== undefined && uidOf(t.datasource) !== '${datasource}') bad.push(`panel "${p.title}" ${t.refId}: datasource ${JSON.stringify(t.datasource)}`);
          }
        }
        expect(bad).toEqual([]);
      });

      it('every selector filters on target=~"$target"', () => {
        const bad: string[] = [];
        for (const p of panels) {
          for (const t of p.targets ?? []) {
            for (const s of parsePromQL(substituteVariables(t.expr ?? '')).selectors) {
              if (!s.matchers.some((m) => m.name === 'target' && m.op === '=~' && m.value === TARGET_SENTINEL)) {
                bad.push(`panel "${p.title}" ${t.refId}: ${s.metric} without target=~"$target"`);
              }
            }
          }
        }
        expect(bad).toEqual([]);
      });
    });
  }
});

// ------------------------------------------------------------------ promtool

const promtoolFound = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).error === undefined;
if (!promtoolFound && !process.env.CI) {
  console.warn(
    '\n*** promtool is not on PATH: SKIPPING `promtool check rules` and `promtool test rules`.\n' +
      '*** Install it (Debian: apt-get install prometheus) to run the alert rule tests. In CI this is a failure.\n',
  );
}

describe('promtool', () => {
  const run = (args: string[]): void => {
    if (!promtoolFound) throw new Error('promtool is not on PATH but CI is set: install the Debian package `prometheus`');
    // promtool test rules takes about 36 s of CPU (2026-11-28, `/usr/bin/time promtool test rules alerts/tests/*.test.yaml`;
    // 70 s before the day-long cases moved to a 1m evaluation interval); shared with the other test files, several times that.
    const r = spawnSync('promtool', args, { cwd: repoRoot, encoding: 'utf8', timeout: 420_000 });
    expect(r.status, `promtool ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  };

  it.skipIf(!promtoolFound && !process.env.CI)('promtool check rules alerts/*.rules.yaml', () => {
    expect(ruleFiles.length).toBeGreaterThan(0);
    run(['check', 'rules', ...ruleFiles.map((f) => path.relative(repoRoot, f))]);
  });

  it.skipIf(!promtoolFound && !process.env.CI)('promtool test rules alerts/tests/*.test.yaml', () => {
    expect(ruleTestFiles.length).toBeGreaterThan(0);
    run(['test', 'rules', ...ruleTestFiles.map((f) => path.relative(repoRoot, f))]);
  }, 450_000);
});
