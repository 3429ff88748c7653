// The Helm chart deploy/helm/avalanche-exporter, checked with the tools that read it (issue 45): `helm lint`;
// `helm template` with the default values, a fleet of three targets (probed per target) and the sharded
// layout; every rendered object validated against the Kubernetes and prometheus-operator schemas (the
// kubernetes-models classes); the rules of the rendered PrometheusRules through `promtool check rules`, and equal
// to alerts/*.rules.yaml field for field (the files the project's promtool cases, alerts/tests/, run on in
// test/consistency/promql.test.ts); the dashboards of the rendered ConfigMaps equal to
// dashboards/*.json; `generate --format prometheusrule` and `--format configmap` equal to what the chart renders;
// the fleet configuration in its Secret accepted by `check-config`; no secret in a ConfigMap; the sharded
// ServiceMonitor's /probe relabelings run by a real Prometheus send each target to the replica that collects it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import YAML from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { prometheusHashmod } from '../../src/config/shard.js';
import { onPath, startProgram, waitHttpOk, type Program } from '../e2e/helpers/programs.js';
import { CLI, ROOT, ensureBuilt, freePort } from '../helpers/proc.js';
import { CI, helmOrSkip } from './helm-binary.js';

const CHART = join(ROOT, 'deploy/helm/avalanche-exporter');
const RELEASE = 'avalanche-exporter';
const NAMESPACE = 'monitoring';
const HELM = helmOrSkip('test/deploy/helm-chart.test.ts');
const PROMTOOL = spawnSync('promtool', ['--version']).status === 0;
const PROMETHEUS = onPath('prometheus');

/** Each kind the chart may render, and the model that validates it against its schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // The rendered objects' specs are read by shape in each test (the models above check them against the schemas).
  spec?: any;
  data?: Record<string, string>;
}

const FLEET = {
  config: {
    targets: [
      { name: 'validator-1', url: 'http://validator-1.avalanche:9650', expectActive: true },
      { name: 'validator-2', url: 'http://validator-2.avalanche:9650', headers: { Authorization: 'Bearer SECRET-TOKEN' } },
      { url: 'https://api.avax.network', reference: true },
    ],
  },
  serviceMonitor: { mode: 'probe', releaseLabel: 'kube-prometheus-stack' },
  prometheusRule: { releaseLabel: 'kube-prometheus-stack', additionalLabels: { team: 'validators' } },
};
/** Twelve targets over three shards: every shard gets some. */
const SHARD_NAMES = Array.from({ length: 12 }, (_, i) => `node-${i}`);
const SHARDED = { ...FLEET, config: { targets: SHARD_NAMES.map((name, i) => ({ name, url: `http://10.1.0.${i + 1}:9650` })) }, sharding: { enabled: true, shards: 3 } };
/** A real bcrypt hash (cost 4: quick) of a password, so that check-config accepts the web configuration. */
const PASSWORD_HASH = bcrypt.hashSync('prometheus-password', 4);
const WEB = { webConfig: { config: { basic_auth_users: { prometheus: PASSWORD_HASH } } } };
const OFF = { prometheusRule: { enabled: false }, dashboards: { enabled: false }, serviceMonitor: { enabled: false } };

let dir = '';
const renders: Record<string, K8sObject[]> = {};

function run(cmd: string, args: string[], cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

function template(name: string, values: object): K8sObject[] {
  const file = join(dir, `${name}.values.yaml`);
  writeFileSync(file, YAML.stringify(values));
  const r = run(HELM!, ['template', RELEASE, CHART, '--namespace', NAMESPACE, '--values', file]);
  expect(r.status, `helm template (${name}): ${r.stderr}`).toBe(0);
  return YAML.parseAllDocuments(r.stdout).map((d) => d.toJSON() as K8sObject).filter((o) => o !== null);
}

const ofKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);
const byName = (objs: K8sObject[]) => new Map(objs.map((o) => [o.metadata.name, o]));

