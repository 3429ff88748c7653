// The real programs the backtest starts (promtool, prometheus, victoria-metrics, vmalert, amtool,
// alertmanager): found on PATH, run to completion or started on a loopback port and stopped by their
// own process ID. Every wait is bounded in count and in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/** The absolute path of `name` on PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function need(name: string, why: string): string {
  const p = onPath(name);
  if (!p) throw new Error(`${name} is not on PATH (${why}); on Debian: apt-get install ${DEBIAN_PACKAGE[name] ?? name}`);
  return p;
}

const DEBIAN_PACKAGE: Record<string, string> = {
  promtool: 'prometheus',
  prometheus: 'prometheus',
  amtool: 'prometheus-alertmanager',
  'prometheus-alertmanager': 'prometheus-alertmanager',
  vmalert: 'victoria-metrics',
  'victoria-metrics': 'victoria-metrics',
};

/** Children still running: killed when this process exits, so that none outlives the backtest. */
const live = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** Stops every child still running (SIGTERM, then SIGKILL after `graceMs`); for a signal handler. */
export async function stopAll(graceMs = 5000): Promise<void> {
  await Promise.all(
    [...live].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
          c.once('exit', () => (clearTimeout(t), resolve()));
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** The largest resident set (MB) any child program reached, by program name (Linux: /proc/PID/status VmHWM). */
export const childPeakMb = new Map<string, number>();

function highWater(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined; // not Linux, or already gone
  }
}

/** Polls a child's high-water mark until it exits (every 200 ms, and once more at the end). */
function watchMemory(name: string, child: ChildProcess): () => void {
  const read = () => {
    const mb = highWater(child.pid);
    if (mb !== undefined && mb > (childPeakMb.get(name) ?? 0)) childPeakMb.set(name, mb);
  };
  const timer = setInterval(read, 200);
  timer.unref();
  return () => {
    read();
    clearInterval(timer);
  };
}

/** A free TCP port on 127.0.0.1 (bind to 0, read, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
}

/** Runs a program to completion (at most `timeoutMs`; then it is killed and this throws). */
export function runProgram(bin: string, args: readonly string[], opts: { cwd?: string; timeoutMs: number; input?: string }): Promise<RunOutput> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    track(child);
    const doneWatching = watchMemory(bin.replace(/^.*\//, ''), child);
    child.stdout!.once('end', doneWatching);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => void (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString('utf8')));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${bin} ${args.join(' ')} did not finish within ${opts.timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, opts.timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, wallMs: performance.now() - started });
    });
  });
}

export interface Service {
  readonly name: string;
  readonly url: string;
  readonly pid: number | undefined;
  /** the last lines it wrote (for error messages) */
  tail(lines?: number): string;
  stop(graceMs?: number): Promise<void>;
}

/** Starts a long-running program and waits (bounded) until `readyPath` on `url` answers 200. */
export async function startService(name: string, bin: string, args: readonly string[], url: string, readyPath: string, opts: { cwd?: string; readyTimeoutMs: number }): Promise<Service> {
  const child: ChildProcess = spawn(bin, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  const doneWatching = watchMemory(name, child);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString('utf8');
    if (out.length > 64_000) out = out.slice(-32_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', (e) => keep(Buffer.from(`spawn error: ${e.message}\n`)));
  const service: Service = {
    name,
    url,
    pid: child.pid,
    tail: (lines = 20) => out.split('\n').slice(-lines).join('\n'),
    async stop(graceMs = 10_000) {
      doneWatching();
      if (exited) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(t);
    },
  };
  const deadline = Date.now() + opts.readyTimeoutMs;
  for (let attempt = 0; attempt < 10_000 && Date.now() < deadline; attempt++) {
    if (exited) throw new Error(`${name} exited before it was ready:\n${service.tail()}`);
    try {
      const r = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.status === 200) return service;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await service.stop();
  throw new Error(`${name} was not ready within ${opts.readyTimeoutMs} ms on ${url}${readyPath}:\n${service.tail()}`);
}
