// Shared helpers of bench/run.js and bench/soak.js (plain ESM, imports the compiled dist/).
import { fork } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../dist/config/load.js';

/** Re-runs this script with --expose-gc when gc is not exposed (package.json runs plain `node`). */
export function ensureGc() {
  if (typeof globalThis.gc === 'function') return false;
  if (process.env.BENCH_NO_RESPAWN === '1') return false;
  const child = fork(process.argv[1], process.argv.slice(2), {
    // BENCH_OPTIMIZE_FOR_SIZE=1: the in-process rows with V8's --optimize-for-size, as `run
    // --runtime.optimize-for-size` sets it (off by default).
    execArgv: [...process.execArgv, '--expose-gc', ...(process.env.BENCH_OPTIMIZE_FOR_SIZE === '1' ? ['--optimize-for-size'] : [])],
    env: { ...process.env, BENCH_NO_RESPAWN: '1' },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
  return true;
}

export function gc() {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
}

export const MB = 1024 * 1024;
export const fmtMs = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
export const fmtMB = (b) => `${(b / MB).toFixed(1)} MB`;
export const fmtSignedMB = (b) => `${b >= 0 ? '+' : '−'}${(Math.abs(b) / MB).toFixed(1)} MB`;
export const fmtBytes = (b) => (b >= MB ? `${(b / MB).toFixed(2)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`);

export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}
export const mean = (v) => (v.length === 0 ? NaN : v.reduce((a, b) => a + b, 0) / v.length);

/** Least-squares slope of y over x. */
export function slope(xs, ys) {
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    /* not Linux */
  }
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memory: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
/** This process's minor page faults so far (/proc/self/stat field 10); NaN where there is no /proc. */
function ownFaults() {
  try {
    const s = readFileSync('/proc/self/stat', 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[7]);
  } catch {
    return NaN;
  }
}

/** Median ms of `rounds` timings of fn. */
function medianMs(rounds, fn) {
  const t = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  return quantile(t, 0.5);
}

/**
 * What the kernel costs on this machine, for the CPU rows: a system call from Node (os.getPriority, one
 * getpriority(2) each) and a first-touch page fault. The second is the exporter's own case: a node's answer
 * of more than 128 KB becomes a string in V8's large-object space, fresh memory from the kernel each time
 * (a 640 KB one faults in about 160 pages), while ten strings of 64 KB come from the young generation's
 * pages, already mapped. (time of the big one − time of the ten small ones) / its faults ≈ one fault.
 * Bounded: a few hundred calls and conversions, well under a second.
 */
export function kernelCosts() {
  const calls = 20_000;
  const syscallUs = (medianMs(5, () => {
    for (let i = 0; i < calls; i++) os.getPriority(0);
  }) * 1000) / calls;
  const big = Buffer.alloc(640 * 1024, 0x61);
  const small = Buffer.alloc(64 * 1024, 0x61);
  const n = 40;
  let keep = 0;
  const f0 = ownFaults();
  const bigMs = medianMs(5, () => {
    for (let i = 0; i < n; i++) keep += big.toString('latin1').length;
  });
  const faultsPerBig = (ownFaults() - f0) / (5 * n);
  const smallMs = medianMs(5, () => {
    for (let i = 0; i < n * 10; i++) keep += small.toString('latin1').length;
  });
  const faultUs = faultsPerBig > 10 ? (((bigMs - smallMs) / n) * 1000) / faultsPerBig : NaN;
  return { syscallUs, bigStringMs: bigMs / n, smallStringsMs: smallMs / n, faultsPerBig, faultUs, keep };
}

export function kernelCostsLine(k = kernelCosts()) {
  return `a system call from Node ${k.syscallUs.toFixed(2)} µs (os.getPriority); a 640 KB string from bytes ${k.bigStringMs.toFixed(2)} ms (${k.faultsPerBig.toFixed(0)} page faults: V8's large-object space maps fresh memory), ten of 64 KB ${k.smallStringsMs.toFixed(2)} ms (no fault): about ${Number.isFinite(k.faultUs) ? k.faultUs.toFixed(1) : '?'} µs per first-touch page fault`;
}

export function machineLine(m = machine()) {
  return `${m.cpu}, ${m.cores} cores, ${(m.memory / 1024 ** 3).toFixed(1)} GiB RAM, Node.js ${m.node}, ${m.os}`;
}

/**
 * Starts the simulated node in a child process (bench/sim-child.js). Returns its URLs and an
 * IPC-backed control: advance(ms), scenario(name, node?), bytes(), close().
 */
export async function startSimChild(opts) {
  const child = fork(fileURLToPath(new URL('./sim-child.js', import.meta.url)), [JSON.stringify(opts)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  let nextId = 1;
  const pending = new Map();
  const ready = new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('simulator did not start within 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
    child.on('message', (m) => {
      if (m.ready) {
        clearTimeout(t);
        resolve(m);
      } else if (pending.has(m.id)) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.ok) p.resolve(m);
        else p.reject(new Error(m.error));
      }
    });
  });
  const info = await ready;
  const call = (msg) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...msg, id });
    });
  return {
    ...info,
    pid: child.pid,
    nodeUrl: (i) => `${info.url}/node/${i}`,
    proxyNodeUrl: (i) => `${info.proxyUrl}/node/${i}`,
    advance: (ms) => call({ op: 'advance', ms }),
    scenario: (name, node) => call({ op: 'scenario', name, node }),
    bytes: async () => (await call({ op: 'bytes' })).bytes,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      await Promise.race([call({ op: 'close' }).catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** A pino logger that discards its lines but counts them by level (warn and above are kept, last 20). */
export function countingLogger(level = 'warn') {
  const counts = {};
  const last = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        try {
          const o = JSON.parse(line);
          counts[o.level] = (counts[o.level] ?? 0) + 1;
          last.push(line);
          if (last.length > 20) last.shift();
        } catch {
          /* ignore */
        }
      }
      cb();
    },
  });
  return { logger: pino({ level }, stream), counts, last };
}