/** `avalanche-exporter generate --format F ...` (the built CLI), its YAML documents. */
function generate(args: string[]): K8sObject[] {
  const r = run(process.execPath, [CLI, 'generate', ...args]);
  expect(r.status, r.stderr).toBe(0);
  return YAML.parseAllDocuments(r.stdout).map((d) => d.toJSON() as K8sObject);
}

describe.skipIf(!HELM)('Helm chart deploy/helm/avalanche-exporter', () => {
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'helm-chart-'));
    renders['default'] = template('default', {});
    renders['fleet'] = template('fleet', FLEET);
    renders['sharded'] = template('sharded', SHARDED);
    renders['web'] = template('web', WEB);
    renders['off'] = template('off', OFF);
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('helm lint --strict passes, with the default values and with the sharded fleet', () => {
    for (const values of [[], ['--values', join(dir, 'sharded.values.yaml')]]) {
      const r = run(HELM!, ['lint', '--strict', CHART, ...values]);
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    }
  });

  it('error: values.schema.json refuses a misspelt key or a bad value at helm template, naming it', () => {
    for (const [set, words] of [['prometheusRules.enabled=false', 'prometheusRules'], ['serviceMonitor.mode=probes', 'metrics'], ['sharding.shards=0', 'shards']] as const) {
      const r = run(HELM!, ['template', RELEASE, CHART, '--set', set]);
      expect(r.status, set).not.toBe(0);
      expect(r.stderr, set).toContain(words);
    }
  });

  it.each(['default', 'fleet', 'sharded', 'web', 'off'])('schema: every object rendered with the %s values validates against its Kubernetes or prometheus-operator schema', (name) => {
    const objs = renders[name]!;
    expect(objs.length).toBeGreaterThan(0);
    for (const o of objs) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `${o.apiVersion} ${o.kind} ${o.metadata.name}: a kind the test has no schema for`).toBeDefined();
      expect(() => new Model!(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
      expect(o.metadata.namespace, `${o.kind} ${o.metadata.name}`).toBe(NAMESPACE);
    }
  });

  it('schema: the validation is real (a rule without expr and a Deployment without containers are refused)', () => {
    const rule = ofKind(renders['default']!, 'PrometheusRule')[0]!;
    const broken = structuredClone(rule) as { spec: { groups: { rules: Record<string, unknown>[] }[] } };
    delete broken.spec.groups[0]!.rules[0]!['expr'];
    expect(() => new PrometheusRule(broken as never).validate()).toThrow(/expr/);
    const dep = structuredClone(ofKind(renders['default']!, 'Deployment')[0]!) as { spec: { template: { spec: Record<string, unknown> } } };
    delete dep.spec.template.spec['containers'];
    expect(() => new Deployment(dep as never).validate()).toThrow(/containers/);
  });

  it('default: one non-root, read-only Deployment watching http://avalanchego:9650, its Service, ServiceMonitor on /metrics, 7 PrometheusRules, 4 dashboard ConfigMaps', () => {
    const objs = renders['default']!;
    const [dep] = ofKind(objs, 'Deployment') as { spec: any }[];
    const pod = dep!.spec.template.spec;
    const c = pod.containers[0];
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(c.resources.limits.memory).toBeDefined();
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.args).toContain('--config.file=/etc/avalanche-exporter/config/config.yaml');
    const config = YAML.parse(Buffer.from(ofKind(objs, 'Secret')[0]!.data!['config.yaml']!, 'base64').toString('utf8')) as { targets: { url: string }[] };
    expect(config.targets.map((t) => t.url)).toEqual(['http://avalanchego:9650']);
    const [sm] = ofKind(objs, 'ServiceMonitor') as { spec: any }[];
    expect(sm!.spec.endpoints.map((e: { path: string }) => e.path)).toEqual(['/metrics']);
    expect(ofKind(objs, 'PrometheusRule')).toHaveLength(7);
    expect(ofKind(objs, 'ConfigMap')).toHaveLength(4);
    expect(ofKind(objs, 'StatefulSet')).toHaveLength(0);
  });

  it('off: prometheusRule.enabled, dashboards.enabled and serviceMonitor.enabled false render none of them', () => {
    const kinds = renders['off']!.map((o) => o.kind);
    expect(kinds).not.toContain('PrometheusRule');
    expect(kinds).not.toContain('ConfigMap');
    expect(kinds).not.toContain('ServiceMonitor');
    expect(kinds).toContain('Deployment');
  });

  it('fleet: three targets, each probed by its own /probe endpoint; the configuration passes `avalanche-exporter check-config`', () => {
    const objs = renders['fleet']!;
    const [sm] = ofKind(objs, 'ServiceMonitor') as { metadata: any; spec: any }[];
    expect(sm!.metadata.labels.release).toBe('kube-prometheus-stack');
    const probes = sm!.spec.endpoints.filter((e: { path: string }) => e.path === '/probe');
    expect(probes.map((e: { params: { target: string[] } }) => e.params.target[0])).toEqual(['validator-1', 'validator-2', 'api.avax.network:443']);
    const file = join(dir, 'fleet-config.yaml');
    writeFileSync(file, Buffer.from(ofKind(objs, 'Secret')[0]!.data!['config.yaml']!, 'base64'));
    const r = run(process.execPath, [CLI, 'check-config', '--config.file', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 target(s)');
  });

  it('sharded: a StatefulSet of 3 with --shard.total 3 and --shard.index from the pod ordinal; each /probe kept only on the replica whose ordinal is the hashmod of its name', () => {
    const objs = renders['sharded']!;
    expect(ofKind(objs, 'Deployment')).toHaveLength(0);
    const [sts] = ofKind(objs, 'StatefulSet') as { spec: any }[];
    expect(sts!.spec.replicas).toBe(3);
    const c = sts!.spec.template.spec.containers[0];
    expect(c.args).toContain('--shard.total=3');
    expect(c.env).toContainEqual({ name: 'AVAX_EXPORTER_SHARD_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['apps.kubernetes.io/pod-index']" } } });
    expect((ofKind(objs, 'Service')[0] as { spec: any }).spec.clusterIP).toBe('None');
    const [sm] = ofKind(objs, 'ServiceMonitor') as { spec: any }[];
    for (const e of sm!.spec.endpoints.filter((x: { path: string }) => x.path === '/probe')) {
      expect(e.relabelings).toContainEqual({ sourceLabels: ['__param_target'], modulus: 3, targetLabel: '__tmp_shard', action: 'hashmod' });
      expect(e.relabelings).toContainEqual({ sourceLabels: ['__tmp_shard', '__meta_kubernetes_pod_label_apps_kubernetes_io_pod_index'], regex: '0;0|1;1|2;2', action: 'keep' });
    }
  });

  it('sharded: each replica, started with the StatefulSet\'s args and its ordinal in the env variable, collects exactly the targets Prometheus\'s hashmod gives its shard (check-config)', () => {
    const objs = renders['sharded']!;
    const c = (ofKind(objs, 'StatefulSet')[0] as { spec: any }).spec.template.spec.containers[0] as { args: string[]; env: { name: string }[] };
    const file = join(dir, 'sharded-config.yaml');
    writeFileSync(file, Buffer.from(ofKind(objs, 'Secret')[0]!.data!['config.yaml']!, 'base64'));
    const args = c.args.filter((a) => !a.startsWith('--web.')).map((a) => (a.startsWith('--config.file=') ? `--config.file=${file}` : a));
    const envName = c.env.find((e) => e.name.startsWith('AVAX_EXPORTER_SHARD'))!.name;
    const collected: string[] = [];
    for (const k of [0, 1, 2]) {
      const r = spawnSync(process.execPath, [CLI, 'check-config', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, [envName]: String(k) } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`shard ${k} of 3`);
      const mine = [...r.stdout.matchAll(/^ {2}- (\S+): \S+$/gm)].map((m) => m[1]!);
      for (const n of mine) expect(prometheusHashmod(n, 3), n).toBe(k);
      collected.push(...mine);
    }
    expect(collected.sort()).toEqual([...SHARD_NAMES].sort());
  });

  it('secrets: the fleet configuration (a bearer token) and the web configuration (a password hash) are in Secrets, never in a ConfigMap', () => {
    for (const [name, needle] of [['fleet', 'SECRET-TOKEN'], ['web', PASSWORD_HASH]] as const) {
      const objs = renders[name]!;
      for (const cm of ofKind(objs, 'ConfigMap')) expect(JSON.stringify(cm), cm.metadata.name).not.toContain(needle);
      const inSecrets = ofKind(objs, 'Secret').some((s) => Object.values(s.data ?? {}).some((v) => Buffer.from(v, 'base64').toString('utf8').includes(needle)));
      expect(inSecrets, name).toBe(true);
    }
    const dep = ofKind(renders['web']!, 'Deployment')[0] as { spec: any };
    expect(dep.spec.template.spec.containers[0].args).toContain('--web.config.file=/etc/avalanche-exporter/web/web-config.yml');
    // The mounted web configuration is one the exporter accepts.
    const webSecret = ofKind(renders['web']!, 'Secret').find((x) => x.data?.['web-config.yml'])!;
    const file = join(dir, 'web-config.yml');
    writeFileSync(file, Buffer.from(webSecret.data!['web-config.yml']!, 'base64'));
    const r = run(process.execPath, [CLI, 'check-config', '--web.config.file', file]);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('dashboards: the rendered ConfigMaps hold exactly dashboards/*.json, labelled for the Grafana sidecar', () => {
    const maps = ofKind(renders['default']!, 'ConfigMap');
    const files = readdirSync(join(ROOT, 'dashboards')).filter((f) => f.endsWith('.json')).sort();
    expect(maps.flatMap((m) => Object.keys(m.data!)).sort()).toEqual(files);
    for (const m of maps) {
      expect(m.metadata.labels!['grafana_dashboard']).toBe('1');
      for (const [file, text] of Object.entries(m.data!)) expect(JSON.parse(text), file).toEqual(JSON.parse(readFileSync(join(ROOT, 'dashboards', file), 'utf8')));
    }
  });

  it('generate --format prometheusrule --namespace monitoring --label release=kube-prometheus-stack equals the chart\'s PrometheusRules (same names, specs; its labels among the chart\'s)', () => {
    const generated = generate(['--format', 'prometheusrule', '--namespace', NAMESPACE, '--label', 'release=kube-prometheus-stack', '--label', 'team=validators']);
    const chart = byName(ofKind(renders['fleet']!, 'PrometheusRule'));
    expect(generated.map((g) => g.metadata.name).sort()).toEqual([...chart.keys()].sort());
    for (const g of generated) {
      const c = chart.get(g.metadata.name)!;
      expect(c.spec, g.metadata.name).toEqual(g.spec);
      expect(c.metadata.namespace).toBe(g.metadata.namespace);
      expect(c.metadata.labels).toMatchObject(g.metadata.labels!);
    }
  });

  it('generate --format configmap --namespace monitoring equals the chart\'s dashboard ConfigMaps (but for the _comment saying who generated it)', () => {
    const dashboards = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, { ...JSON.parse(v), _comment: undefined }]));
    const generated = generate(['--format', 'configmap', '--namespace', NAMESPACE]);
    const chart = byName(ofKind(renders['default']!, 'ConfigMap'));
    expect(generated.map((g) => g.metadata.name).sort()).toEqual([...chart.keys()].sort());
    for (const g of generated) {
      const c = chart.get(g.metadata.name)!;
      expect(dashboards(c.data!), g.metadata.name).toEqual(dashboards(g.data!));
      expect(c.metadata.labels).toMatchObject(g.metadata.labels!);
    }
  });

  // The operator turns each endpoint into a scrape job; here each /probe endpoint of the sharded ServiceMonitor
  // becomes one, its relabelings as they are, over one static target per replica carrying the label the endpoints
  // discovery gives a StatefulSet pod (its pod-index). Nothing listens there: only the relabeling is looked at.
  describe.skipIf(!PROMETHEUS && !CI)('sharded /probe endpoints in a real Prometheus', () => {
    let prom: Program | undefined;
    let base = '';
    const snake = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
    beforeAll(async () => {
      if (!PROMETHEUS) throw new Error('prometheus is not on PATH (apt-get install prometheus); under CI this is a failure');
      const [sm] = ofKind(renders['sharded']!, 'ServiceMonitor') as { spec: { endpoints: { path: string; params?: { target: string[] }; relabelings?: Record<string, unknown>[] }[] } }[];
      const jobs = sm!.spec.endpoints
        .filter((e) => e.path === '/probe')
        .map((e) => ({
          job_name: e.params!.target[0],
          metrics_path: '/probe',
          params: e.params,
          static_configs: [0, 1, 2].map((k) => ({ targets: [`127.0.0.1:${20000 + k}`], labels: { __meta_kubernetes_pod_label_apps_kubernetes_io_pod_index: String(k) } })),
          relabel_configs: e.relabelings!.map(snake),
        }));
      const pdir = join(dir, 'prometheus');
      mkdirSync(pdir, { recursive: true });
      writeFileSync(join(pdir, 'prometheus.yml'), YAML.stringify({ global: { scrape_interval: '1h' }, scrape_configs: jobs }));
      const port = await freePort();
      prom = startProgram('prometheus', PROMETHEUS, [`--config.file=${join(pdir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(pdir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], pdir);
      base = `http://127.0.0.1:${port}`;
      await waitHttpOk(prom, `${base}/-/ready`, 20_000);
    }, 40_000);
    afterAll(async () => {
      await prom?.stop();
    });

    it('each target is probed on exactly one replica: the one whose --shard.index collects it', async () => {
      let active: { scrapePool: string; scrapeUrl: string; labels: Record<string, string> }[] = [];
      for (let i = 0; i < 75 && active.length < SHARD_NAMES.length; i++) {
        const body = (await (await fetch(`${base}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: typeof active } };
        active = body.data.activeTargets;
        if (active.length < SHARD_NAMES.length) await new Promise((r) => setTimeout(r, 200));
      }
      expect(active.map((t) => t.scrapePool).sort()).toEqual([...SHARD_NAMES].sort());
      for (const t of active) {
        expect(t.labels['instance']).toBe(t.scrapePool);
        expect(Number(new URL(t.scrapeUrl).port) - 20000, t.scrapePool).toBe(prometheusHashmod(t.scrapePool, 3));
      }
      expect(new Set(active.map((t) => new URL(t.scrapeUrl).port)).size).toBe(3);
    });
  });

  describe.skipIf(!PROMTOOL && !CI)('the rules of the rendered PrometheusRules, extracted', () => {
    let rulesDir = '';
    beforeAll(() => {
      if (!PROMTOOL) throw new Error('promtool is not on PATH but CI is set: install the Debian package `prometheus`');
      // alerts/<group>.rules.yaml from each PrometheusRule's spec.
      rulesDir = join(dir, 'alerts');
      mkdirSync(rulesDir, { recursive: true });
      for (const r of ofKind(renders['default']!, 'PrometheusRule')) {
        writeFileSync(join(rulesDir, `${r.metadata.name.slice(`${RELEASE}-`.length)}.rules.yaml`), YAML.stringify(r.spec));
      }
    });

    it('they are the 7 rule files of alerts/, and pass promtool check rules', () => {
      const files = readdirSync(rulesDir).filter((f) => f.endsWith('.rules.yaml')).sort();
      expect(files).toEqual(readdirSync(join(ROOT, 'alerts')).filter((f) => f.endsWith('.rules.yaml')).sort());
      const r = run('promtool', ['check', 'rules', ...files], rulesDir);
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    });

    // The project's promtool cases (alerts/tests/*.test.yaml, about 36 s of CPU) run once, in
    // test/consistency/promql.test.ts, on alerts/*.rules.yaml; the rules of the rendered PrometheusRules are
    // those files group for group, field for field, so the cases pass on them too (running them a second
    // time here doubled the suite's heaviest step on a 2-core machine and timed both out under load).
    it('the project\'s promtool cases cover them: each extracted file equals its alerts/*.rules.yaml', () => {
      const files = readdirSync(rulesDir).filter((f) => f.endsWith('.rules.yaml'));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        expect(YAML.parse(readFileSync(join(rulesDir, f), 'utf8')), f).toEqual(YAML.parse(readFileSync(join(ROOT, 'alerts', f), 'utf8')));
      }
      expect(readdirSync(join(ROOT, 'alerts', 'tests')).some((f) => f.endsWith('.test.yaml'))).toBe(true);
    });
  });
});

describe('generate --format prometheus-chart', () => {
  it('the serverFiles values of the prometheus chart: alerting_rules.yml holds every group of alerts/*.rules.yaml', () => {
    ensureBuilt();
    const r = run(process.execPath, [CLI, 'generate', '--format', 'prometheus-chart']);
    expect(r.status, r.stderr).toBe(0);
    const values = YAML.parse(r.stdout) as { serverFiles: { 'alerting_rules.yml': { groups: unknown[] } } };
    const files = readdirSync(join(ROOT, 'alerts')).filter((f) => f.endsWith('.rules.yaml'));
    const expected = files.flatMap((f) => (YAML.parse(readFileSync(join(ROOT, 'alerts', f), 'utf8')) as { groups: { name: string }[] }).groups);
    const sortByName = (gs: unknown[]) => [...(gs as { name: string }[])].sort((a, b) => a.name.localeCompare(b.name));
    expect(sortByName(values.serverFiles['alerting_rules.yml'].groups)).toEqual(sortByName(expected));
  });

  it.skipIf(!PROMTOOL && !CI)('its alerting_rules.yml passes promtool check rules', () => {
    const out = mkdtempSync(join(tmpdir(), 'prometheus-chart-'));
    try {
      const values = join(out, 'values.yaml');
      const r = run(process.execPath, [CLI, 'generate', '--format', 'prometheus-chart', '--out', values]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const parsed = YAML.parse(readFileSync(values, 'utf8')) as { serverFiles: Record<string, unknown> };
      writeFileSync(join(out, 'alerting_rules.yml'), YAML.stringify(parsed.serverFiles['alerting_rules.yml']));
      const check = run('promtool', ['check', 'rules', 'alerting_rules.yml'], out);
      expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
      expect(check.stdout).toMatch(/SUCCESS: \d+ rules found/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('--dashboard-label sets the sidecar label of every ConfigMap', () => {
    const r = run(process.execPath, [CLI, 'generate', '--format', 'configmap', '--dashboard-label', 'dashboards=avalanche']);
    expect(r.status, r.stderr).toBe(0);
    const maps = YAML.parseAllDocuments(r.stdout).map((d) => d.toJSON() as K8sObject);
    expect(maps).toHaveLength(4);
    for (const m of maps) {
      expect(m.metadata.labels!['dashboards']).toBe('avalanche');
      expect(m.metadata.labels!['grafana_dashboard']).toBeUndefined();
    }
  });

  it('error: a bad --label or --format exits 2 and names it; Kubernetes flags with --format files are refused', () => {
    const bad = run(process.execPath, [CLI, 'generate', '--format', 'prometheusrule', '--label', 'no-equals']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--label');
    const fmt = run(process.execPath, [CLI, 'generate', '--format', 'helm']);
    expect(fmt.status).toBe(2);
    expect(fmt.stderr).toContain('prometheusrule');
    const files = run(process.execPath, [CLI, 'generate', '--out', join(tmpdir(), 'never-written'), '--label', 'release=x']);
    expect(files.status).toBe(2);
    expect(files.stderr).toContain('--label is for the Kubernetes objects');
  });
});
