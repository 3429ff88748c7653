// --runtime.collecting-niceness (src/runtime-priority.ts): with the serving thread on, `run` makes every
// other thread of the process a few steps nicer than the serving thread, so /probe and /metrics are
// answered ahead of collection. The processes are real (dist/cli.js, `npm test` builds first); the
// niceness of each thread is read from /proc/<pid>/task/<tid>/stat, field 19.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NICENESS, niceOrders, parseTaskStat, type ThreadNice } from '../../src/runtime-priority.js';
import { ROOT, startCli, waitFor } from '../helpers/proc.js';

const linux = existsSync('/proc/self/task');

/** Every thread of `pid` now: tid → niceness. */
function nicenessOf(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const t = parseTaskStat(Number(tid), readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      if (t) out.set(t.tid, t.nice);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

const events = (stdout: string, event: string) =>
  stdout
    .split('\n')
    .filter((l) => l.includes(`"event":"${event}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('collecting niceness: the pure parts', () => {
  it('reads the name and niceness of a stat line whose name holds spaces and parentheses', () => {
    const stat = (name: string, nice: number) => `4242 (${name}) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 20 ${nice} 11 0 123 456 789`;
    expect(parseTaskStat(4242, stat('node', 0))).toEqual({ tid: 4242, nice: 0, name: 'node' });
    expect(parseTaskStat(7, stat('a) b (c', -3))).toEqual({ tid: 7, nice: -3, name: 'a) b (c' });
    expect(parseTaskStat(7, stat('node', 19))?.nice).toBe(19);
    expect(parseTaskStat(7, '')).toBeUndefined();
    expect(parseTaskStat(7, '7 (node) S 1 2')).toBeUndefined();
    expect(parseTaskStat(7, stat('node', 25))).toBeUndefined();
  });

  it('raises every thread but the serving one to its niceness + step, at most 19, and leaves nicer threads alone', () => {
    const t = (tid: number, nice: number): ThreadNice => ({ tid, nice, name: 'node' });
    const threads = [t(1, 0), t(2, 0), t(3, 7), t(4, 2), t(9, 2)];
    expect(niceOrders(threads, 9, 5)).toEqual({ target: 7, raise: [t(1, 0), t(2, 0), t(4, 2)] });
    // A second call after the first changed them has nothing to do.
    expect(niceOrders([t(1, 7), t(2, 7), t(3, 7), t(4, 7), t(9, 2)], 9, 5)?.raise).toEqual([]);
    expect(niceOrders([t(1, 0), t(9, 17)], 9, 5)).toEqual({ target: MAX_NICENESS, raise: [t(1, 0)] });
    expect(niceOrders(threads, 5, 5)).toBeUndefined(); // not a thread of this process
    expect(niceOrders(threads, 9, 0)).toBeUndefined();
  });
});

describe.skipIf(!linux)('collecting niceness: `run` with the serving thread', () => {
  const demo = (extra: string[]) => startCli(['demo', '--web.listen-address', '127.0.0.1:0', '--web.serving-thread', 'on', '--sim.validators', '20', '--sim.peers', '20', ...extra]);

  it('runs every thread but the serving thread 5 steps nicer, says so in one log line, and serves', async () => {
    const p = demo([]);
    try {
      const [line] = await waitFor(() => events(p.stdout(), 'collecting_niceness').at(0) && events(p.stdout(), 'collecting_niceness'), 30_000).catch((e: Error) => { throw new Error(e.message + p.stdout() + p.stderr()); });
      const serving = line!['servingThread'] as number;
      const threads = nicenessOf(p.child.pid!);
      const base = threads.get(serving)!;
      expect(base, `serving thread ${serving} among ${[...threads.keys()].join(',')}`).toBeTypeOf('number');
      expect(line!['niceness']).toBe(Math.min(MAX_NICENESS, base + 5));
      const others = [...threads].filter(([tid]) => tid !== serving);
      // The main thread, V8's helper, libuv's pool (started before the list is read): none is left out.
      expect(others.length).toBeGreaterThanOrEqual(3);
      expect(others.map(([tid]) => tid)).toContain(p.child.pid);
      for (const [tid, nice] of others) expect(nice, `thread ${tid}`).toBe(Math.min(MAX_NICENESS, base + 5));
      expect((line!['raised'] as string[]).length).toBeGreaterThanOrEqual(others.length - 1);
      // The serving thread still answers (the banner's address, on stderr: stdout is the JSON log).
      const url = await waitFor(() => /exporter: *(http:\/\/\S+)/.exec(p.stderr())?.[1], 30_000);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      await p.stop();
    }
  }, 60_000);

  it('changes nothing with --runtime.collecting-niceness=0', async () => {
    const p = demo(['--runtime.collecting-niceness', '0']);
    try {
      await waitFor(() => /"event":"listening"/.test(p.stdout()), 30_000);
      await waitFor(() => /exporter: *http/.test(p.stderr()), 30_000);
      expect(events(p.stdout(), 'collecting_niceness')).toEqual([]);
      expect([...new Set(nicenessOf(p.child.pid!).values())]).toEqual([nicenessOf(p.child.pid!).get(p.child.pid!)]);
    } finally {
      await p.stop();
    }
  }, 60_000);

  /** A serving thread crashed and started again in a child process (niceness cannot be undone without privileges, and tests share processes). */
  function restartInChild(wrap: readonly string[]): RestartOutcome {
    const script = `
      const { ServingThread } = await import(${JSON.stringify(resolve(ROOT, 'dist/server/serving-thread.js'))});
      const { lowerCollectingThreads } = await import(${JSON.stringify(resolve(ROOT, 'dist/runtime-priority.js'))});
      const { readFileSync } = await import('node:fs');
      const lines = [];
      const log = (level) => (o, msg) => lines.push({ level, ...o, msg });
      const logger = { info: log('info'), warn: log('warn'), error: log('error'), debug() {}, level: 'info' };
      const answers = { exposition: () => { throw new Error('none'); }, probe: () => undefined, otherShard: () => undefined, targets: () => [] };
      const setup = { listenAddress: '127.0.0.1:0', telemetryPath: '/metrics', version: 't', maxConcurrentScrapes: 2, logLevel: 'info', reload: false, watchWindowMs: 60000 };
      const t = await ServingThread.start(setup, { logger, answers, restartDelayMs: 50 });
      const niceOf = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(')').pop().trim().split(' ')[16]);
      const first = t.tid;
      const firstNice = niceOf(first);
      await lowerCollectingThreads(first, 5);
      await t.crashForTest();
      const deadline = Date.now() + 20000;
      while (t.started < 2 || t.tid === first || !lines.some((l) => l.event === 'serving_thread_restarted')) {
        if (Date.now() > deadline) throw new Error('no restart within 20 s: ' + JSON.stringify(lines));
        await new Promise((r) => setTimeout(r, 50));
      }
      const out = { firstNice, collectors: niceOf(process.pid), secondNice: niceOf(t.tid), said: lines.filter((l) => l.event === 'serving_thread_niceness') };
      await t.close();
      process.stdout.write(JSON.stringify(out));
    `;
    const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-niceness-'));
    const file = join(dir, 'restart.mjs');
    writeFileSync(file, script);
    try {
      const [cmd, ...args] = [...wrap, process.execPath, file];
      return JSON.parse(execFileSync(cmd!, args, { encoding: 'utf8', timeout: 40_000 })) as RestartOutcome;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // Whether a process here may lower its niceness again (CAP_SYS_NICE, or RLIMIT_NICE): the outcome differs; both are checked where they can be.
  const mayLower = spawnSync(process.execPath, ['-e', 'const os = require("node:os"); os.setPriority(process.pid, os.getPriority(process.pid) + 1); os.setPriority(process.pid, os.getPriority(process.pid) - 1)']).status === 0;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((f) => existsSync(f));

  it('brings a serving thread started again after a crash back to its first niceness where it may', () => {
    const out = restartInChild([]);
    expect(out.collectors).toBe(Math.min(MAX_NICENESS, out.firstNice + 5));
    expect(out.said, JSON.stringify(out)).toHaveLength(1);
    if (mayLower) expect({ level: out.said[0]!.level, nice: out.secondNice, said: out.said[0]!.niceness }).toEqual({ level: 'info', nice: out.firstNice, said: out.firstNice });
    else expect(out.said[0]).toMatchObject({ level: 'warn', niceness: out.collectors, wanted: out.firstNice, err: 'EACCES' });
  }, 60_000);

  it.skipIf(!mayLower || !setpriv)('says why it cannot without CAP_SYS_NICE, and serves at the collectors\' niceness', () => {
    const out = restartInChild([setpriv!, '--bounding-set', '-sys_nice']);
    expect(out.said, JSON.stringify(out)).toHaveLength(1);
    expect(out.said[0]).toMatchObject({ level: 'warn', niceness: out.collectors, wanted: out.firstNice, err: 'EACCES' });
    expect(out.said[0]!.msg).toContain('CAP_SYS_NICE');
    expect(out.secondNice).toBe(out.collectors);
  }, 60_000);
});

interface RestartOutcome {
  firstNice: number;
  collectors: number;
  secondNice: number;
  said: { level: string; niceness?: number; wanted?: number; err?: string; msg?: string }[];
}