/** A fleet config (default settings unless `extra` YAML says otherwise). */
export function fleetConfig(targets, extra = '') {
  const yaml = `web: { listenAddress: "127.0.0.1:0" }
${extra}
targets:
${targets.map((t) => `  - { name: ${JSON.stringify(t.name)}, url: ${JSON.stringify(t.url)} }`).join('\n')}
`;
  return loadConfig({ argv: ['--config.file', 'bench.yaml'], env: {}, readFile: () => yaml }).config;
}

export const targetName = (i) => `node-${String(i).padStart(3, '0')}`;

/**
 * Sequential keep-alive GETs (one socket). Bounded by `count` and `maxMs`.
 * Returns latencies in ms (request start to last body byte), body size and the last body.
 */
export async function scrapeLoop(url, { count, maxMs, headers = {} }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lat = [];
  let body = '';
  let size = 0;
  const deadline = performance.now() + maxMs;
  const get = () =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = http.get(url, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          if (res.statusCode !== 200) return reject(new Error(`${url}: HTTP ${res.statusCode}`));
          resolve({ ms, buf: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(10_000, () => req.destroy(new Error('scrape timeout')));
    });
  // Warm-up (connection, JIT): not counted.
  for (let i = 0; i < 20; i++) await get();
  while (lat.length < count && performance.now() < deadline) {
    const { ms, buf } = await get();
    lat.push(ms);
    size = buf.length;
    if (lat.length === 1) body = buf;
  }
  agent.destroy();
  return { lat, size, body };
}

/** Counts the sample lines of an exposition text. */
export function countSeries(text) {
  let n = 0;
  for (const line of text.split('\n')) if (line !== '' && line[0] !== '#') n++;
  return n;
}

/** Parses exposition text into { families: Map(name → {help, type}), samples: [{name, labels, value}] }. */
export function parseExposition(text) {
  const families = new Map();
  const samples = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const rest = line.slice(7);
      const sp = rest.indexOf(' ');
      const name = rest.slice(0, sp);
      families.set(name, { ...(families.get(name) ?? {}), help: rest.slice(sp + 1).replace(/\\n/g, '\n').replace(/\\\\/g, '\\') });
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      families.set(name, { ...(families.get(name) ?? {}), type });
      continue;
    }
    if (line[0] === '#') continue;
    let i = 0;
    while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
    const name = line.slice(0, i);
    const labels = {};
    if (line[i] === '{') {
      i++;
      while (line[i] !== '}') {
        const eq = line.indexOf('=', i);
        const key = line.slice(i, eq);
        i = eq + 2; // past ="
        let v = '';
        while (line[i] !== '"') {
          if (line[i] === '\\') {
            const n = line[i + 1];
            v += n === 'n' ? '\n' : n;
            i += 2;
          } else v += line[i++];
        }
        labels[key] = v;
        i++; // closing quote
        if (line[i] === ',') i++;
      }
      i++;
    }
    const value = Number(line.slice(i).trim().split(' ')[0]);
    samples.push({ name, labels, value });
  }
  return { families, samples };
}

/** Sums a metric's samples whose labels match `where`. */
export function sumMetric(samples, name, where = {}) {
  let n = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(where).every(([k, v]) => s.labels[k] === v)) n += s.value;
  }
  return n;
}

/** Active handles by constructor name, and the count of timers (Timeout objects). */
export function handleCounts() {
  const byType = {};
  for (const h of process._getActiveHandles()) {
    const t = h?.constructor?.name ?? typeof h;
    byType[t] = (byType[t] ?? 0) + 1;
  }
  const resources = process.getActiveResourcesInfo?.() ?? [];
  const timers = resources.filter((r) => r === 'Timeout').length;
  return { byType, timers, total: process._getActiveHandles().length, socketFds: socketFds() };
}

/** Open socket file descriptors of this process (Linux; NaN elsewhere): idle keep-alive sockets are unref'd and not in the handle list. */
export function socketFds() {
  try {
    let n = 0;
    for (const fd of readdirSync('/proc/self/fd')) {
      try {
        if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) n++;
      } catch {
        /* closed meanwhile */
      }
    }
    return n;
  } catch {
    return NaN;
  }
}
export const fmtHandles = (h) =>
  `${Object.entries(h.byType)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; timers ${h.timers}; socket fds ${h.socketFds}`;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Scenario rotation of the soak (bench/soak.js and test/soak): churns health checks, validators and versions. */
export const SOAK_ROTATION = [
  'unhealthy-network',
  'low-uptime',
  'validator-disconnected',
  'bootstrapping',
  'index-stalled',
  'not-a-validator',
  'validator-expiring',
  'index-disabled',
  'public-server',
  'garbage',
  'down',
  'healthy',
];
