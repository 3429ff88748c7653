// Where a fleet's exporter spends its CPU or keeps its memory: the exporter as its own process (`run`, the
// real scheduler) on N targets that all ask one simulated mainnet-scale node (its URL N times, the shape of
// bench rows 7), /metrics scraped with gzip every 15 s as Prometheus does, for a bounded time, under V8's
// sampling profiler; then a summary of the main thread's profile.
//   node bench/profile.js cpu  [targets=1000] [seconds=120]   self time by function, and by file
//   node bench/profile.js heap [targets=1000] [seconds=90]    live heap at the end by allocation site
//   node bench/profile.js rss  [targets=1000] [seconds=420]   resident memory over time by kind of mapping
//     (/proc/<pid>/smaps every 5 s: malloc's main arena, malloc's thread arenas, V8's heap and other anonymous
//     memory, files), and how far each kind moves from minute 2: which part makes the RSS saw-tooth
// Everything on 127.0.0.1; the profiles are written to a temporary directory, printed from, and removed
// (PROFILE_KEEP=1 keeps them and prints where: open a .cpuprofile in Chrome's DevTools).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimChild, sleep, targetName } from './lib.js';
import { NODE_FLAGS } from '../dist/runtime-flags.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const [kind = 'cpu', n = '1000', s = kind === 'heap' ? '90' : kind === 'rss' ? '420' : '120'] = process.argv.slice(2);
if (kind !== 'cpu' && kind !== 'heap' && kind !== 'rss') throw new Error('usage: node bench/profile.js cpu|heap|rss [targets] [seconds]');
const targets = Math.max(1, Math.min(5000, Number(n)));
const runMs = Math.max(10, Math.min(1800, Number(s))) * 1000;

