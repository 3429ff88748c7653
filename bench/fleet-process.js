// The exporter as operators run it: its own process (`node dist/cli.js run --config.file …`), the real
// scheduler (default 15 s interval, bounded concurrency), N targets on simulated nodes served by
// several simulator processes, everything on 127.0.0.1. Measures what issue 17 asks of a fleet:
//   - start-up: seconds until every target has been collected once (its target_up log line; /metrics
//     scraped every 15 s meanwhile, as Prometheus does, and avax_up 1 for all checked at the next of
//     those scrapes), and whether
//     every later cycle of every target still fits the 15 s interval (no overrun: cycles skipped);
//   - memory: RSS of the exporter process from /proc/<pid>/status (VmRSS sampled every 250 ms, VmHWM
//     = peak), the process's own figure whatever the simulators use;
//   - steady state: after start-up, one /metrics gzip scrape every 15 s (as Prometheus scrapes) for the
//     run; peak RSS and CPU rows are of start-up plus this steady state;
//   - then a latency burst while it collects: /metrics with Accept-Encoding: gzip (as Prometheus asks) and
//     /probe?target= (one target) back to back, p50/p99 from a scrape client in its own process; the peak
//     RSS with the burst is printed beside the row's peak;
//   - CPU: the exporter's utime+stime (/proc/<pid>/stat) apart from the simulators'.
// Used by bench/run.js (rows 7); runnable alone:  node bench/fleet-process.js <targets> [validators] [peers] [same]
// Every loop is bounded in count and time; the exporter and the simulators are killed at the end.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startSimChild, targetName, sleep, MB } from './lib.js';
import { NODE_FLAGS } from '../dist/runtime-flags.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** Prometheus's scrape interval in examples/prometheus.yml: the start-up's and the steady state's /metrics cadence. */
const SCRAPE_INTERVAL_MS = 15_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM (peak) of a process, bytes; undefined when it is gone. */
function procMem(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** utime + stime of a process in ms (/proc/<pid>/stat fields 14 and 15, in clock ticks). */
function procCpuMs(pid) {
  return procCpu(pid).ms;
}

/**
 * CPU of a process from /proc/<pid>/stat: utime + stime in ms (fields 14 and 15, clock ticks), stime alone
 * (time in the kernel on its behalf: system calls, page faults) and its minor page faults (field 10).
 */
function procCpu(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ms: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS, sysMs: (Number(f[12]) * 1000) / TICKS, minflt: Number(f[7]) };
  } catch {
    return { ms: NaN, sysMs: NaN, minflt: NaN };
  }
}

/** A GET as Prometheus makes it (gzip): its text, the bytes on the wire and the time to the last of them. */
function fetchGzip(url) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        const buf = Buffer.concat(chunks);
        const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(buf).toString('utf8') : buf.toString('utf8');
        resolve({ text, ms, bytes: buf.length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
  });
}

/** Milliseconds to the last byte of a plain GET (the static floor server). */
function timedGet(url) {
  return fetchGzip(url).then((r) => r.ms);
}

async function getGzip(url) {
  return (await fetchGzip(url)).text;
}

/** Targets with avax_up 1. */
function upCount(text) {
  let up = 0;
  for (const m of text.matchAll(/^avax_up\{[^}]*\} (\S+)$/gm)) if (m[1] === '1') up++;
  return up;
}

/** avax_collection_skipped_ticks_total at the end: ticks skipped after start-up, and by how many targets. */
function skippedTicks(text) {
  let ticks = 0;
  let targets = 0;
  for (const m of text.matchAll(/^avax_collection_skipped_ticks_total\{[^}]*\} (\S+)$/gm)) {
    const v = Number(m[1]);
    ticks += v;
    if (v > 0) targets++;
  }
  return { ticks, targets };
}

function scrape(endpoints, maxMs, everyMs) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./scraper.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    const kill = setTimeout(() => child.kill('SIGKILL'), maxMs + 120_000);
    child.once('message', (m) => {
      clearTimeout(kill);
      child.kill();
      if (m.error) reject(new Error(m.error));
      else resolve(m.results);
    });
    child.once('exit', (code) => code && reject(new Error(`scraper exited with ${code}`)));
    child.send({ endpoints, maxMs, warmup: 3, everyMs });
  });
}

/** bench/static-server.js in its own process, serving `size` bytes: the floor under /probe and /metrics. */
function startStaticServer(size) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./static-server.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    child.once('message', (m) => resolve({ url: `http://127.0.0.1:${m.port}/`, close: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
    child.send({ size });
  });
}

