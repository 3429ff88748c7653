// Real external programs (Prometheus, Alertmanager) for the end-to-end test: PATH lookup, spawn
// with captured output, bounded readiness waits and bounded shutdown (SIGTERM, then SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Absolute path of an executable on PATH, or undefined. */
export function onPath(cmd: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

export interface Program {
  name: string;
  child: ChildProcess;
  /** stdout and stderr interleaved, capped at the last 200 kB. */
  log(): string;
  /** Last `n` lines of the log (for failure messages). */
  tail(n?: number): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<number | null>;
}

const LOG_CAP = 200_000;

export function startProgram(name: string, bin: string, args: string[], cwd: string): Program {
  const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  let buf = '';
  const add = (d: Buffer): void => {
    buf += d.toString();
    if (buf.length > LOG_CAP) buf = buf.slice(-LOG_CAP);
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  const exited = new Promise<number | null>((r) => {
    child.once('exit', (code, signal) => r(code ?? (signal ? -1 : null)));
    child.once('error', (e) => {
      add(Buffer.from(`spawn error: ${String(e)}\n`));
      r(-1);
    });
  });
  let exitedFlag = false;
  void exited.then(() => (exitedFlag = true));
  return {
    name,
    child,
    log: () => buf,
    tail: (n = 30) => buf.split('\n').slice(-n).join('\n'),
    exited,
    async stop(graceMs = 5_000) {
      if (!exitedFlag && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const t = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }, graceMs);
      // The SIGKILL above ends it; the second bound only guards against a lost 'exit' event.
      const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), graceMs + 2_000))]);
      clearTimeout(t);
      return code;
    },
  };
}

/**
 * Polls `url` until it answers 200 (bounded). Fails early, with the program's log, when the
 * program exits first.
 */
export async function waitHttpOk(prog: Program, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void prog.exited.then(() => (dead = true));
  let last = '';
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${prog.name} exited before ${url} was ready:\n${prog.tail(40)}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (r.status === 200) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${prog.name}: ${url} not ready within ${timeoutMs} ms (${last}):\n${prog.tail(40)}`);
}
