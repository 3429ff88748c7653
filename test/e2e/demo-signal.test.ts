// `npm run demo` under a supervisor or `kill %1` (issue 12, point 3): a signal to the npm process must
// stop the exporter and the simulated node (same process), and nothing may be left running. The demo
// script `exec`s node, so npm's forwarded signal reaches it; the demo also stops when its parent
// disappears without forwarding anything (SIGKILL of npm).
//
// npm runs with --ignore-scripts: the predemo build would rewrite dist/ while other test files run
// dist/cli.js (npm test has built it already); the demo script itself runs as written.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, waitFor } from '../helpers/proc.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface DemoRun {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: DemoRun[] = [];

function startDemo(): DemoRun {
  // detached: its own process group, so that cleanup can end whatever this test started.
  const npm = spawn(NPM, ['run', 'demo', '--ignore-scripts', '--', '--web.listen-address', '127.0.0.1:0', '--sim.validators', '50', '--sim.peers', '60'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => npm.once('exit', (code, signal) => r({ code, signal })));
  const run = { npm, output: () => out, exited };
  runs.push(run);
  return run;
}

/** Children of `pid`, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z'; // a zombie has exited
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await r.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** Waits for the banner and a first answer of /metrics; returns the URLs and the node process. */
async function ready(run: DemoRun): Promise<{ exporter: string; node: string; control: string; demoPid: number }> {
  const banner = await waitFor(() => {
    const t = run.output();
    const exporter = /exporter:\s+(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(t)?.[1];
    const node = /simulated node:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(t)?.[1];
    const control = /curl -X POST (http:\/\/127\.0\.0\.1:\d+)\/sim\/scenario/.exec(t)?.[1];
    return exporter && node && control ? { exporter, node, control } : undefined;
  }, 30_000).catch((e: Error) => {
    throw new Error(`${e.message}\n${run.output()}`);
  });
  await waitFor(() => answers(`${banner.exporter}/metrics`), 10_000);
  const kids = childrenOf(run.npm.pid!);
  // The demo script execs node: npm's one child is the exporter itself, not a shell.
  expect(kids, `children of npm: ${kids.join(', ')}`).toHaveLength(1);
  expect(readFileSync(`/proc/${kids[0]}/cmdline`, 'utf8').split('\0').slice(0, 4)).toEqual(['node', '--v8-pool-size=1', 'dist/cli.js', 'demo']);
  return { ...banner, demoPid: kids[0]! };
}

async function expectAllGone(urls: string[], pids: number[]): Promise<void> {
  await waitFor(async () => {
    for (const u of urls) if (await answers(u)) return false;
    return pids.every((p) => !alive(p));
  }, 10_000, 100).catch((e: Error) => {
    throw new Error(`${e.message}: still answering ${urls.filter(Boolean).join(' ')} or running ${pids.filter(alive).join(' ')}`);
  });
}

beforeAll(() => ensureBuilt());
afterAll(() => {
  for (const r of runs) {
    try {
      process.kill(-r.npm.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

describe.skipIf(process.platform !== 'linux')('npm run demo and signals', () => {
  it('default: the demo script builds the exporter and the simulated node first (predemo) and execs node', () => {
    const scripts = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['predemo']).toBe('tsc -b tsconfig.json'); // the exporter and, by its reference, the simulated node
    expect(scripts['demo']).toBe('exec node --v8-pool-size=1 dist/cli.js demo');
    expect(scripts['start']).toBe('exec node --v8-pool-size=1 dist/cli.js');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('behavior: %s to the npm process stops the exporter and the simulated node; nothing is left', async (signal) => {
    const run = startDemo();
    const { exporter, node, control, demoPid } = await ready(run);
    expect(await answers(`${node}/ext/health`)).toBe(true);
    process.kill(run.npm.pid!, signal);
    const exit = await Promise.race([run.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
    expect(exit, `npm did not exit within 15 s:\n${run.output()}`).toBeDefined();
    await expectAllGone([`${exporter}/metrics`, `${node}/ext/health`, `${control}/sim/state`], [run.npm.pid!, demoPid]);
    // The exporter stopped through its own shutdown path (not killed), so npm reports success.
    expect(run.output()).toContain(`"event":"shutdown","signal":"${signal}"`);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('behavior: SIGKILL of npm (nothing forwarded): the orphaned demo notices and stops by itself', async () => {
    const run = startDemo();
    const { exporter, node, demoPid } = await ready(run);
    process.kill(run.npm.pid!, 'SIGKILL');
    await run.exited;
    await expectAllGone([`${exporter}/metrics`, `${node}/ext/health`], [demoPid]);
  });
});
