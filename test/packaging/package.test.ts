// What a user installs (issue 12, point 7): the npm package ships what runs (dist without source
// maps, the rule files, dashboards, examples, docs, LICENSE) and nothing else; a tarball installed
// into an empty prefix gives a working command; the Dockerfile's health check follows the exporter's
// configuration and its default command needs no --add-host.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../src/runtime-flags.js';
import { ROOT, ensureBuilt } from '../helpers/proc.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  repository: { url: string };
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
  engines: { node: string };
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function packList(cwd: string): string[] {
  // --ignore-scripts: `prepare` would rebuild dist/ under the other test files that run it.
  const r = spawnSync(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', timeout: 60_000, env: npmEnv });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}

describe('LICENSE and package metadata', () => {
  it('default: LICENSE is the Apache License 2.0 that package.json names', () => {
    expect(pkg.license).toBe('Apache-2.0');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//);
    expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text.split('\n').length).toBeGreaterThan(190); // the full text, not a notice
  });

  it('default: repository is an https GitHub URL, and the engines match the Node.js check', () => {
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    expect(pkg.engines.node).toBe('>=20.18');
    expect(pkg.bin['avalanche-exporter']).toBe('dist/cli.js');
    expect(readFileSync(join(ROOT, 'src', 'cli.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(pkg.scripts['prepare']).toBe('node scripts/prepare.mjs');
    expect(readFileSync(join(ROOT, 'scripts', 'prepare.mjs'), 'utf8')).toContain("'--sourceMap', 'false'");
  });
});

describe('npm package contents', () => {
  it('default: dist (no source maps), every rule file, dashboards, examples, docs, README, LICENSE; no tests, sources or alert tests', () => {
    ensureBuilt();
    const files = packList(ROOT);
    const has = (p: string) => files.includes(p);
    const sim = 'node_modules/@avalanche-exporter/simulated-node';
    for (const p of ['package.json', 'README.md', 'LICENSE', 'dist/cli.js', 'dist/main.js', 'dist/library.js', 'docs/runbook.md', 'docs/metrics.md', 'alerts/README.md', 'examples/prometheus.yml', 'examples/alertmanager.yml', 'examples/systemd/avalanche-exporter.service', `${sim}/package.json`, `${sim}/dist/index.js`, `${sim}/dist/server.js`]) {
      expect(has(p), `${p} missing from the package`).toBe(true);
    }
    for (const f of readdirSync(join(ROOT, 'alerts')).filter((f) => f.endsWith('.rules.yaml'))) expect(has(`alerts/${f}`), f).toBe(true);
    for (const f of readdirSync(join(ROOT, 'dashboards')).filter((f) => f.endsWith('.json'))) expect(has(`dashboards/${f}`), f).toBe(true);
    // The exporter and the simulated node (bundled: `demo` and `sim` need it) only: the backtest is a workspace
    // of its own that nothing shipped imports; no declarations, build info, sources or tests of either package.
    const unwanted = files.filter((p) => p.endsWith('.map') || p.startsWith('alerts/tests/') || p.startsWith('src/') || p.startsWith('test/') || p.startsWith('bench/') || p.startsWith('backtest/') || p.includes('/backtest/') || p.includes('tsbuildinfo') || (p.endsWith('.ts') && !/^node_modules\/(bs58|base-x)\//.test(p)));
    expect(unwanted).toEqual([]);
    // Bundled: the simulated node and its one dependency (bs58, with base-x), nothing else.
    const bundled = new Set(files.filter((p) => p.startsWith('node_modules/')).map((p) => p.split('/').slice(1, p.startsWith('node_modules/@') ? 3 : 2).join('/')));
    expect([...bundled].sort()).toEqual(['@avalanche-exporter/simulated-node', 'base-x', 'bs58']);
  });

  it('behavior: the package as `npm pack` builds it, installed into an empty prefix, gives a working avalanche-exporter command', () => {
    // The package is assembled in a temporary copy as `prepare` builds it (tsc without source maps),
    // so this neither touches dist/ of the clone nor needs the network beyond npm's cache.
    const stage = mkdtempSync(join(tmpdir(), 'avax-exporter-pack-'));
    dirs.push(stage);
    const src = join(stage, 'src');
    for (const p of ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'alerts', 'dashboards', 'examples', 'docs', 'simulated-node/package.json']) {
      cpSync(join(ROOT, p), join(src, p), { recursive: true });
    }
    // The bundled workspace as npm links it (node_modules/@avalanche-exporter/simulated-node → the folder), with
    // the production dependencies npm bundles with it (from npm's cache, as the Dockerfile's runtime stage installs).
    const ci = spawnSync(NPM, ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--workspace=@avalanche-exporter/simulated-node', '--include-workspace-root'], { cwd: src, encoding: 'utf8', timeout: 120_000, env: npmEnv });
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    ensureBuilt(); // the simulated node's declarations, which the exporter compiles against
    const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
    const once = ['--sourceMap', 'false', '--composite', 'false', '--declaration', 'false', '--incremental', 'false'];
    for (const [project, out] of [['simulated-node/tsconfig.json', join(src, 'simulated-node', 'dist')], ['tsconfig.json', join(src, 'dist')]] as const) {
      const build = spawnSync(process.execPath, [tsc, '-p', project, ...once, '--outDir', out], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
      expect(build.status, build.stdout + build.stderr).toBe(0);
    }
    const pack = spawnSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', stage], { cwd: src, encoding: 'utf8', timeout: 60_000, env: npmEnv });
    expect(pack.status, pack.stderr).toBe(0);
    const tgz = join(stage, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
    const shipped = readFileSync(join(src, 'dist', 'cli.js'), 'utf8');
    expect(shipped).not.toContain('sourceMappingURL'); // no pointer to maps that are not shipped

    const prefix = join(stage, 'prefix');
    const install = spawnSync(NPM, ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tgz], { cwd: stage, encoding: 'utf8', timeout: 120_000, env: npmEnv });
    expect(install.status, install.stdout + install.stderr).toBe(0);
    const bin = join(prefix, 'bin', 'avalanche-exporter');
    expect(existsSync(bin)).toBe(true);
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`avalanche-exporter ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    const installed = join(prefix, 'lib', 'node_modules', 'avalanche-exporter');
    const check = spawnSync(bin, ['check-config', '--config.file', join(installed, 'examples', 'config.yaml')], { encoding: 'utf8', timeout: 15_000 });
    expect(check.status, check.stderr).toBe(0);
    expect(existsSync(join(installed, 'alerts', 'tests'))).toBe(false);
    // The simulated node came bundled: `sim --help` loads it from the installed package.
    const simHelp = spawnSync(bin, ['sim', '--help'], { encoding: 'utf8', timeout: 15_000 });
    expect(simHelp.status, simHelp.stderr).toBe(0);
    expect(simHelp.stdout).toContain('--scenario');
    expect(existsSync(join(installed, 'node_modules', '@avalanche-exporter', 'simulated-node', 'dist', 'index.js'))).toBe(true);
    // `generate` works where the package is installed: the Grafana SDK is a runtime dependency (issue 18).
    const gen = spawnSync(bin, ['generate', '--config', join(installed, 'examples', 'monitoring.yaml'), '--out', join(stage, 'generated')], { encoding: 'utf8', timeout: 30_000 });
    expect(gen.status, gen.stderr).toBe(0);
    expect(readdirSync(join(stage, 'generated', 'dashboards')).sort()).toEqual(['avalanche-node-internals.json', 'avalanche-node.json', 'avalanche-overview.json', 'avalanche-validator.json']);
    expect(readdirSync(join(stage, 'generated', 'alerts'))).toHaveLength(7);
  }, 240_000);
});

describe('the shipped launchers', () => {
  it('default: the Dockerfile, the systemd unit, npm start and npm run demo all start node with NODE_FLAGS, and docs/deployment.md shows them', () => {
    // The words between the program (node) and the script (…dist/cli.js).
    const before = (cmd: string) => {
      const words = cmd.trim().split(/\s+/);
      return words.slice(1, words.findIndex((w) => w.endsWith('dist/cli.js')));
    };
    const entry = /^ENTRYPOINT (.*)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1]!;
    const entryArgs = JSON.parse(entry) as string[];
    expect(entryArgs.slice(1, entryArgs.indexOf('dist/cli.js'))).toEqual([...NODE_FLAGS]);
    const unit = /^ExecStart=(.*)$/m.exec(readFileSync(join(ROOT, 'examples/systemd/avalanche-exporter.service'), 'utf8'))![1]!;
    expect(before(unit)).toEqual([...NODE_FLAGS]);
    for (const script of ['start', 'demo']) expect(before(pkg.scripts[script]!.replace(/^exec /, '')), script).toEqual([...NODE_FLAGS]);
    const deployment = readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8');
    expect(deployment).toContain(`ExecStart=/usr/bin/node ${NODE_FLAGS.join(' ')} /opt/avalanche-exporter/dist/cli.js`);
    expect(deployment).toContain(`NODE_OPTIONS=${NODE_FLAGS.join(' ')} avalanche-exporter`);
    // The README's one-node command line starts node the same way.
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`node ${NODE_FLAGS.join(' ')} dist/cli.js --node.url`);
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  // Instructions with their continuation lines joined.
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const of = (op: string) => instructions.filter((l) => l.toUpperCase().startsWith(`${op} `));
  const execForm = (line: string) => JSON.parse(line.slice(line.indexOf('['))) as string[];

  it('default: two stages on Node.js 20 or later; production dependencies only at runtime; non-root', () => {
    const froms = of('FROM');
    expect(froms).toHaveLength(2);
    for (const f of froms) expect(Number(/node:(\d+)/.exec(f)?.[1])).toBeGreaterThanOrEqual(20);
    expect(of('RUN').some((r) => r.includes('npm ci --omit=dev'))).toBe(true);
    expect(of('RUN').some((r) => r.includes('--sourceMap false'))).toBe(true);
    expect(of('USER')).toEqual(['USER node']);
  });

  it('default: the image holds the exporter and the simulated node only: the backtest is neither copied nor removed afterwards', () => {
    expect(text).not.toMatch(/rm -rf|backtest\//);
    expect(of('COPY').filter((c) => c.includes('simulated-node/dist'))).toHaveLength(1);
    const installs = of('RUN').filter((r) => r.includes('npm ci'));
    expect(installs).toHaveLength(2);
    for (const r of installs) expect(r).toContain('--workspace=@avalanche-exporter/simulated-node --include-workspace-root');
  });

  it('default: the HEALTHCHECK runs the healthcheck subcommand with the flags of the running exporter (PID 1), not a fixed URL', () => {
    const hc = of('HEALTHCHECK');
    expect(hc).toHaveLength(1);
    const cmd = execForm(hc[0]!.slice(hc[0]!.indexOf(' CMD ') + 5));
    expect(cmd).toEqual(['node', 'dist/cli.js', 'healthcheck', '--pid', '1']);
    expect(hc[0]).not.toMatch(/10650|http:\/\//);
  });

  it('default: the default command reaches a node without --add-host (127.0.0.1 with --network host), shown in the README and docs/deployment.md', () => {
    expect(execForm(of('ENTRYPOINT')[0]!)).toEqual(['node', '--v8-pool-size=1', 'dist/cli.js']);
    expect(execForm(of('CMD')[0]!)).toEqual(['--node.url', 'http://127.0.0.1:9650']);
    expect(text).not.toContain('host.docker.internal');
    for (const doc of ['README.md', 'docs/deployment.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      expect(text, doc).toContain('docker run --rm --network host --read-only avalanche-exporter');
      expect(text, doc).not.toContain('--add-host avalanche');
    }
  });

  it('default: everything it copies exists and is not excluded by .dockerignore', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    const sources = of('COPY')
      .filter((c) => !c.includes('--from='))
      .flatMap((c) => c.split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const s of sources) {
      expect(existsSync(join(ROOT, s)), `COPY ${s}: not in the repository`).toBe(true);
      expect(ignored.filter((i) => s === i || s.startsWith(`${i}/`)), `COPY ${s} is excluded by .dockerignore`).toEqual([]);
    }
  });
});
