// The image's runtime stage, proved without a Docker engine (issue 45): the Dockerfile's own instructions
// (test/deploy/dockerfile.ts parses them; no file list is repeated here) replayed in a throw-away directory.
// The build stage runs as written (its compile included), except that its `npm ci` of the same lock file
// with the dev dependencies links the repository's node_modules instead of installing them again. The
// runtime stage runs as written: `npm ci --omit=dev` (offline-friendly: npm's cache first) and its copies;
// only `npm cache clean`, which would empty this machine's npm cache, is skipped. Then the ENTRYPOINT
// starts `demo` from the runtime stage's WORKDIR with its ENV on a free loopback port: /metrics must show
// the simulated node up, and the HEALTHCHECK command (its --pid pointed at the demo) must exit 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort } from '../helpers/proc.js';
import { execForm, parseDockerfile, replay, type Replay } from './dockerfile.js';

const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const lastOf = (op: string) => runtime.instructions.filter((i) => i.op === op).at(-1);

let dir = '';
let result: Replay;
let demo: ChildProcess | undefined;
let port = 0;
let stderr = '';

describe('Dockerfile: the runtime stage replayed in a throw-away directory', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dockerfile-runtime-'));
    result = replay(stages, {
      context: ROOT,
      dir,
      substitute: (stage, command) => {
        if (/^npm cache clean\b/.test(command)) return 'true';
        if (stage !== runtime && /^npm ci\b/.test(command) && !command.includes('--omit=dev')) return `ln -s '${join(ROOT, 'node_modules')}' node_modules`;
        return undefined;
      },
      env: { npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      timeoutMs: 240_000,
    });
    port = await freePort();
    const entry = execForm(lastOf('ENTRYPOINT')!.args);
    expect(entry[0]).toBe('node');
    demo = spawn(process.execPath, [...entry.slice(1), 'demo', '--web.listen-address', `127.0.0.1:${port}`], {
      cwd: result.workdir[runtime.name],
      env: { ...process.env, ...result.env[runtime.name] },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    demo.stderr!.on('data', (d) => (stderr += d));
  }, 300_000);

  afterAll(async () => {
    if (demo && demo.exitCode === null) {
      const exited = new Promise((r) => demo!.once('exit', r));
      demo.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (demo.exitCode === null) demo.kill('SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the runtime stage has production dependencies only: no TypeScript, no vitest', () => {
    const modules = join(result.workdir[runtime.name]!, 'node_modules');
    expect(existsSync(join(modules, 'yaml'))).toBe(true);
    expect(existsSync(join(modules, 'typescript'))).toBe(false);
    expect(existsSync(join(modules, 'vitest'))).toBe(false);
    expect(result.log.some((l) => l.startsWith('RUN npm ci') && l.includes('--omit=dev'))).toBe(true);
  });

  it('`generate --format prometheusrule` works from the runtime stage (the Kubernetes models are production dependencies)', () => {
    const entry = execForm(lastOf('ENTRYPOINT')!.args);
    const r = spawnSync(process.execPath, [...entry.slice(1), 'generate', '--format', 'prometheusrule', '--label', 'release=kube-prometheus-stack'], {
      cwd: result.workdir[runtime.name],
      env: { ...process.env, ...result.env[runtime.name] },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/^kind: PrometheusRule$/gm)?.length).toBeGreaterThan(0);
  });

  it('`demo` started by the ENTRYPOINT from the runtime stage serves /metrics with the simulated node up', async () => {
    let text = '';
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && demo!.exitCode === null) {
      try {
        text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        if (/^avax_up\{[^}]*\} 1$/m.test(text)) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(text, `demo exited ${demo!.exitCode}: ${stderr.slice(-2000)}`).toMatch(/^avax_up\{[^}]*\} 1$/m);
    expect(text).toMatch(/^avax_exporter_build_info\{/m);
  }, 90_000);

  const healthcheck = (args: string[]) =>
    spawnSync(process.execPath, args, { cwd: result.workdir[runtime.name], env: { ...process.env, ...result.env[runtime.name] }, encoding: 'utf8', timeout: 30_000 });
  const healthcheckCommand = () => {
    const hc = lastOf('HEALTHCHECK')!.args;
    const cmd = execForm(hc.slice(hc.indexOf('CMD ') + 4));
    expect(cmd[0]).toBe('node');
    return cmd.slice(1);
  };

  it('`healthcheck` from the runtime stage, given the demo\'s listen address, exits 0', () => {
    const words = healthcheckCommand();
    const at = words.indexOf('--pid');
    const args = [...(at < 0 ? words : [...words.slice(0, at), ...words.slice(at + 2)]), '--web.listen-address', `127.0.0.1:${port}`];
    const r = healthcheck(args);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('the HEALTHCHECK command as written (--pid of the exporter the ENTRYPOINT and CMD started, against the demo\'s simulated node) exits 0', async () => {
    const sim = /simulated node:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
    expect(sim, stderr).toBeDefined();
    const cmd = execForm(lastOf('CMD')!.args).map((a, i, all) => (all[i - 1] === '--node.url' ? sim! : a));
    const ownPort = await freePort();
    const entry = execForm(lastOf('ENTRYPOINT')!.args);
    const exporter = spawn(process.execPath, [...entry.slice(1), ...cmd, '--web.listen-address', `127.0.0.1:${ownPort}`], {
      cwd: result.workdir[runtime.name],
      env: { ...process.env, ...result.env[runtime.name] },
      stdio: 'ignore',
    });
    try {
      const args = healthcheckCommand().map((a, i, all) => (all[i - 1] === '--pid' ? String(exporter.pid) : a));
      let r = healthcheck(args);
      for (let i = 0; i < 40 && r.status !== 0 && exporter.exitCode === null; i++) {
        await new Promise((res) => setTimeout(res, 250));
        r = healthcheck(args);
      }
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    } finally {
      exporter.kill('SIGTERM');
    }
  }, 60_000);
});