/** A file of the tree, the way the summary shows it: dist/ and node_modules/ paths shortened. */
const short = (url) => url.replace(/.*\/(dist|node_modules)\//, '');

function cpuSummary(p) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map();
  let total = 0;
  p.samples.forEach((id, i) => {
    const d = p.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + d);
    total += d;
  });
  const byFn = new Map();
  const byFile = new Map();
  let idle = 0;
  for (const [id, d] of self) {
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)') idle += d;
    const fn = `${f.functionName || '(anonymous)'} ${short(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    const file = f.url ? short(f.url) : f.functionName;
    byFn.set(fn, (byFn.get(fn) ?? 0) + d);
    byFile.set(file, (byFile.get(file) ?? 0) + d);
  }
  const busy = total - idle;
  const top = (m, k) => [...m].filter(([name]) => name !== '(idle)' && !name.startsWith('(idle) ')).sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, d]) => `  ${((d / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  return [`main thread: ${(total / 1e6).toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(1)} s (${((busy / total) * 100).toFixed(0)} %); shares of the busy time`, 'by function (self time):', ...top(byFn, 30), 'by file:', ...top(byFile, 20)].join('\n');
}

function heapSummary(p) {
  const sites = new Map();
  let total = 0;
  const walk = (node, parents) => {
    const f = node.callFrame;
    const here = `${f.functionName || '(anonymous)'} ${short(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    if (node.selfSize > 0) {
      const key = `${here}  <  ${parents.slice(-2).reverse().join('  <  ')}`;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const c of node.children) walk(c, [...parents, here]);
  };
  walk(p.head, []);
  return [`live heap sampled at the end: ${(total / MB).toFixed(1)} MB; by allocation site (and its two callers)`, ...[...sites].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `  ${(v / MB).toFixed(1).padStart(6)} MB  ${k}`)].join('\n');
}

const MB = 1024 * 1024;
/** 64 MB: glibc reserves each thread's malloc arena at an address aligned to it (HEAP_MAX_SIZE on 64-bit). */
const ARENA_ALIGN = 64 * MB;

/** Resident bytes of a process by kind of mapping, from the text of /proc/<pid>/smaps. */
function residentByKind(smaps) {
  const kinds = { mainArena: 0, threadArenas: 0, anonymous: 0, files: 0, other: 0 };
  let kind = 'other';
  for (const line of smaps.split('\n')) {
    const m = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      const [, start, perms, name] = m;
      kind = name === '[heap]' ? 'mainArena' : name.startsWith('/') ? 'files' : name !== '' ? 'other' : perms.startsWith('rw') && parseInt(start, 16) % ARENA_ALIGN === 0 ? 'threadArenas' : 'anonymous';
      continue;
    }
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r) kinds[kind] += Number(r[1]) * 1024;
  }
  return kinds;
}

function rssSummary(samples, flatFromS) {
  const late = samples.filter((x) => x.t >= flatFromS);
  if (late.length === 0) return `resident memory: no sample from ${flatFromS} s on (${samples.length} in all): the exporter ended early or the run was shorter`;
  const keys = ['rss', 'mainArena', 'threadArenas', 'anonymous', 'files', 'other'];
  const what = { rss: 'VmRSS (the sum)', mainArena: "malloc's main arena ([heap]: Buffers, zlib, undici)", threadArenas: "malloc's thread arenas (the serving thread, libuv's pool, V8's helpers)", anonymous: "V8's heap, large mmap'd blocks, stacks", files: 'mapped files (node binary, libraries)', other: 'other (stack, vdso)' };
  const lines = [`resident memory of the exporter, ${samples.length} samples every 5 s; from ${flatFromS} s: lowest, highest and the move as a share of the lowest RSS`];
  const minRss = Math.min(...late.map((x) => x.rss));
  for (const k of keys) {
    const v = late.map((x) => x[k]);
    if (v.length === 0) continue;
    const lo = Math.min(...v), hi = Math.max(...v);
    lines.push(`  ${k.padEnd(13)} ${(lo / MB).toFixed(0).padStart(5)} to ${(hi / MB).toFixed(0).padStart(5)} MB  moves ${(((hi - lo) / minRss) * 100).toFixed(1).padStart(5)} % of the RSS   ${what[k]}`);
  }
  lines.push('every 30 s (MB):', `  ${'t/s'.padStart(5)} ${keys.map((k) => k.padStart(13)).join('')}`);
  for (const x of samples.filter((_, i) => i % 6 === 0)) lines.push(`  ${String(Math.round(x.t)).padStart(5)} ${keys.map((k) => (x[k] / MB).toFixed(0).padStart(13)).join('')}`);
  return lines.join('\n');
}

function scrapeGzip(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', resolve);
    req.setTimeout(30_000, () => req.destroy());
  });
}

const dir = mkdtempSync(join(tmpdir(), 'avax-profile-'));
const sim = await startSimChild({ nodes: 1, validators: 1500, peers: 1700, healthIntervalMs: 3_600_000, seed: 100 });
let exporter;
try {
  await fetch(`${sim.nodeUrl(0)}/ext/health/liveness`).then((r) => r.text());
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const cfg = join(dir, 'fleet.yaml');
  writeFileSync(cfg, `web: { listenAddress: "127.0.0.1:${port}" }\nlog: { level: error }\ntargets:\n${Array.from({ length: targets }, (_, i) => `  - { name: ${targetName(i)}, url: "${sim.nodeUrl(0)}" }`).join('\n')}\n`);
  const flags = kind === 'cpu' ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : kind === 'heap' ? ['--heap-prof', `--heap-prof-dir=${dir}`, '--heap-prof-interval=262144'] : [];
  process.stderr.write(`profile: ${kind}, ${targets} target(s) on one simulated mainnet-scale node, ${runMs / 1000} s\n`);
  exporter = spawn(process.execPath, [...NODE_FLAGS, ...flags, CLI, 'run', '--config.file', cfg], { stdio: ['ignore', 'inherit', 'inherit'] });
  const t0 = performance.now();
  const samples = [];
  // Every 5 s: the resident memory by kind of mapping (rss only); every 15 s a gzip scrape, as Prometheus does.
  for (let i = 0; i < 2000 && performance.now() - t0 < runMs; i++) {
    await sleep(Math.min(kind === 'rss' ? 5_000 : 15_000, runMs - (performance.now() - t0)));
    const t = (performance.now() - t0) / 1000;
    if (kind === 'rss') {
      try {
        const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${exporter.pid}/status`, 'utf8'))?.[1]) * 1024;
        samples.push({ t, rss, ...residentByKind(readFileSync(`/proc/${exporter.pid}/smaps`, 'utf8')) });
      } catch {
        break; // the exporter is gone: summarise what was sampled
      }
    }
    if (kind !== 'rss' || i % 3 === 2) await scrapeGzip(`http://127.0.0.1:${port}/metrics`);
  }
  if (kind === 'rss') console.log(rssSummary(samples, Math.min(120, runMs / 2000)));
  exporter.kill('SIGTERM');
  await Promise.race([new Promise((r) => exporter.once('exit', r)), sleep(30_000)]);
  // One profile per thread: the main thread's is the first (thread 0), the serving thread's the next.
  if (kind !== 'rss') {
    const files = readdirSync(dir).filter((f) => f.endsWith(kind === 'cpu' ? '.cpuprofile' : '.heapprofile')).sort();
    const main = files.find((f) => /\.0\.\d+\.(cpu|heap)profile$/.test(f)) ?? files[0];
    if (!main) throw new Error(`no profile was written in ${dir}`);
    const p = JSON.parse(readFileSync(join(dir, main), 'utf8'));
    console.log(kind === 'cpu' ? cpuSummary(p) : heapSummary(p));
    if (process.env['PROFILE_KEEP'] === '1') console.log(`profiles kept in ${dir}: ${files.join(', ')}`);
  }
} finally {
  if (exporter && exporter.exitCode === null) exporter.kill('SIGKILL');
  await sim.close();
  if (process.env['PROFILE_KEEP'] !== '1') rmSync(dir, { recursive: true, force: true });
}
