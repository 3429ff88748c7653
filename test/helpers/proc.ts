import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = resolve(ROOT, 'dist/cli.js');

/** Builds dist/ once if a test runs without `npm test` (which builds first). */
export function ensureBuilt(): void {
  // The simulated node first (a workspace package the exporter's cli.ts imports), then the exporter.
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'simulated-node', 'dist', 'index.js'))) spawnSync('npx', ['tsc', '-b', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
}

/** A free loopback port (bind to 0, read, close). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}

/**
 * Polls `fn` every `stepMs` until it returns a truthy value; a throw counts as "not yet" (the last
 * error is named if time runs out). Bounded by `timeoutMs`, and the attempt that decides a timeout
 * always STARTS after the deadline: on a loaded machine one slow attempt that began early (a cold
 * start, a starved worker) cannot use up the whole budget and fail a condition that holds by then.
 */
export async function waitFor<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const startedAfterDeadline = Date.now() >= deadline;
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (startedAfterDeadline) break;
    await new Promise((r) => setTimeout(r, Math.min(stepMs, Math.max(0, deadline - Date.now()))));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

export async function scrape(url: string): Promise<string> {
  const r = await fetch(url);
  return r.text();
}

/** Value of the first sample matching name and label subset, or undefined. */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    const v = line.slice(line.lastIndexOf(' ') + 1);
    return v === '+Inf' ? Number.POSITIVE_INFINITY : v === '-Inf' ? Number.NEGATIVE_INFINITY : Number(v);
  }
  return undefined;
}
