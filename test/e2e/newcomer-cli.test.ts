// The command line as a newcomer meets it (issue 12): help after every subcommand, a bad port named
// instead of a stack trace, the all-interfaces start-up line, and the `healthcheck` subcommand the
// Docker HEALTHCHECK runs (following the listen address and the TLS of --web.config.file).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allInterfacesNotice, bindsAllInterfaces } from '../../src/server/listen-notice.js';
import { exporterArgsFromCmdline, healthzUrl } from '../../src/server/healthcheck.js';
import { CLI, ensureBuilt, freePort, startCli, waitFor, type Proc } from '../helpers/proc.js';
import { makePki, type TestPki } from '../security/certs.js';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15_000, env: { ...process.env, ...env } });

/** A node URL nothing listens on: the exporter still serves /healthz and its landing page. */
const NO_NODE = ['--node.url', 'http://127.0.0.1:1', '--log.level', 'info'];

const procs: Proc[] = [];
const dirs: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('help and usage errors', () => {
  it.each([['demo'], ['check-config'], ['run'], ['healthcheck'], ['sim']])('default: `%s --help` prints the help and exits 0', (sub) => {
    for (const flag of ['--help', '-h']) {
      const r = cli([sub, flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Usage:/);
      expect(r.stderr).not.toContain('unknown flag');
    }
  });

  it('default: help after other flags too, and per subcommand', () => {
    const r = cli(['check-config', '--node.url', 'http://127.0.0.1:9650', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('avalanche-exporter check-config: Validates the configuration');
    expect(cli(['demo', '--help']).stdout).toContain('--sim.scenario NAME');
  });

  it('error: --web.listen-address 127.0.0.1:99999 exits 2 naming the field, without a stack trace', () => {
    const r = cli(['--web.listen-address', '127.0.0.1:99999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('avalanche-exporter: invalid configuration:\n  web.listenAddress (--web.listen-address): expected a port 1-65535 (or 0 for any free port), got 99999\n');
  });

  it('error: misspelt flag and subcommand get the nearest valid one', () => {
    const flag = cli(['--node.ulr', 'http://127.0.0.1:9650']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toBe('avalanche-exporter: unknown flag --node.ulr; did you mean --node.url?\n');
    const sub = cli(['chek-config']);
    expect(sub.status).toBe(2);
    expect(sub.stderr).toContain('did you mean check-config?');
    const sim = cli(['demo', '--sim.scenrio', 'down']);
    expect(sim.status).toBe(2);
    expect(sim.stderr).toContain('did you mean --sim.scenario?');
  });

  it('behavior: --collection.interval 5s alone passes check-config', () => {
    const r = cli(['check-config', '--collection.interval', '5s']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('configuration OK');
  });
});

describe('bind address at start-up', () => {
  it('default: bindsAllInterfaces knows the all-interfaces forms', () => {
    expect([':10650', '0.0.0.0:1', '[::]:1'].map(bindsAllInterfaces)).toEqual([true, true, true]);
    expect(['127.0.0.1:1', '[::1]:1', 'host.example:1'].map(bindsAllInterfaces)).toEqual([false, false, false]);
    const n = allInterfacesNotice(':10650', 10650, {
      lo: [{ address: '127.0.0.1' } as never, { address: '::1' } as never],
      eth0: [{ address: '10.1.2.3' } as never],
    });
    expect(n?.interfaces).toEqual(['lo 127.0.0.1 ::1', 'eth0 10.1.2.3']);
    expect(n?.message).toContain('listening on all interfaces (lo 127.0.0.1 ::1; eth0 10.1.2.3), port 10650');
    expect(n?.message).toContain('--web.listen-address 127.0.0.1:10650');
    expect(allInterfacesNotice('127.0.0.1:10650', 10650)).toBeUndefined();
  });

  it('behavior: `:PORT` logs one line naming the interfaces; a loopback address logs none', async () => {
    // Binds every interface on an ephemeral port for a moment; only 127.0.0.1 is contacted.
    const all = startCli([...NO_NODE, '--web.listen-address', ':0']);
    procs.push(all);
    const line = await waitFor(() => all.stdout().split('\n').find((l) => l.includes('"event":"listening_all_interfaces"')), 10_000);
    const rec = JSON.parse(line) as { msg: string; interfaces: string[] };
    expect(rec.msg).toMatch(/^listening on all interfaces \(.*lo 127\.0\.0\.1.*\), port \d+: whoever reaches this host can read the metrics; use --web.listen-address 127\.0\.0\.1:\d+ for loopback only/);
    expect(rec.interfaces.some((i) => i.startsWith('lo '))).toBe(true);
    expect(all.stdout().split('\n').filter((l) => l.includes('listening_all_interfaces'))).toHaveLength(1);
    expect(await all.stop('SIGTERM')).toBe(0);

    const port = await freePort();
    const lo = startCli([...NO_NODE, '--web.listen-address', `127.0.0.1:${port}`]);
    procs.push(lo);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 10_000);
    expect(await lo.stop('SIGTERM')).toBe(0);
    expect(lo.stdout()).toContain('"event":"listening"');
    expect(lo.stdout()).not.toContain('listening_all_interfaces');
  });
});

describe('healthcheck subcommand (Docker HEALTHCHECK)', () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makePki();
    dirs.push(pki.dir);
  });

  it('default: the URL follows the listen address and TLS', () => {
    expect(healthzUrl(':10650', false)).toBe('http://127.0.0.1:10650/healthz');
    expect(healthzUrl('0.0.0.0:9', true)).toBe('https://127.0.0.1:9/healthz');
    expect(healthzUrl('[::]:9', false)).toBe('http://[::1]:9/healthz');
    expect(healthzUrl('10.0.0.5:9', false)).toBe('http://10.0.0.5:9/healthz');
  });

  it('behavior: exit 0 against a running exporter over HTTP, 1 when nothing answers', async () => {
    const port = await freePort();
    const env = { AVAX_EXPORTER_WEB_LISTEN_ADDRESS: `127.0.0.1:${port}` };
    const down = cli(['healthcheck'], env);
    expect(down.status).toBe(1);
    expect(down.stdout).toContain(`http://127.0.0.1:${port}/healthz: ECONNREFUSED`);
    const p = startCli(NO_NODE, env);
    procs.push(p);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 10_000);
    const up = cli(['healthcheck'], env);
    expect(up.status, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toBe(`http://127.0.0.1:${port}/healthz: HTTP 200 (healthy)\n`);
    await p.stop('SIGTERM');
  });

  it('behavior: follows TLS and basic auth of --web.config.file (https, /healthz needs no password)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-hc-'));
    dirs.push(dir);
    const web = join(dir, 'web.yml');
    // With basic_auth_users, /healthz stays open for probes.
    writeFileSync(web, `tls_server_config:\n  cert_file: ${pki.serverCert}\n  key_file: ${pki.serverKey}\nbasic_auth_users:\n  prom: ${bcrypt.hashSync('secret', 4)}\n`);
    const port = await freePort();
    const args = ['--web.listen-address', `127.0.0.1:${port}`, '--web.config.file', web];
    const p = startCli([...NO_NODE, ...args]);
    procs.push(p);
    await waitFor(() => p.stdout().includes('"event":"listening"'), 10_000);
    const r = cli(['healthcheck', ...args]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toBe(`https://127.0.0.1:${port}/healthz: HTTP 200 (healthy)\n`);
    // The same exporter probed over plain HTTP (a HEALTHCHECK that ignored the web config) fails.
    const plain = cli(['healthcheck', '--web.listen-address', `127.0.0.1:${port}`]);
    expect(plain.status).toBe(1);
    // What the Docker HEALTHCHECK does: no flags of its own, the running exporter's from /proc/PID/cmdline.
    const byPid = cli(['healthcheck', '--pid', String(p.child.pid)]);
    expect(byPid.status, byPid.stdout + byPid.stderr).toBe(0);
    expect(byPid.stdout).toBe(`https://127.0.0.1:${port}/healthz: HTTP 200 (healthy)\n`);
    await p.stop('SIGTERM');
    const gone = cli(['healthcheck', '--pid', String(p.child.pid)]);
    expect(gone.status).toBe(1); // never 2: Docker reserves it
    expect(gone.stderr).toContain(`--pid ${p.child.pid}: cannot read /proc/${p.child.pid}/cmdline`);
  });

  it('default: the exporter flags are read from a command line as Docker starts it (with or without --init)', () => {
    const z = (...a: string[]) => `${a.join('\0')}\0`;
    expect(exporterArgsFromCmdline(z('node', 'dist/cli.js', '--node.url', 'http://127.0.0.1:9650'))).toEqual(['--node.url', 'http://127.0.0.1:9650']);
    expect(exporterArgsFromCmdline(z('node', '--v8-pool-size=1', 'dist/cli.js', '--node.url', 'http://127.0.0.1:9650'))).toEqual(['--node.url', 'http://127.0.0.1:9650']);
    expect(exporterArgsFromCmdline(z('/sbin/docker-init', '--', 'node', 'dist/cli.js', 'run', '--web.listen-address', ':9'))).toEqual(['--web.listen-address', ':9']);
    expect(exporterArgsFromCmdline(z('/usr/bin/node', '/usr/local/bin/avalanche-exporter'))).toEqual([]);
    expect(exporterArgsFromCmdline(z('node', 'dist/cli.js', 'demo'))).toBeUndefined();
    expect(exporterArgsFromCmdline(z('/bin/sh', '-c', 'sleep 1'))).toBeUndefined();
  });
});
