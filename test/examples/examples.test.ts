// The wiring examples docs/deployment.md points at (issue 12, point 2): each is checked by the tool that
// will read it. Prometheus must find every shipped rule file (a glob that matches nothing passes
// `promtool check config` silently, so the files it reports are compared with alerts/), Alertmanager's
// file passes amtool and carries alerts/README.md's inhibit rules, the exporter accepts the fleet file,
// Grafana's provisioning points at the dashboards, and the systemd unit has what docs/deployment.md promises.
//
// promtool and amtool come from the Debian packages `prometheus` and `prometheus-alertmanager`.
// Without them these checks are skipped with a loud message, except under CI, where they fail.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { onPath } from '../e2e/helpers/programs.js';
import { parseDuration } from '../../src/monitoring/duration.js';
import { CLI, ROOT, ensureBuilt } from '../helpers/proc.js';

const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const PROMTOOL = onPath('promtool');
const AMTOOL = onPath('amtool');
const SYSTEMD_ANALYZE = onPath('systemd-analyze');
const EX = join(ROOT, 'examples');

for (const [tool, pkg, found] of [['promtool', 'prometheus', PROMTOOL], ['amtool', 'prometheus-alertmanager', AMTOOL]] as const) {
  if (!found && !CI) {
    console.warn(
      `\n${'!'.repeat(78)}\n!! SKIPPING the ${tool} checks of test/examples/examples.test.ts: ${tool} is not on PATH.\n` +
        `!! Install it (apt-get install ${pkg}). Under CI (CI=1) this is a failure, not a skip.\n${'!'.repeat(78)}\n`,
    );
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ruleFiles = () =>
  readdirSync(join(ROOT, 'alerts'))
    .filter((f) => f.endsWith('.rules.yaml'))
    .sort()
    .map((f) => `alerts/${f}`);

function rulesIn(file: string): number {
  const doc = YAML.parse(readFileSync(join(ROOT, file), 'utf8')) as { groups: { rules: unknown[] }[] };
  return doc.groups.reduce((n, g) => n + g.rules.length, 0);
}

/** `promtool check config` output → rule file (relative to the repository) → rules found. */
function rulesFound(stdout: string, cwd: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of stdout.matchAll(/^Checking (\S+)\n\s+SUCCESS: (\d+) rules found/gm)) {
    out.set(relative(ROOT, resolve(cwd, m[1]!)), Number(m[2]));
  }
  return out;
}

function promtool(args: string[], cwd = ROOT) {
  if (!PROMTOOL) throw new Error('promtool is not on PATH but CI is set: install the Debian package `prometheus`');
  return spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8', timeout: 60_000 });
}

describe.skipIf(!PROMTOOL && !CI)('Prometheus examples (promtool check config)', () => {
  it.each(['prometheus.yml', 'prometheus-sharded.yml'])('default: examples/%s is valid and loads every rule file of alerts/ with all its rules', (file) => {
    const r = promtool(['check', 'config', `examples/${file}`]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const expected = ruleFiles();
    expect(expected.length).toBeGreaterThan(0);
    expect(r.stdout).toContain(`SUCCESS: ${expected.length} rule files found`);
    const found = rulesFound(r.stdout, ROOT);
    expect([...found.keys()].sort()).toEqual(expected);
    for (const f of expected) expect(found.get(f), f).toBe(rulesIn(f));
  });

  it('error: the same file where ../alerts does not exist finds no rule file, and the check above would fail (sanity check)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-examples-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'examples'));
    copyFileSync(join(EX, 'prometheus.yml'), join(dir, 'examples', 'prometheus.yml'));
    const r = promtool(['check', 'config', 'examples/prometheus.yml'], dir);
    // promtool itself is content with a glob that matches nothing: exactly the silent failure of issue 12.
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/SUCCESS: [1-9]\d* rule files found/);
    expect([...rulesFound(r.stdout, dir).keys()]).toEqual([]);
  });

  it('default: evaluation_interval is set, the exporter is scraped and Alertmanager is on loopback', () => {
    const cfg = YAML.parse(readFileSync(join(EX, 'prometheus.yml'), 'utf8')) as {
      global: Record<string, string>;
      rule_files: string[];
      alerting: { alertmanagers: { static_configs: { targets: string[] }[] }[] };
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    expect(cfg.global['evaluation_interval']).toBe('15s');
    expect(cfg.global['scrape_interval']).toBe('15s');
    expect(cfg.rule_files).toEqual(['../alerts/*.rules.yaml']);
    expect(cfg.alerting.alertmanagers[0]!.static_configs[0]!.targets).toEqual(['127.0.0.1:9093']);
    expect(cfg.scrape_configs.find((j) => j.job_name === 'avalanche-exporter')?.static_configs[0]!.targets).toEqual(['127.0.0.1:10650']);
  });
});

describe.skipIf(!AMTOOL && !CI)('Alertmanager example (amtool check-config)', () => {
  it('default: examples/alertmanager.yml is valid', () => {
    if (!AMTOOL) throw new Error('amtool is not on PATH but CI is set: install the Debian package `prometheus-alertmanager`');
    const r = spawnSync(AMTOOL, ['check-config', 'examples/alertmanager.yml'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('SUCCESS');
    expect(r.stdout).toMatch(/- 15 inhibit rules/);
    expect(r.stdout).toMatch(/- 2 receivers/);
  });

  it('default: amtool config routes test: Watchdog goes to its own receiver, every other alert to ops', () => {
    if (!AMTOOL) throw new Error('amtool is not on PATH but CI is set: install the Debian package `prometheus-alertmanager`');
    const route = (...labels: string[]) => {
      const r = spawnSync(AMTOOL, ['config', 'routes', 'test', '--config.file=examples/alertmanager.yml', ...labels], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      return r.stdout.trim();
    };
    // Watchdog carries severity info like the daily info alerts: its route must come first.
    expect(route('alertname=Watchdog', 'severity=info')).toBe('watchdog');
    expect(route('alertname=AvalancheDelegationCapacityFull', 'severity=info', 'target=n1:9650')).toBe('ops');
    expect(route('alertname=AvalancheL1ChainStalled', 'severity=critical', 'target=n1:9650')).toBe('ops');
    // Criticals take their own route (grouped by target and alertname): amtool's tree shows it.
    const tree = spawnSync(AMTOOL, ['config', 'routes', 'show', '--config.file=examples/alertmanager.yml'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(tree.stdout).toMatch(/\{severity="critical"\}\s+receiver: ops/);
  });
});

describe('Alertmanager example (content)', () => {
  const am = YAML.parse(readFileSync(join(EX, 'alertmanager.yml'), 'utf8')) as {
    route: Record<string, unknown>;
    receivers: { name: string; webhook_configs?: { url: string; send_resolved?: boolean }[] }[];
    inhibit_rules: unknown[];
  };

  it('default: carries the inhibit rules alerts/README.md describes, unchanged', () => {
    const readme = readFileSync(join(ROOT, 'alerts', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Inhibit rules: one cause, one notification'));
    const block = /```yaml\n([^]*?)```/.exec(section)?.[1];
    expect(block, 'no yaml block in alerts/README.md "Inhibit rules: one cause, one notification"').toBeDefined();
    expect(am.inhibit_rules).toEqual((YAML.parse(block!) as { inhibit_rules: unknown[] }).inhibit_rules);
  });

  it('default: group_wait as docs/deployment.md states, webhook receiver on loopback', () => {
    expect(am.route['group_wait']).toBe('30s');
    expect(am.route['group_by']).toEqual(['target']);
    const url = new URL(am.receivers[0]!.webhook_configs![0]!.url);
    expect(url.hostname).toBe('127.0.0.1');
  });

  it('default: the Watchdog route comes first and repeats often enough for a dead man\'s switch; its receiver gets no resolved', () => {
    const routes = am.route['routes'] as { matchers: string[]; receiver: string; repeat_interval?: string }[];
    expect(routes[0]).toMatchObject({ matchers: ['alertname="Watchdog"'], receiver: 'watchdog' });
    expect(parseDuration(routes[0]!.repeat_interval ?? '')).toBeLessThanOrEqual(300);
    const watchdog = am.receivers.find((r) => r.name === 'watchdog')!;
    expect(watchdog.webhook_configs![0]).toMatchObject({ send_resolved: false });
  });
});

describe('exporter configuration example', () => {
  it('default: avalanche-exporter check-config accepts examples/config.yaml', () => {
    ensureBuilt();
    const r = spawnSync(process.execPath, [CLI, 'check-config', '--config.file', 'examples/config.yaml'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('configuration OK (examples/config.yaml): 4 target(s)');
    expect(r.stdout).not.toContain('REPLACE_ME');
  });
});

describe('Grafana provisioning example', () => {
  const base = join(EX, 'grafana', 'provisioning');
  /** The install layout: /opt/avalanche-exporter is the repository (clone or unpacked package). */
  const INSTALL = '/opt/avalanche-exporter/';

  it('default: the data source is a Prometheus with a URL, uid and the scrape interval', () => {
    const files = readdirSync(join(base, 'datasources'));
    expect(files).toHaveLength(1);
    const doc = YAML.parse(readFileSync(join(base, 'datasources', files[0]!), 'utf8')) as { apiVersion: number; datasources: Record<string, unknown>[] };
    expect(doc.apiVersion).toBe(1);
    expect(doc.datasources).toHaveLength(1);
    const ds = doc.datasources[0]!;
    expect(ds).toMatchObject({ type: 'prometheus', access: 'proxy', uid: 'prometheus', isDefault: true });
    expect(new URL(String(ds['url'])).port).toBe('9090');
    expect((ds['jsonData'] as Record<string, string>)['timeInterval']).toBe('15s');
  });

  it('default: the dashboard provider reads the repository dashboards/ (path exists, holds every dashboard, mount documented)', () => {
    const file = join(base, 'dashboards', 'avalanche.yaml');
    const text = readFileSync(file, 'utf8');
    const doc = YAML.parse(text) as { apiVersion: number; providers: { type: string; folder: string; options: { path: string } }[] };
    expect(doc.apiVersion).toBe(1);
    expect(doc.providers).toHaveLength(1);
    const p = doc.providers[0]!;
    expect(p.type).toBe('file');
    expect(p.options.path.startsWith(INSTALL)).toBe(true);
    const inRepo = join(ROOT, p.options.path.slice(INSTALL.length));
    expect(existsSync(inRepo) && statSync(inRepo).isDirectory(), `${inRepo} is not a directory of the repository`).toBe(true);
    const shipped = readdirSync(join(ROOT, 'dashboards')).filter((f) => f.endsWith('.json'));
    expect(shipped.length).toBe(4);
    for (const f of shipped) expect(existsSync(join(inRepo, f)), f).toBe(true);
    // The Docker mount in the comment maps the repository's directory onto that path.
    expect(text).toContain(`-v "$PWD/${relative(ROOT, inRepo)}:${p.options.path}:ro"`);
    expect(text).toContain(`-v "$PWD/${relative(ROOT, base)}:/etc/grafana/provisioning:ro"`);
  });
});

/** A systemd unit as sections of `key → values` (keys may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) {
      section = new Map();
      out.set(s[1]!, section);
      continue;
    }
    const i = line.indexOf('=');
    if (!section || i <= 0) throw new Error(`not a unit file line: ${raw}`);
    const k = line.slice(0, i).trim();
    section.set(k, [...(section.get(k) ?? []), line.slice(i + 1).trim()]);
  }
  return out;
}

describe('systemd unit example', () => {
  const file = join(EX, 'systemd', 'avalanche-exporter.service');
  const text = readFileSync(file, 'utf8');
  const unit = parseUnit(text);
  const get = (sec: string, key: string) => unit.get(sec)?.get(key) ?? [];

  it('default: has the lines docs/deployment.md promises (network-online, reload by SIGHUP, hardening, a real ExecStart)', () => {
    expect(get('Unit', 'Wants')).toEqual(['network-online.target']);
    expect(get('Unit', 'After')).toEqual(['network-online.target']);
    expect(get('Service', 'ExecReload')).toEqual(['/bin/kill -HUP $MAINPID']);
    for (const k of ['DynamicUser', 'NoNewPrivileges', 'ProtectHome', 'PrivateTmp']) expect(get('Service', k), k).toEqual(['yes']);
    expect(get('Service', 'ProtectSystem')).toEqual(['strict']);
    expect(get('Service', 'RestartPreventExitStatus')).toEqual(['2']);
    expect(get('Install', 'WantedBy')).toEqual(['multi-user.target']);
    const exec = get('Service', 'ExecStart');
    expect(exec).toEqual(['/usr/bin/node --v8-pool-size=1 /opt/avalanche-exporter/dist/cli.js --config.file /etc/avalanche-exporter/config.yaml']);
    // The install layout: the repository (with dist/ built) at /opt/avalanche-exporter.
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin['avalanche-exporter']).toBe('dist/cli.js');
  });

  it.skipIf(!SYSTEMD_ANALYZE)('default: systemd-analyze verify accepts it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-unit-'));
    dirs.push(dir);
    // verify checks that ExecStart's program exists: on a machine without /usr/bin/node, the node running this test stands in.
    const copy = join(dir, basename(file));
    writeFileSync(copy, existsSync('/usr/bin/node') ? text : text.replace('/usr/bin/node ', `${process.execPath} `));
    const r = spawnSync(SYSTEMD_ANALYZE!, ['verify', copy], { encoding: 'utf8', timeout: 30_000 });
    const ours = (r.stderr + r.stdout).split('\n').filter((l) => l.includes('avalanche-exporter'));
    expect(ours, r.stderr).toEqual([]);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('docs/deployment.md (wiring, Docker and systemd), docs/security.md and the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const deployment = readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8');
  const security = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');
  const named = (text: string) => new Set([...text.matchAll(/\bexamples\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g)].map((m) => m[0]));

  it('default: every examples/ file the README or docs/deployment.md names exists, and docs/deployment.md names every example file', () => {
    const inDeployment = named(deployment);
    expect(inDeployment.size).toBeGreaterThan(5);
    for (const [doc, set] of [['README.md', named(readme)], ['docs/deployment.md', inDeployment]] as const) {
      for (const p of set) expect(existsSync(join(ROOT, p)), `${doc} names ${p}, which does not exist`).toBe(true);
    }
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [relative(ROOT, join(d, e.name))]));
    for (const f of walk(EX)) expect([...inDeployment].some((n) => f === n || f.startsWith(`${n}/`)), `${f} is not mentioned in docs/deployment.md`).toBe(true);
  });

  it('default: the README and docs/deployment.md state the Node.js version; docs/deployment.md the first-notification delay and the unit install', () => {
    for (const text of [readme, deployment]) {
      expect(text).toContain('Node.js >= 20.18');
      expect(text).toMatch(/Debian 12['’]s `nodejs` package is 18/);
      expect(text).not.toContain('/etc/avalanche-exporter/alerts/'); // nothing installs that directory
    }
    expect(deployment).toMatch(/for: \+ evaluation_interval \+ group_wait/);
    expect(deployment).toContain('sudo systemctl enable --now avalanche-exporter');
  });

  it('default: docs/security.md says what the default bind address means and how to bind loopback', () => {
    expect(security).toContain('**Bind address.** The default `--web.listen-address :10650` listens on every interface');
    expect(security).toContain('`--web.listen-address 127.0.0.1:10650`');
    expect(security).toContain('"event":"listening_all_interfaces"');
  });
});