/**
 * Lowest and highest of RSS samples ({t, rss}), the spread above the lowest (NaN without samples), and the
 * median of each whole minute after start: a garbage collector's saw-tooth keeps the medians level, a leak
 * makes them climb.
 */
function flatRange(samples) {
  const v = samples.map((x) => x.rss);
  if (v.length === 0) return { min: NaN, max: NaN, spread: NaN, n: 0, minuteMedians: [] };
  const min = Math.min(...v);
  const max = Math.max(...v);
  const byMinute = new Map();
  for (const x of samples) {
    const m = Math.floor(x.t / 60_000);
    if (!byMinute.has(m)) byMinute.set(m, []);
    byMinute.get(m).push(x.rss);
  }
  const minuteMedians = [...byMinute].filter(([, list]) => list.length >= 120).map(([minute, list]) => ({ minute, median: q(list, 0.5) }));
  return { min, max, spread: (max - min) / min, n: v.length, minuteMedians };
}

const q = (v, p) => {
  if (v.length === 0) return NaN;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
};

/**
 * Runs N targets for `runMs` after start-up. Returns the figures; never throws for a slow run
 * (a target not collected in time is a figure, not an error).
 */
export async function runFleetProcess({ targets: n, validators = 1500, peers = 1700, sameNode = false, simProcesses = sameNode ? 1 : Number(process.env['FLEET_SIM_PROCESSES'] ?? Math.min(4, Math.ceil(n / 250))), runMs = Number(process.env["FLEET_RUN_MS"] ?? 75_000), startupMaxMs = 180_000, flatFromMs = 120_000, exporterArgs = (process.env['FLEET_EXPORTER_ARGS'] ?? '').split(' ').filter(Boolean), nodeArgs = process.env['FLEET_NODE_ARGS'] !== undefined ? process.env['FLEET_NODE_ARGS'].split(' ').filter(Boolean) : [...NODE_FLAGS], probeTargets = Number(process.env['FLEET_PROBE_TARGETS'] ?? 1), say = () => {} }) {
  // sameNode: every target asks one node (a config file listing the same URL n times: one network, the
  // shape that ran out of memory in issue 21); otherwise n distinct nodes, each a network of its own.
  const perSim = sameNode ? 1 : Math.ceil(n / simProcesses);
  // Target i asks simulator i % simProcesses: the staggered first pass (targets in list order) spreads over them all.
  say(`fleet process: ${n} targets on ${sameNode ? 'one node' : `${simProcesses} simulator process(es) × ${perSim} nodes`} (${validators} validators, ${peers} peers each)`);
  const sims = [];
  const dir = mkdtempSync(join(tmpdir(), 'avax-fleet-'));
  let exporter;
  let floor;
  let metricsFloor;
  try {
    for (let s = 0; s < simProcesses; s++) sims.push(await startSimChild({ nodes: sameNode ? 1 : Math.ceil((n - s) / simProcesses), validators, peers, healthIntervalMs: 3_600_000, seed: 100 + s }));
    // The simulators compute their nodes' health checks once at start: wait for that, so that the
    // start-up figure is the exporter's and not the simulators' warm-up.
    for (const sim of sims) await fetch(`${sim.nodeUrl(0)}/ext/health/liveness`).then((r) => r.text());
    const port = await freePort();
    const list = Array.from({ length: n }, (_, i) => ({ name: targetName(i), url: sameNode ? sims[0].nodeUrl(0) : sims[i % simProcesses].nodeUrl(Math.floor(i / simProcesses)) }));
    const yaml = `web: { listenAddress: "127.0.0.1:${port}" }
log: { level: info }
targets:
${list.map((t) => `  - { name: ${JSON.stringify(t.name)}, url: ${JSON.stringify(t.url)} }`).join('\n')}
`;
    const cfg = join(dir, 'fleet.yaml');
    writeFileSync(cfg, yaml);
    const t0 = performance.now();
    // One node is watched with flags, as a single validator's operator does (no YAML file); a fleet with a file.
    // Log level info: each target's first collection logs one target_up line, which is how start-up is timed.
    const args = n === 1 ? ['--node.url', list[0].url, '--node.name', list[0].name, '--web.listen-address', `127.0.0.1:${port}`, '--log.level', 'info'] : ['--config.file', cfg];
    // Extra flags of the exporter (a reference run: e.g. --runtime.http-parser-tier-up, the V8 default for undici's parser).
    args.push(...exporterArgs);
    // Node's own options for the exporter process alone, as the shipped launchers start it (NODE_FLAGS, or
    // FLEET_NODE_ARGS): NODE_OPTIONS would reach the simulators and the scrape clients too.
    exporter = spawn(process.execPath, [...nodeArgs, CLI, 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    exporter.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    // pino lines: ticks skipped because a target's previous cycle still ran are one cycle_overlap line for the
    // fleet at most hourly (src/scheduler/scheduler.ts); each
    // target's first successful cycle logs target_up (info), the moment it is collected.
    let overlaps = 0;
    let logTail = '';
    const upTargets = new Set();
    let allUpMs = NaN;
    exporter.stdout.on('data', (d) => {
      const text = logTail + d;
      const lines = text.split('\n');
      logTail = lines.pop() ?? '';
      for (const l of lines) {
        if (l.includes('"cycle_overlap"')) overlaps++;
        if (l.includes('"target_up"')) {
          try {
            upTargets.add(JSON.parse(l).target);
          } catch {
            // not a JSON line: not counted
          }
          if (upTargets.size >= n && !Number.isFinite(allUpMs)) allUpMs = performance.now() - t0;
        }
      }
      if (process.env['FLEET_LOG']) for (const l of lines) process.stderr.write(`${l}\n`);
    });
    const pid = exporter.pid;
    const rssSamples = [];
    const sampler = setInterval(() => {
      const m = procMem(pid);
      if (m) rssSamples.push({ t: performance.now() - t0, rss: m.rss });
    }, 250);
    const base = `http://127.0.0.1:${port}`;
    // Start-up: every target collected once, timed by the target_up lines, while /metrics is scraped as
    // Prometheus scrapes it (gzip, every 15 s; examples/prometheus.yml). Polling /metrics faster to see
    // avax_up would render the whole exposition for the benchmark many times a second (100 MB of text for
    // 1,000 targets), a load no Prometheus puts on it, inside the figure it measures.
    let nextScrape = 0;
    for (let i = 0; i < 100_000 && performance.now() - t0 < startupMaxMs && !Number.isFinite(allUpMs); i++) {
      await sleep(50);
      if (exporter.exitCode !== null) throw new Error(`exporter exited with ${exporter.exitCode}: ${stderr}`);
      const t = performance.now();
      if (t - t0 < nextScrape) continue;
      try {
        await getGzip(`${base}/metrics`);
        nextScrape = t - t0 + SCRAPE_INTERVAL_MS;
      } catch {
        nextScrape = performance.now() - t0 + 200; // not listening yet
      }
    }
    say(`fleet process: ${Number.isFinite(allUpMs) ? `all ${n} collected after ${(allUpMs / 1000).toFixed(1)} s` : `${upTargets.size} of ${n} collected after ${(startupMaxMs / 1000).toFixed(0)} s`}`);
    const cpu0 = procCpuMs(pid);
    const kernel0 = procCpu(pid);
    const simCpu0 = sims.map((s) => procCpuMs(s.pid));
    const tRun = performance.now();
    // Steady state as Prometheus makes it: one /metrics gzip scrape every 15 s (examples/prometheus.yml), on
    // the same schedule as during start-up (an off-beat scrape would teach the publisher a shorter cadence),
    // for runMs. The first of them says what Prometheus sees of the start-up: a fleet's /metrics is rendered
    // ahead for the next scrape due, so an off-beat look shows an older render (src/metrics/publisher.ts).
    // The peak RSS rows read VmHWM at its end: start-up and this steady state, what an operator sizes a
    // memory limit for.
    // Beside Prometheus, all through the steady state: one /probe every 100 ms from a client in its own
    // process, what a probe at a random moment of collection waits (a back-to-back burst samples a second).
    // In the same rounds, a static server in its own process with a body of the probe's size: the floor
    // this machine puts under any answer while it runs the fleet (its CPUs are shared with the simulator).
    const probeSize = gzipSync(await getGzip(`${base}/probe?target=${targetName(0)}`)).length;
    floor = await startStaticServer(probeSize);
    const paced = scrape(
      [
        // probeTargets N (rows 7 of a fleet: 150; FLEET_PROBE_TARGETS=N alone): the probes take the first N
        // targets in turn (150: each probed every 15 s, as Prometheus probes a fleet, so most probes come after
        // a new publication of their target); 1: always the first target.
        { name: 'probe', url: `${base}/probe?target=${targetName(0)}`, urls: probeTargets > 1 ? Array.from({ length: Math.min(n, probeTargets) }, (_, i) => `${base}/probe?target=${targetName(i)}`) : undefined, count: Math.ceil(runMs / 100), headers: { 'accept-encoding': 'gzip' } },
        { name: 'floor', url: floor.url, count: Math.ceil(runMs / 100) },
      ],
      runMs,
      100,
    );
    // Awaited after the steady state; a failure before then must not be an unhandled rejection meanwhile.
    paced.catch(() => {});
    const quietScrapes = [];
    const quietFloor = [];
    let upAtNextScrape = NaN;
    let upCheckMs = NaN;
    // The first scrape of the steady state at which avax_up is 1 for every target: a fleet's /metrics is
    // rendered ahead of the scrape due (src/metrics/publisher.ts), so a scrape a moment after the last
    // target_up line may show the render made before it, and the one after it shows them all.
    let allUpSeenMs = NaN;
    const loopLag = [];
    const servingLoop = [];
    const tEnd = tRun + runMs;
    for (let i = 0; i < 1000; i++) {
      const due = t0 + nextScrape;
      if (due > tEnd) {
        await sleep(Math.max(0, tEnd - performance.now()));
        break;
      }
      await sleep(Math.max(0, due - performance.now()));
      const t = performance.now();
      // After the first, each scrape is paired with a GET of a static body of the first one's gzip size
      // from a server in its own process (the machine's floor in the same moment), in alternating order.
      const floorFirst = i % 2 === 1;
      if (metricsFloor && floorFirst) quietFloor.push(await timedGet(metricsFloor.url));
      const got = await fetchGzip(`${base}/metrics`);
      if (metricsFloor && !floorFirst) quietFloor.push(await timedGet(metricsFloor.url));
      const text = got.text;
      // to the last byte on the wire (not the bench's own gunzip)
      quietScrapes.push(got.ms);
      const up = Number.isFinite(allUpSeenMs) ? n : upCount(text);
      if (up >= n && !Number.isFinite(allUpSeenMs)) allUpSeenMs = t - t0;
      if (i === 0) {
        upAtNextScrape = up;
        upCheckMs = t - t0;
        metricsFloor = await startStaticServer(got.bytes);
      }
      // prom-client's event-loop delay of the exporter over the window since the previous scrape
      // (it resets its histogram at each scrape): what a /probe or /metrics answer may wait on.
      const lag = (q) => Number(new RegExp(`^nodejs_eventloop_lag_${q}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
      // (absent with --web.disable-exporter-metrics: no window counted)
      if (i > 0 && Number.isFinite(lag('max'))) loopLag.push({ p99: lag('p99'), max: lag('max') });
      // The serving thread's own delay over its last 15 s window (sampling interval taken off), when it runs.
      const served = (q) => Number(new RegExp(`^nodejs_serving_thread_eventloop_delay_${q}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
      if (i > 0 && Number.isFinite(served('max'))) servingLoop.push({ p99: served('p99'), max: served('max') });
      nextScrape = t - t0 + SCRAPE_INTERVAL_MS;
    }
    const pacedAll = await paced;
    const pacedProbe = pacedAll.probe;
    const pacedFloor = pacedAll.floor;
    const quietS = (performance.now() - tRun) / 1000;
    const cpuQuietMs = procCpuMs(pid) - cpu0;
    const kernel1 = procCpu(pid);
    const simCpuQuietMs = sims.reduce((a, s, i) => a + (procCpuMs(s.pid) - simCpu0[i]), 0);
    const memQuiet = procMem(pid);
    const rssQuietSamples = rssSamples.slice();
    // Then the latency burst, still while collecting: back-to-back scrapes, far more than Prometheus asks
    // (200 gzip /metrics and 2,000 /probe, two clients at once). It comes after the steady state so that its
    // own memory (and the first cycle's, which it used to overlap) is a figure of its own, not the peak's.
    // In the same rounds as /metrics, the static body of a scrape's gzip size again (the floor).
    metricsFloor ??= await startStaticServer((await fetchGzip(`${base}/metrics`)).bytes);
    const tBurst = performance.now();
    const scrapes = await scrape(
      [
        { name: 'metrics', url: `${base}/metrics`, count: 200, headers: { 'accept-encoding': 'gzip' } },
        { name: 'metricsFloor', url: metricsFloor.url, count: 200 },
        { name: 'probe', url: `${base}/probe?target=${targetName(0)}`, count: 2000, headers: { 'accept-encoding': 'gzip' } },
      ],
      Math.min(runMs, 60_000),
    );
    const burstS = (performance.now() - tBurst) / 1000;
    const runS = (performance.now() - tRun) / 1000;
    const cpuMs = procCpuMs(pid) - cpu0;
    const simCpuMs = sims.reduce((a, s, i) => a + (procCpuMs(s.pid) - simCpu0[i]), 0);
    const finalText = await getGzip(`${base}/metrics`);
    const mem = procMem(pid);
    clearInterval(sampler);
    return {
      targets: n,
      probeTargets: Math.min(n, probeTargets),
      validators,
      peers,
      simProcesses,
      allUpMs,
      upAtNextScrape,
      upCheckMs,
      allUpSeenMs,
      // event-loop delay per 15 s window of the steady state, ms: the highest p99 and max of any window
      loopLag: { windows: loopLag.length, p99: Math.max(...loopLag.map((x) => x.p99)), max: Math.max(...loopLag.map((x) => x.max)) },
      // the serving thread's, per window (ms): the median and highest p99 of its windows, and their max
      servingLoop: { windows: servingLoop.length, p99Median: q(servingLoop.map((x) => x.p99), 0.5), p99: Math.max(...servingLoop.map((x) => x.p99)), max: Math.max(...servingLoop.map((x) => x.max)) },
      upAtEnd: upCount(finalText),
      skipped: skippedTicks(finalText),
      series: [...finalText.matchAll(/^[a-z_]+[{ ]/gm)].length,
      // Peak up to the end of the steady state (start-up included), and the peak with the latency burst
      rssPeak: memQuiet?.hwm ?? NaN,
      rssPeakBurst: mem?.hwm ?? NaN,
      rssEnd: mem?.rss ?? NaN,
      rssSteadyMax: Math.max(...rssQuietSamples.filter((x) => x.t > allUpMs).map((x) => x.rss)),
      // RSS from flatFromMs after start to the end of the steady state: lowest and highest (flat = highest within 10 % of lowest)
      rssFlat: flatRange(rssQuietSamples.filter((x) => x.t >= flatFromMs)),
      // [seconds since start, MB] every 30 s: how RSS moved, for bench/RESULTS.md
      rssTrace: rssSamples.filter((_, i) => i % 120 === 0).map((x) => [Math.round(x.t / 1000), Math.round(x.rss / MB)]),
      metrics: { p50: q(scrapes.metrics.lat, 0.5), p99: q(scrapes.metrics.lat, 0.99), n: scrapes.metrics.lat.length, bytes: scrapes.metrics.size },
      // the same rounds' GET of a static body of the same size (bench/static-server.js): the machine's floor
      metricsFloor: { p50: q(scrapes.metricsFloor.lat, 0.5), p99: q(scrapes.metricsFloor.lat, 0.99), n: scrapes.metricsFloor.lat.length },
      // the steady state's scrapes, one every 15 s as Prometheus makes them (the first is start-up's render)
      metricsPaced: { p50: q(quietScrapes, 0.5), max: Math.max(...quietScrapes), n: quietScrapes.length },
      metricsPacedFloor: { p50: q(quietFloor, 0.5), max: Math.max(...quietFloor), n: quietFloor.length },
      probe: { p50: q(scrapes.probe.lat, 0.5), p99: q(scrapes.probe.lat, 0.99), n: scrapes.probe.lat.length, bytes: scrapes.probe.size },
      // /probe every 100 ms through the steady state
      probePaced: { p50: q(pacedProbe.lat, 0.5), p99: q(pacedProbe.lat, 0.99), max: Math.max(...pacedProbe.lat), n: pacedProbe.lat.length },
      // the same rounds' GET of a static server in its own process (bench/static-server.js): the machine's floor
      probeFloor: { p50: q(pacedFloor.lat, 0.5), p99: q(pacedFloor.lat, 0.99), max: Math.max(...pacedFloor.lat), n: pacedFloor.lat.length },
      // CPU over the whole run (latency burst included) and over its Prometheus-like steady state
      cpuShare: cpuMs / 1000 / runS,
      cpuQuietShare: cpuQuietMs / 1000 / quietS,
      // of it, time in the kernel (stime: system calls, page faults) as a share of one core, and minor page faults per second
      cpuQuietSysShare: (kernel1.sysMs - kernel0.sysMs) / 1000 / quietS,
      faultsQuietPerS: (kernel1.minflt - kernel0.minflt) / quietS,
      quietS,
      burstS,
      simCpuShare: simCpuMs / 1000 / runS,
      simCpuQuietShare: simCpuQuietMs / 1000 / quietS,
      runS,
      overlaps,
    };
  } finally {
    if (exporter && exporter.exitCode === null) {
      exporter.kill('SIGTERM');
      await Promise.race([new Promise((r) => exporter.once('exit', r)), sleep(10_000)]);
      if (exporter.exitCode === null) exporter.kill('SIGKILL');
    }
    floor?.close();
    metricsFloor?.close();
    await Promise.all(sims.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // node bench/fleet-process.js <targets> [validators] [peers] [same]: `same` puts every target on one node
  const [n = '100', v = '1500', p = '1700', shape = ''] = process.argv.slice(2);
  const r = await runFleetProcess({ targets: Number(n), validators: Number(v), peers: Number(p), sameNode: shape === 'same', say: (s) => console.error(s) });
  console.log(JSON.stringify({ ...r, rssPeakMB: r.rssPeak / MB, rssPeakBurstMB: r.rssPeakBurst / MB, rssEndMB: r.rssEnd / MB, rssFlatMB: { min: r.rssFlat.min / MB, max: r.rssFlat.max / MB, spread: r.rssFlat.spread } }));
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/**
 * Rows "7." of bench/run.js: the exporter as its own process, each figure beside its target (issue 21
 * point 4) and, as the same-run reference, the simulators' own CPU (the node side of the same exchange).
 *   - 1 mainnet-scale target, flags only (node-metrics on, as by default): peak RSS ≤ 100 MB;
 *   - 100 targets of one mainnet-scale network (one node, its URL 100 times): peak ≤ 250 MB, CPU ≤ 10 %
 *     of a core, every target collected within 15 s;
 *   - 100 distinct mainnet-scale nodes (each a network of its own: nothing shared): CPU ≤ 60 % of a core;
 *   - 1,000 targets on one mainnet-scale node (the shape that ran out of memory): collected within 60 s,
 *     peak ≤ 1 GB, RSS flat (within 10 %) from minute 2 to minute 10, /metrics gzip p99 ≤ 50 ms and
 *     /probe p99 ≤ 5 ms while collecting.
 * Quick (--quick): 20 targets of one network for 20 s.
 */
/** What the paced /probe rows asked: one target, or the first N in turn. */
function probeWhat(r) {
  return r.probeTargets > 1 ? `${r.probeTargets} targets in turn, each every ${fmt(r.probeTargets / 10)} s` : 'one target';
}
/** The serving thread's own event-loop delay of a run, for a /probe row ('' when it did not run). */
function servingLoopText(r) {
  if (r.servingLoop.windows === 0) return '';
  return `; the serving thread's event-loop delay (nodejs_serving_thread_eventloop_delay_*, ${r.servingLoop.windows} windows of 15 s, sampling interval taken off): p99 median ${fmt(r.servingLoop.p99Median)} ms, up to ${fmt(r.servingLoop.p99)} ms, max ${fmt(r.servingLoop.max)} ms`;
}

export async function processRows({ row, notes, say, quick }) {
  const MAINNET = { validators: 1500, peers: 1700 };
  const specs = quick
    ? [{ targets: 20, sameNode: true, runMs: 20_000, what: 'one mainnet-scale network (one node)', rssLimitMB: 250 }]
    : [
        { targets: 1, sameNode: true, runMs: 45_000, what: 'one mainnet-scale node, flags only', rssLimitMB: 100 },
        // Same-run reference of the row above: V8's own compiler and young generation (a small fleet optimizes for size, src/runtime-flags.ts).
        { targets: 1, sameNode: true, runMs: 45_000, what: 'one mainnet-scale node, flags only, reference: --no-runtime.optimize-for-size', reference: true, exporterArgs: ['--no-runtime.optimize-for-size'] },
        { targets: 100, sameNode: true, runMs: 60_000, what: 'one mainnet-scale network (one node, its URL 100 times)', rssLimitMB: 250, cpuLimit: 0.1, startupLimitMs: 15_000 },
        // Same-run reference of the row above: V8's own old-generation growing factor (src/runtime-flags.ts).
        { targets: 100, sameNode: true, runMs: 60_000, what: 'one mainnet-scale network (one node, its URL 100 times), reference: --runtime.heap-growing-percent=0', reference: true, exporterArgs: ['--runtime.heap-growing-percent=0'] },
        { targets: 100, sameNode: false, runMs: 60_000, what: 'distinct mainnet-scale nodes, each its own network', cpuLimit: 0.6 },
        { targets: 1000, sameNode: true, runMs: Number(process.env['FLEET_1000_RUN_MS'] ?? 540_000), what: 'one mainnet-scale node (its URL 1,000 times)', rssLimitMB: 1024, startupLimitMs: 60_000, flat: true, metricsP99: 50, probeP99: 5 },
        // Same-run reference of the row above, shorter: the HTTP server on the collecting thread (src/server/serving-thread.ts).
        { targets: 1000, sameNode: true, runMs: Number(process.env['FLEET_1000_REF_RUN_MS'] ?? 150_000), what: 'one mainnet-scale node (its URL 1,000 times), reference: --web.serving-thread off, 150 s', reference: true, exporterArgs: ['--web.serving-thread', 'off'] },
        // Same-run reference: the collecting threads at the serving thread's priority (src/runtime-priority.ts).
        { targets: 1000, sameNode: true, runMs: Number(process.env['FLEET_1000_REF_RUN_MS'] ?? 150_000), what: 'one mainnet-scale node (its URL 1,000 times), reference: --runtime.collecting-niceness=0, 150 s', reference: true, exporterArgs: ['--runtime.collecting-niceness', '0'] },
        // Same-run reference: Node's default pool of four V8 helper threads (the shipped launchers start node with --v8-pool-size=1, src/runtime-flags.ts NODE_FLAGS).
        { targets: 1000, sameNode: true, runMs: Number(process.env['FLEET_1000_REF_RUN_MS'] ?? 150_000), what: "one mainnet-scale node (its URL 1,000 times), reference: Node's default --v8-pool-size=4, 150 s", reference: true, nodeArgs: ['--v8-pool-size=4'] },
      ];
  for (const spec of specs) {
    // A fleet's paced probes take its first 150 targets in turn, as Prometheus probing the fleet every 15 s
    // asks each of them once per publication (FLEET_PROBE_TARGETS=N sets another N).
    const probeTargets = Number(process.env['FLEET_PROBE_TARGETS'] ?? (spec.targets >= 100 ? 150 : 1));
    const r = await runFleetProcess({ ...MAINNET, probeTargets, ...spec, say });
    const label = `7. process, ${r.targets.toLocaleString('en-US')} target${r.targets > 1 ? 's' : ''}, ${spec.what}`;
    const ref = `simulators ${fmt(r.simCpuShare * 100)} % of a core in the same run`;
    const refQuiet = `simulators ${fmt(r.simCpuQuietShare * 100)} % of a core at the same time`;
    const startupLimit = spec.startupLimitMs ?? 15_000;
    row(
      `${label}: every target collected once after start-up`,
      Number.isFinite(r.allUpMs) ? `${fmt(r.allUpMs / 1000)} s (the last target_up line; avax_up 1 for ${r.upAtNextScrape} of ${r.targets} at the next scrape, ${fmt(r.upCheckMs / 1000)} s after start${r.upAtNextScrape >= r.targets ? '' : Number.isFinite(r.allUpSeenMs) ? `, for all at the scrape ${fmt(r.allUpSeenMs / 1000)} s after start` : ', for all at no scrape of the run'}); ${r.skipped.ticks} tick(s) skipped after start-up by ${r.skipped.targets} target(s) during the ${fmt(r.runS)} s run (avax_collection_skipped_ticks_total)` : 'not within the time bound',
      spec.reference ? '— (reference)' : `≤ ${startupLimit / 1000} s`,
      r.series,
      // collected within the bound, and Prometheus (scraping every 15 s) saw every target up by the first
      // scrape after the bound that could show it; a reference is not judged
      spec.reference ? null : Number.isFinite(r.allUpMs) && r.allUpMs <= startupLimit && r.allUpSeenMs <= startupLimit + SCRAPE_INTERVAL_MS,
      !spec.reference && Number.isFinite(r.allUpMs) && r.allUpMs > startupLimit ? `exporter CPU ${fmt(r.cpuShare * 100)} % of a core, ${ref}` : '',
    );
    if (spec.reference) {
      row(`${label}: peak RSS of the exporter process`, `peak ${fmt(r.rssPeak / MB)} MB (VmHWM) before the latency burst, ${fmt(r.rssPeakBurst / MB)} MB with it, ${fmt(r.rssEnd / MB)} MB at the end; CPU ${fmt(r.cpuQuietShare * 100)} % of one core in the steady state (${fmt(r.cpuShare * 100)} % with the burst)`, '— (reference)', r.series, null);
      if (r.targets >= 100) row(`${label}: /probe?target= (${probeWhat(r)}) while collecting`, `one every 100 ms through the steady state: p50 ${fmt(r.probePaced.p50)} ms, p99 ${fmt(r.probePaced.p99)} ms, max ${fmt(r.probePaced.max)} ms over ${r.probePaced.n} (the machine's floor in the same rounds: p99 ${fmt(r.probeFloor.p99)} ms); back to back after it (the first target): p99 ${fmt(r.probe.p99)} ms${servingLoopText(r)}`, '— (reference)', r.series, null);
      continue;
    }
    if (spec.rssLimitMB) {
      row(
        `${label}: peak RSS of the exporter process (start-up, then collecting and scraped as Prometheus does)`,
        `peak ${fmt(r.rssPeak / MB)} MB (VmHWM), ${fmt(r.rssSteadyMax / MB)} MB highest after start-up; with the latency burst after it (back-to-back scrapes, not a target): peak ${fmt(r.rssPeakBurst / MB)} MB, ${fmt(r.rssEnd / MB)} MB at the end`,
        `≤ ${spec.rssLimitMB >= 1024 ? '1 GB' : `${spec.rssLimitMB} MB`}`,
        r.series,
        r.rssPeak <= spec.rssLimitMB * MB,
      );
    }
    if (spec.flat) {
      const f = r.rssFlat;
      row(
        `${label}: RSS flat from minute 2 to the end of the steady state (minute ${fmt((r.allUpMs + r.quietS * 1000) / 60_000)})`,
        `${fmt(f.min / MB)} to ${fmt(f.max / MB)} MB: +${fmt(f.spread * 100)} % (${f.n} samples, 4 per second); median of each whole minute after start: ${f.minuteMedians.map((m) => `${m.minute}: ${fmt(m.median / MB)}`).join(', ') || 'none'} MB`,
        'within 10 %',
        r.series,
        f.n > 0 && f.spread <= 0.1,
      );
    }
    row(
      `${label}: /metrics with Accept-Encoding: gzip while collecting`,
      `back to back: p50 ${fmt(r.metrics.p50)} ms, p99 ${fmt(r.metrics.p99)} ms over ${r.metrics.n} scrapes; ${fmt(r.metrics.bytes / 1024)} KB gzip (in the same rounds, a static server in its own process with a body of that size, the machine's floor: p50 ${fmt(r.metricsFloor.p50)} ms, p99 ${fmt(r.metricsFloor.p99)} ms); one every 15 s through the steady state before, as Prometheus scrapes: p50 ${fmt(r.metricsPaced.p50)} ms, max ${fmt(r.metricsPaced.max)} ms over ${r.metricsPaced.n}${r.metricsPacedFloor.n > 0 ? ` (the static body beside each but the first: p50 ${fmt(r.metricsPacedFloor.p50)} ms, max ${fmt(r.metricsPacedFloor.max)} ms)` : ''}`,
      spec.metricsP99 ? `p99 ≤ ${spec.metricsP99} ms` : '—',
      r.series,
      spec.metricsP99 ? r.metrics.p99 <= spec.metricsP99 : null,
    );
    row(
      `${label}: /probe?target= (${probeWhat(r)}) while collecting`,
      `one every 100 ms through the steady state: p50 ${fmt(r.probePaced.p50)} ms, p99 ${fmt(r.probePaced.p99)} ms, max ${fmt(r.probePaced.max)} ms over ${r.probePaced.n} (in the same rounds, a static server in its own process, the machine's floor: p50 ${fmt(r.probeFloor.p50)} ms, p99 ${fmt(r.probeFloor.p99)} ms, max ${fmt(r.probeFloor.max)} ms); back to back after it (the first target): p50 ${fmt(r.probe.p50)} ms, p99 ${fmt(r.probe.p99)} ms over ${r.probe.n}${r.loopLag.windows > 0 ? `; the exporter's event-loop delay over the steady state before (nodejs_eventloop_lag_*, ${r.loopLag.windows} windows of 15 s, prom-client's 10 ms sampling interval in each figure): p99 up to ${fmt(r.loopLag.p99)} ms, max ${fmt(r.loopLag.max)} ms` : ''}${servingLoopText(r)}`,
      `p99 ≤ ${spec.probeP99 ?? 5} ms`,
      r.series,
      r.probe.p99 <= (spec.probeP99 ?? 5) && r.probePaced.p99 <= (spec.probeP99 ?? 5),
    );
    row(
      `${label}: steady-state CPU of the exporter (collecting, scraped as Prometheus does: /metrics gzip every 15 s)`,
      `${fmt(r.cpuQuietShare * 100)} % of one core over ${fmt(r.quietS)} s after start-up (${refQuiet}); of it ${fmt(r.cpuQuietSysShare * 100)} % in the kernel (system calls, ${fmt(r.faultsQuietPerS)} page faults per second: their cost on this machine is under Kernel costs above the table); with the ${fmt(r.burstS)} s latency burst of back-to-back scrapes after it: ${fmt(r.cpuShare * 100)} %`,
      spec.cpuLimit ? `≤ ${spec.cpuLimit * 100} % of a core` : '—',
      r.series,
      spec.cpuLimit ? r.cpuQuietShare <= spec.cpuLimit : null,
    );
    notes.push(`process run, ${r.targets} targets (${spec.what}): ${r.upAtEnd} of ${r.targets} up at the end; ${r.overlaps} cycle_overlap warning(s).`);
  }
}
