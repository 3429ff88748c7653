// npm run bench: the performance figures of issue 5, printed as one Markdown table.
//
//   node bench/run.js [--quick] [--node-metrics] [--budget] [--process]
//
// --node-metrics runs only the rows of the node-metrics collector (issue 15), in about 15 s.
// --process runs only rows 7 (the exporter as its own process: 1, 100 and 1,000 targets; about 25 minutes).
// Everything runs on 127.0.0.1. The simulated node (mainnet scale: 1,500 validators, 1,700 peers
// per node) runs in a child process (bench/sim-child.js) and the scrape client in another
// (bench/scraper.js), so the CPU time, heap and RSS measured here are the exporter's. Every loop is
// bounded in count and in time; the whole run takes about 35 minutes, rows 7 most of it (--quick: about one).
// The script re-runs itself with --expose-gc (heap figures are taken after a forced gc).
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import {
  MB,
  countSeries,
  countingLogger,
  ensureGc,
  fleetConfig,
  fmtBytes,
  fmtMB,
  fmtMs,
  fmtSignedMB,
  gc,
  machine,
  machineLine,
  kernelCostsLine,
  mean,
  parseExposition,
  quantile,
  sleep,
  slope,
  startSimChild,
  targetName,
} from './lib.js';

async function main() {
  const QUICK = process.argv.includes('--quick');
  // --node-metrics: only the rows of issue 15 (a 1-node simulator; about 15 s).
  const NODE_METRICS_ONLY = process.argv.includes('--node-metrics');
  // --budget: only rows 4 (requests per cycle per target over a simulated hour; about a minute). Run it
  // after adding or rescheduling a collector.
  const BUDGET_ONLY = process.argv.includes('--budget');
  // --process: only rows 7 (issue 21: 1 target, 100 of one network, 100 distinct, 1,000 on one node).
  const PROCESS_ONLY = process.argv.includes('--process');
  const started = performance.now();
  const m = machine();
  const load0 = os.loadavg();
  const rows = [];
  const notes = [];
  const row = (figure, measured, target, series, ok, why = '') => rows.push({ figure, measured, target, series, ok, why });
  const say = (s) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${s}\n`);

  const N_FLEET = QUICK ? 20 : 100;
  const cleanup = [];
  try {
    if (PROCESS_ONLY) {
      await (await import('./fleet-process.js')).processRows({ row, notes, say, quick: QUICK });
      printTable(rows, notes, m, load0, started, QUICK);
      return;
    }
    if (BUDGET_ONLY) {
      say('starting the simulator: 1 node × (1,500 validators, 1,700 peers)');
      const sim1 = await startSimChild({ nodes: 1, validators: 1500, peers: 1700, healthIntervalMs: 3_600_000 });
      cleanup.push(() => sim1.close());
      say('1 target: 240 cycles = one simulated hour (simulated clock +15 s per cycle)');
      const one = await runCycles({ sim: sim1, targets: [{ name: targetName(0), url: sim1.proxyNodeUrl(0) }], cycles: 240, maxMs: 120_000, sampleEvery: 1000, loadCycles: 240 });
      cleanup.push(() => one.exporter.stop());
      budgetRows(row, one);
      printTable(rows, notes, m, load0, started, QUICK);
      return;
    }
    if (NODE_METRICS_ONLY) {
      say('starting the simulator: 1 node × (1,500 validators, 1,700 peers)');
      const sim1 = await startSimChild({ nodes: 1, validators: 1500, peers: 1700, healthIntervalMs: 3_600_000 });
      cleanup.push(() => sim1.close());
      await nodeMetricsRows(row, sim1.nodeUrl(0), QUICK ? 30 : 100, say);
      printTable(rows, notes, m, load0, started, QUICK);
      return;
    }
    // -----------------------------------------------------------------------------------------
    say(`starting the simulator: ${N_FLEET} nodes × (1,500 validators, 1,700 peers)`);
    // Health checks of 100 simulated nodes take ~1 s of the simulator's CPU; run them once at the
    // start (and on scenario switches) instead of every 30 s, so they do not stall the answers.
    const sim = await startSimChild({ nodes: N_FLEET, validators: 1500, peers: 1700, healthIntervalMs: 3_600_000 });
    cleanup.push(() => sim.close());
    await fetchText(`${sim.nodeUrl(0)}/ext/health/liveness`); // waits for the first health run of every node

    const nodeExporter = await startNodeExporter();
    if (nodeExporter) cleanup.push(() => nodeExporter.close());
    else notes.push('prometheus-node-exporter is not installed (not on PATH): no outside reference row.');

    // -----------------------------------------------------------------------------------------
    // 2b. parse + validate + transform of a full platform.getCurrentValidators answer (before any
    // exporter code has run in this process: the first run is cold).
    say('platform.getCurrentValidators: parse + validate + transform, cold and warm');
    const pv = await parseBench(sim.nodeUrl(0), QUICK ? 10 : 30);
    const pvWhat = `${fmtBytes(pv.bytes)} answer, ${pv.entries.toLocaleString('en-US')} entries`;
    row(
      '2. full validator list: JSON.parse + schema + toSamples, warm (every later run)',
      `p50 ${fmtMs(pv.warm.total)} ms (parse ${fmtMs(pv.warm.parse)} + schema ${fmtMs(pv.warm.schema)} + transform ${fmtMs(pv.warm.transform)}) over ${pv.runs} runs; ${pvWhat}`,
      '≤ 100 ms',
      pv.samples,
      pv.warm.total <= 100,
    );
    row(
      '2. full validator list: JSON.parse + schema + toSamples, cold (first run in the process)',
      `${fmtMs(pv.cold.total)} ms (parse ${fmtMs(pv.cold.parse)} + schema ${fmtMs(pv.cold.schema)} + transform ${fmtMs(pv.cold.transform)}); ${pvWhat}`,
      '≤ 100 ms',
      pv.samples,
      pv.cold.total <= 100,
      pv.cold.total > 100 ? 'one-time cost at start-up: first use of the schema and of JSON.parse on a 1.4 MB string, code not yet optimised by the JIT' : '',
    );
    await (await import('./decode.js')).decodeRows({ row, say, quick: QUICK, nodeUrl: sim.nodeUrl(0) });

    // -----------------------------------------------------------------------------------------
    // 6. node internals (issue 15): reading a mainnet-sized /ext/metrics.
    await nodeMetricsRows(row, sim.nodeUrl(0), QUICK ? 30 : 100, say);

    // -----------------------------------------------------------------------------------------
    // One target: 1,000 cycles through the counting proxy (bytes on the wire), the simulator's clock
    // advanced 15 s per cycle. Gives rows 2 (cycle cost), 3 (memory) and 4 (load on the node).
    const C1 = QUICK ? 300 : 1000;
    say(`1 target: ${C1} cycles (simulated clock +15 s per cycle)`);
    const one = await runCycles({
      sim,
      targets: [{ name: targetName(0), url: sim.proxyNodeUrl(0) }],
      cycles: C1,
      maxMs: QUICK ? 40_000 : 100_000,
      sampleEvery: 10,
      loadCycles: 240,
      keep: true,
    });
    cleanup.push(() => one.exporter.stop());
    const wall = one.cycleMs;
    const cpu = one.cpuMs;
    const fullIdx = one.fullCycles;
    const light = wall.filter((_, i) => !fullIdx.has(i));
    const lightCpu = cpu.filter((_, i) => !fullIdx.has(i));
    const full = wall.filter((_, i) => fullIdx.has(i) && i > 0);
    const fullCpu = cpu.filter((_, i) => fullIdx.has(i) && i > 0);
    row(
      '2. one cycle, 1 target: wall time',
      `p50 ${fmtMs(quantile(light, 0.5))} ms, p99 ${fmtMs(quantile(light, 0.99))} ms; with the full validator list p50 ${fmtMs(quantile(full, 0.5))} ms; first cycle ${fmtMs(wall[0])} ms (${wall.length} cycles)`,
      '— (≤ 100 ms for the full list, row above)',
      one.seriesCount,
      null,
    );
    row(
      '2. one cycle, 1 target: CPU time (user+system)',
      `p50 ${fmtMs(quantile(lightCpu, 0.5))} ms, mean ${fmtMs(mean(cpu))} ms; with the full validator list p50 ${fmtMs(quantile(fullCpu, 0.5))} ms; ${fmtMs((mean(cpu) / 15_000) * 100)}% of one core at a 15 s interval`,
      '—',
      one.seriesCount,
      null,
    );
    memoryRow(row, '3. memory after', one, 100 * MB);

    // 4. load on the node
    const L = one.load;
    const fullEvery = L.fullRunCycles.length > 1 ? Math.min(...L.fullRunCycles.slice(1).map((c, i) => c - L.fullRunCycles[i])) * 15 : NaN;
    budgetRows(row, one);
    row(
      '4. load on the node: bytes per cycle per target',
      `mean ${fmtBytes(L.bytesFromNode / L.cycles)} from the node + ${fmtBytes(L.bytesToNode / L.cycles)} to it; ${fmtBytes(L.bytesFromNode)} + ${fmtBytes(L.bytesToNode)} per hour; ${L.connections} TCP connection(s)`,
      '—',
      one.seriesCount,
      null,
    );
    row(
      '4. full validator list (platform-validators-full) frequency',
      `${L.fullRunCycles.length} runs per hour, at most every ${fullEvery} s`,
      'at most every 300 s',
      one.seriesCount,
      fullEvery >= 300 && L.fullRunCycles.length <= 12,
    );

    // 1. /metrics latency, 1 target
    say('1 target: /metrics latency (ours, naive prom-client, static buffer, node_exporter)');
    await latencyRows({ row, notes, exporter: one.exporter, label: '1 target', count: QUICK ? 300 : 600, maxMs: QUICK ? 15_000 : 30_000, nodeExporter, p50Target: 2, p99Target: 5 });
    await one.exporter.stop();
    cleanup.pop();
    gc();

    // -----------------------------------------------------------------------------------------
    // 100 targets, schedule:false: cycles driven by collectOnce() (all targets at once), time-bounded.
    const CN = 1000;
    const maxN = QUICK ? 30_000 : 130_000;
    say(`${N_FLEET} targets: up to ${CN} cycles or ${maxN / 1000} s`);
    const many = await runCycles({
      sim,
      targets: Array.from({ length: N_FLEET }, (_, i) => ({ name: targetName(i), url: sim.nodeUrl(i) })),
      cycles: CN,
      maxMs: maxN,
      sampleEvery: 1,
      keep: true,
    });
    cleanup.push(() => many.exporter.stop());
    memoryRow(row, '3. memory after', many, 300 * MB);
    notes.push(
      `${N_FLEET}-target memory run: ${many.cycleMs.length} cycles fit in ${(many.elapsedMs / 1000).toFixed(0)} s (cycle p50 ${fmtMs(quantile(many.cycleMs, 0.5))} ms, all ${N_FLEET} targets at once, no concurrency bound, the simulator answering ${N_FLEET} nodes from one process); the memory figures are after that many cycles, not 1,000.`,
    );

    say(`${N_FLEET} targets: /metrics latency`);
    await latencyRows({ row, notes, exporter: many.exporter, label: `${N_FLEET} targets`, count: QUICK ? 300 : 600, maxMs: QUICK ? 20_000 : 40_000, nodeExporter, p50Target: null, p99Target: 20, gzip: true });
    await many.exporter.stop();
    cleanup.pop();
    gc();

    // -----------------------------------------------------------------------------------------
    // 5. Fleet: the real scheduler (concurrency 8, staggered start, default 15 s interval).
    say(`fleet: ${N_FLEET} targets with the scheduler (concurrency 8)`);
    const fleet = await fleetRun(sim, N_FLEET);
    row(
      `5. fleet: first pass of ${N_FLEET} targets (staggered start, every collector incl. the full validator list), concurrency 8`,
      `all collected ${fmtMs(fleet.firstPassMs / 1000)} s after start${fleet.firstPassMs >= 60_000 ? ' (not finished: time bound)' : ''}`,
      '≤ 15 s',
      fleet.seriesCount,
      fleet.firstPassMs <= 15_000,
      fleet.firstPassMs > 15_000 ? `${fleet.overlaps} warnings (e.g. cycle_overlap: a tick skipped); see the next row for a cycle without the full list` : '',
    );
    row(
      `5. fleet: one cycle of ${N_FLEET} targets (collectOnce, concurrency 8, the usual collectors)`,
      `${fmtMs(fleet.lightMs / 1000)} s wall, CPU ${fmtMs(fleet.lightCpuMs)} ms`,
      '≤ 15 s',
      fleet.seriesCount,
      fleet.lightMs <= 15_000,
    );
  } finally {
    for (const f of cleanup.reverse()) await Promise.resolve().then(f).catch(() => {});
  }

  // -------------------------------------------------------------------------------------------
  // 7. The exporter as operators run it: its own process, the real scheduler, 1 / 100 / 1,000 targets.
  await (await import('./fleet-process.js')).processRows({ row, notes, say, quick: QUICK });
  printTable(rows, notes, m, load0, started, QUICK);
}

/** Rows 4 (requests per cycle per target): the request budget every collector shares. */
function budgetRows(row, one) {
  const L = one.load;
    row(
      '4. load on the node: requests per cycle per target, mean over a simulated hour (default settings)',
      `${L.requestsPerCycle.toFixed(2)} (${L.requestsPerHour.toLocaleString('en-US')} requests in ${L.cycles} cycles = ${((L.cycles * 15) / 3600).toFixed(2)} h)`,
      '≤ 12 per cycle',
      one.seriesCount,
      L.requestsPerCycle <= 12,
    );
    row(
      '4. load on the node: requests in the busiest cycle per target (after the start-up cycle)',
      `max ${L.maxSteady} (${L.histogram}); the start-up cycle, which runs every collector once, ${L.firstRequests}`,
      '≤ 12 per cycle',
      one.seriesCount,
      L.maxSteady <= 12,
      L.maxSteady > 12 ? 'collectors with longer intervals share cycles with the 15 s ones' : '',
    );
}

function printTable(rows, notes, m, load0, started, QUICK) {
  const load1 = os.loadavg();
  const out = [];
  out.push(`Machine: ${machineLine(m)}`);
  out.push(`Kernel costs here: ${kernelCostsLine()}`);
  out.push(`Command: npm run bench (node --expose-gc bench/run.js${process.argv.slice(2).map((a) => ` ${a}`).join('')}), ${new Date().toISOString().slice(0, 19)}Z, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  out.push(`Load average (1 min) at start ${load0[0].toFixed(2)}, at end ${load1[0].toFixed(2)} on ${m.cores} cores`);
  out.push('');
  out.push('| figure | measured | target | series count | ok? |');
  out.push('|---|---|---|---|---|');
  for (const r of rows) {
    const ok = r.ok === null ? '—' : r.ok ? 'yes' : `**no**${r.why ? `: ${r.why}` : ''}`;
    out.push(`| ${r.figure} | ${r.measured} | ${r.target} | ${typeof r.series === 'number' && Number.isFinite(r.series) ? r.series.toLocaleString('en-US') : (r.series ?? '—')} | ${ok} |`);
  }
  if (notes.length > 0) {
    out.push('');
    for (const n of notes) out.push(`- ${n}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

async function fetchText(url, init) {
  const res = await fetch(url, init);
  return res.text();
}

/**
 * 6. node internals (collector node-metrics, issue 15): the simulated node's /ext/metrics at mainnet
 * scale (every op/method vector touched, coreth's timers; several times the 3,600 lines of an idle
 * local v1.14.2 node), read by the collector's own path (streaming text reader + signal picker) in
 * this process: CPU time per run, cold and warm, and the bytes the collector adds per cycle.
 */
async function nodeMetricsRows(row, nodeUrl, warmRuns, say) {
  say('/ext/metrics: text reader + signal picker, cold and warm');
  const body = await fetchText(`${nodeUrl}/ext/metrics`);
  const { pickFromText } = await import('../dist/collectors/node-metrics.js');
  const { SignalIndex } = await import('../dist/collectors/node-metrics-pick.js');
  const { COLLECTOR_BY_NAME } = await import('../dist/collectors/index.js');
  const interval = COLLECTOR_BY_NAME.get('node-metrics').interval;
  const once = (index) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = pickFromText(body, [], undefined, index);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1000, samples: r.samples.length, lines: r.stats.lines, kept: r.stats.kept, scheme: r.scheme };
  };
  // Cold: the first run in the process builds the name index (the collector keeps it per target).
  const cold = once(undefined);
  const index = new SignalIndex([]);
  const warm = [];
  for (let i = 0; i < warmRuns; i++) warm.push(once(index));
  const cpu50 = quantile(warm.map((w) => w.cpu), 0.5);
  const cpu99 = quantile(warm.map((w) => w.cpu), 0.99);
  const wall50 = quantile(warm.map((w) => w.wall), 0.5);
  const bytes = Buffer.byteLength(body);
  const what = `${fmtBytes(bytes)} body, ${cold.lines.toLocaleString('en-US')} lines (${cold.kept} kept), scheme ${cold.scheme}`;
  const perCycle = 15 / interval;
  row(
    '6. node internals: /ext/metrics read + signal pick, warm (every later run)',
    `CPU p50 ${fmtMs(cpu50)} ms, p99 ${fmtMs(cpu99)} ms, wall p50 ${fmtMs(wall50)} ms over ${warmRuns} runs; ${what}; one run every ${interval} s = ${fmtMs(cpu50 * perCycle)} ms CPU per 15 s cycle`,
    '≤ 30 ms CPU per cycle per target',
    cold.samples,
    cpu50 * perCycle <= 30 && cpu50 <= 30,
  );
  row(
    '6. node internals: /ext/metrics read + signal pick, cold (first run in the process)',
    `CPU ${fmtMs(cold.cpu)} ms, wall ${fmtMs(cold.wall)} ms; ${what}`,
    '—',
    cold.samples,
    null,
  );
  row(
    '6. node internals: bytes per cycle per target it adds',
    `${fmtBytes(bytes * perCycle)} per 15 s cycle from the node (one ${fmtBytes(bytes)} GET every ${interval} s), ${fmtBytes((bytes * 3600) / interval)} per hour; ${cold.samples} series per target`,
    '—',
    cold.samples,
    null,
  );
}

async function parseBench(nodeUrl, warmRuns) {
  const body = await fetchText(`${nodeUrl}/ext/bc/P`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getCurrentValidators', params: {} }),
  });
  // Imported here, so that the first run below is the first use of the schema in this process.
  const { PlatformGetCurrentValidatorsResult } = await import('../dist/schemas/platform.js');
  const { toSamples } = await import('../dist/collectors/platform-validators-full.js');
  const { PRIMARY_NETWORK_ID } = await import('../dist/node-client/index.js');
  const once = () => {
    const t0 = performance.now();
    const env = JSON.parse(body);
    const t1 = performance.now();
    const parsed = PlatformGetCurrentValidatorsResult.safeParse(env.result);
    if (!parsed.success) throw new Error(`schema rejected the simulator's answer: ${parsed.error.message.slice(0, 300)}`);
    const t2 = performance.now();
    const samples = toSamples([{ subnet: PRIMARY_NETWORK_ID, validators: parsed.data.validators }]);
    const t3 = performance.now();
    return { parse: t1 - t0, schema: t2 - t1, transform: t3 - t2, total: t3 - t0, entries: parsed.data.validators.length, samples: samples.length };
  };
  const cold = once();
  const warm = [];
  for (let i = 0; i < warmRuns; i++) warm.push(once());
  const med = (k) => quantile(warm.map((w) => w[k]), 0.5);
  return {
    bytes: Buffer.byteLength(body),
    entries: cold.entries,
    samples: cold.samples,
    runs: warmRuns,
    cold,
    warm: { parse: med('parse'), schema: med('schema'), transform: med('transform'), total: med('total') },
  };
}

/** Collectors wrapped to count runs per collector (the exporter resolves them by name). */
async function countingCollectors(state) {
  const { COLLECTORS } = await import('../dist/collectors/index.js');
  return COLLECTORS.map((c) => ({
    ...c,
    collect(ctx) {
      if (c.name === 'platform-validators-full' && ctx.target.name === targetName(0)) state.fullRuns.push(state.cycle);
      return c.collect(ctx);
    },
  }));
}

function rpcTotal(text) {
  let n = 0;
  const re = /^avax_rpc_requests_total\{[^\n]*\} (\d+(?:\.\d+)?)$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) n += Number(m[1]);
  return n;
}

/**
 * Drives `cycles` cycles with collectOnce() (schedule:false), advancing the simulator's clock 15 s
 * per cycle; records wall and CPU time per cycle, heap/RSS after a forced gc every `sampleEvery`
 * cycles, and (for the first `loadCycles` cycles) requests and bytes.
 */
async function runCycles({ sim, targets, cycles, maxMs, sampleEvery, loadCycles = 0 }) {
  const { startExporter } = await import('../dist/main.js');
  const state = { cycle: 0, fullRuns: [] };
  const log = countingLogger('warn');
  const exporter = await startExporter({ config: fleetConfig(targets), logger: log.logger, schedule: false, collectors: await countingCollectors(state) });
  const cycleMs = [];
  const cpuMs = [];
  const mem = [];
  const load = { cycles: 0, perCycle: [], bytesFromNode: 0, bytesToNode: 0, connections: 0 };
  const bytes0 = await sim.bytes();
  let prevRequests = 0;
  const t0 = performance.now();
  for (let i = 0; i < cycles && performance.now() - t0 < maxMs; i++) {
    state.cycle = i;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await exporter.collectOnce();
    const w = performance.now() - w0;
    const c = process.cpuUsage(c0);
    cycleMs.push(w);
    cpuMs.push((c.user + c.system) / 1000);
    if (i < loadCycles) {
      const total = rpcTotal(exporter.current().text.toString('utf8'));
      load.perCycle.push(total - prevRequests);
      prevRequests = total;
      if (i === loadCycles - 1) {
        const b = await sim.bytes();
        load.cycles = loadCycles;
        load.bytesFromNode = b.fromNode - bytes0.fromNode;
        load.bytesToNode = b.toNode - bytes0.toNode;
        load.connections = b.connections - bytes0.connections;
      }
    }
    await sim.advance(15_000);
    if (i % sampleEvery === 0) {
      gc();
      const mu = process.memoryUsage();
      mem.push({ cycle: i, heap: mu.heapUsed, heapTotal: mu.heapTotal, rss: mu.rss });
    }
  }
  const elapsedMs = performance.now() - t0;
  gc();
  const mu = process.memoryUsage();
  mem.push({ cycle: cycleMs.length, heap: mu.heapUsed, heapTotal: mu.heapTotal, rss: mu.rss });
  const fullCycles = new Set(state.fullRuns);
  const pc = load.perCycle;
  return {
    exporter,
    log,
    cycleMs,
    cpuMs,
    mem,
    elapsedMs,
    fullCycles,
    seriesCount: exporter.current().seriesCount,
    targets: targets.length,
    load: {
      ...load,
      requestsPerCycle: mean(pc),
      requestsPerHour: pc.reduce((a, b) => a + b, 0),
      maxRequests: Math.max(...pc),
      firstRequests: pc[0],
      maxSteady: Math.max(...pc.slice(1)),
      histogram: [...pc.slice(1).reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map())].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k} requests in ${v} cycles`).join(', '),
      fullRunCycles: state.fullRuns.filter((c) => c < loadCycles),
    },
  };
}

let baselineRss;
/** RSS of a fresh Node.js process after importing dist/main.js (and a gc). */
function BASELINE_RSS() {
  baselineRss ??= Number(
    spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', `await import(${JSON.stringify(new URL('../dist/main.js', import.meta.url).href)}); gc(); console.log(process.memoryUsage().rss)`], {
      encoding: 'utf8',
      timeout: 20_000,
    }).stdout,
  );
  return baselineRss;
}

function memoryRow(row, label, run, limit) {
  const n = run.cycleMs.length;
  const half = run.mem.filter((x) => x.cycle >= n / 2);
  const xs = half.map((x) => x.cycle);
  const heapDrift = slope(xs, half.map((x) => x.heap)) * (n / 2);
  const rssDrift = slope(xs, half.map((x) => x.rss)) * (n / 2);
  const last = run.mem[run.mem.length - 1];
  const peakRss = Math.max(...run.mem.map((x) => x.rss));
  // "No growth": the heap trend over the second half stays under 2 MB or 5 % of the heap.
  const growthBound = Math.max(2 * MB, 0.05 * last.heap);
  const ok = peakRss <= limit && heapDrift <= growthBound;
  const why = [];
  if (peakRss > limit) {
    const peakAt = run.mem.find((x) => x.rss === peakRss).cycle;
    const atOnce = run.targets > 1 ? `; the peak is at cycle ${peakAt}${run.fullCycles.has(peakAt) ? `, which parsed the full validator list of all ${run.targets} targets at once (collectOnce with schedule:false has no concurrency bound)` : ''}` : '';
    why.push(
      `RSS ${fmtMB(peakRss)} above ${fmtMB(limit)} while the live heap is ${fmtMB(last.heap)}: V8 keeps ${fmtMB(last.heapTotal)} of heap reserved after parsing the multi-megabyte answers, and a Node.js process that has only imported the exporter's modules is already at ${fmtMB(BASELINE_RSS())}${atOnce}`,
    );
  }
  if (heapDrift > growthBound) why.push(`heap grows ${fmtSignedMB(heapDrift)} over the second half`);
  row(
    `${label} ${n.toLocaleString('en-US')} cycles, ${run.targets} target${run.targets > 1 ? 's' : ''}`,
    `RSS ${fmtMB(last.rss)} (peak ${fmtMB(peakRss)}), heap used ${fmtMB(last.heap)} of ${fmtMB(last.heapTotal)} after gc; drift over the second half (least-squares trend): heap ${fmtSignedMB(heapDrift)}, RSS ${fmtSignedMB(rssDrift)}`,
    `RSS ≤ ${limit / MB} MB, no heap growth over the last half (trend ≤ ${fmtMB(growthBound)})`,
    run.seriesCount,
    ok,
    why.join('; '),
  );
}

// ---------------------------------------------------------------------------------------------
// Scrape latency

function runScraper(msg) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./scraper.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    const kill = setTimeout(() => child.kill('SIGKILL'), msg.maxMs + 120_000);
    child.once('message', (m) => {
      clearTimeout(kill);
      child.kill();
      if (m.error) reject(new Error(m.error));
      else resolve(m.results);
    });
    child.once('exit', (code) => {
      clearTimeout(kill);
      reject(new Error(`scraper exited with ${code}`));
    });
    child.send(msg);
  });
}

async function listenHttp(handler) {
  const srv = http.createServer(handler);
  srv.keepAliveTimeout = 65_000;
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${srv.address().port}/metrics`,
    close: () =>
      new Promise((r) => {
        srv.close(() => r());
        srv.closeAllConnections();
      }),
  };
}

/** The same samples in a prom-client Registry of Gauges (plus its default metrics), rendered at scrape time. */
function naiveRegistry(text) {
  const { families, samples } = parseExposition(text);
  const reg = new Registry();
  collectDefaultMetrics({ register: reg });
  const byName = new Map();
  for (const s of samples) {
    if (s.name.startsWith('process_') || s.name.startsWith('nodejs_')) continue; // the registry's own default metrics stand in for these
    if (!byName.has(s.name)) byName.set(s.name, []);
    byName.get(s.name).push(s);
  }
  for (const [name, list] of byName) {
    const labelNames = [...new Set(list.flatMap((s) => Object.keys(s.labels)))];
    const fam = families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ''));
    const g = new Gauge({ name, help: fam?.help ?? name, labelNames, registers: [reg] });
    for (const s of list) g.set(s.labels, s.value);
  }
  return reg;
}

async function latencyRows({ row, notes, exporter, label, count, maxMs, nodeExporter, p50Target, p99Target, gzip = false }) {
  const ours = `${exporter.url}/metrics`;
  const snapshot = exporter.current().text;
  const reg = naiveRegistry(snapshot.toString('utf8'));
  // registry.metrics() alone, in process.
  const inproc = [];
  const ip0 = performance.now();
  for (let i = 0; i < 200 && (i < 10 || performance.now() - ip0 < 5000); i++) {
    const t = performance.now();
    await reg.metrics();
    inproc.push(performance.now() - t);
  }
  const naive = await listenHttp(async (req, res) => {
    const body = await reg.metrics();
    res.writeHead(200, { 'content-type': reg.contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  const staticBuf = Buffer.from(snapshot);
  const stat = await listenHttp((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': staticBuf.length });
    res.end(staticBuf);
  });
  // The naive server gets as many scrapes as fit in about a third of the time bound.
  const naiveCount = Math.max(30, Math.min(count, Math.floor(maxMs / 3 / Math.max(0.2, quantile(inproc, 0.5) + 0.5))));
  const endpoints = [
    { name: 'ours', url: ours, count },
    { name: 'naive', url: naive.url, count: naiveCount },
    { name: 'static', url: stat.url, count },
  ];
  if (gzip) endpoints.push({ name: 'ours-gzip', url: ours, count, headers: { 'accept-encoding': 'gzip' } });
  if (nodeExporter) endpoints.push({ name: 'node_exporter', url: nodeExporter.url, count: Math.min(count, 500) });
  let res;
  try {
    res = await runScraper({ endpoints, maxMs, warmup: 10 });
  } finally {
    await naive.close();
    await stat.close();
  }
  const o = res.ours;
  const p50 = quantile(o.lat, 0.5);
  const p99 = quantile(o.lat, 0.99);
  const s = res.static;
  const sp99 = quantile(s.lat, 0.99);
  const okP50 = p50Target === null || p50 <= p50Target;
  const okP99 = p99 <= p99Target;
  const why = [];
  if (!okP50) why.push(`p50 above ${p50Target} ms`);
  if (!okP99) {
    why.push(
      sp99 > p99Target
        ? `p99 above ${p99Target} ms; machine noise: a static buffer of the same size from node:http has p99 ${fmtMs(sp99)} ms in the same run`
        : `p99 above ${p99Target} ms (a static buffer of the same size: p99 ${fmtMs(sp99)} ms)`,
    );
  }
  row(
    `1. /metrics latency, ${label} (${o.lat.length} sequential keep-alive scrapes)`,
    `p50 ${fmtMs(p50)} ms, p99 ${fmtMs(p99)} ms, max ${fmtMs(Math.max(...o.lat))} ms; ${fmtBytes(o.size)}`,
    p50Target === null ? `p99 ≤ ${p99Target} ms` : `p50 ≤ ${p50Target} ms, p99 ≤ ${p99Target} ms`,
    o.series,
    okP50 && okP99,
    why.join('; '),
  );
  if (res['ours-gzip']) {
    const g = res['ours-gzip'];
    row(`1. /metrics latency, ${label}, Accept-Encoding: gzip (as Prometheus scrapes)`, `p50 ${fmtMs(quantile(g.lat, 0.5))} ms, p99 ${fmtMs(quantile(g.lat, 0.99))} ms; ${fmtBytes(g.size)} (${g.lat.length} scrapes)`, '—', o.series, null);
  }
  const n = res.naive;
  const n50 = quantile(n.lat, 0.5);
  const n99 = quantile(n.lat, 0.99);
  row(
    `1. naive: the same samples as prom-client Gauges, registry.metrics() per scrape, ${label} (${n.lat.length} scrapes)`,
    `p50 ${fmtMs(n50)} ms, p99 ${fmtMs(n99)} ms; naive/ours ×${(n50 / p50).toFixed(1)} at p50, ×${(n99 / p99).toFixed(1)} at p99; registry.metrics() alone p50 ${fmtMs(quantile(inproc, 0.5))} ms; ${fmtBytes(n.size)}`,
    '— (comparison)',
    n.series,
    null,
  );
  row(`1. reference: static buffer of the same size from node:http, ${label} (${s.lat.length} scrapes)`, `p50 ${fmtMs(quantile(s.lat, 0.5))} ms, p99 ${fmtMs(sp99)} ms; ${fmtBytes(s.size)}`, '— (noise floor)', s.series, null);
  if (res.node_exporter) {
    const ne = res.node_exporter;
    row(
      `1. reference: prometheus-node-exporter ${nodeExporter.version} /metrics, during the ${label} run (${ne.lat.length} scrapes)`,
      `p50 ${fmtMs(quantile(ne.lat, 0.5))} ms, p99 ${fmtMs(quantile(ne.lat, 0.99))} ms; ${fmtBytes(ne.size)}`,
      '— (outside reference)',
      ne.series,
      null,
    );
  }
  void notes;
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const p = s.address().port;
  await new Promise((r) => s.close(r));
  return p;
}

async function startNodeExporter() {
  const bin = ['prometheus-node-exporter', 'node_exporter'].find((b) => (process.env.PATH ?? '').split(':').some((d) => d && existsSync(`${d}/${b}`)));
  if (!bin) return undefined;
  const port = await freePort();
  const child = spawn(bin, [`--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
  const url = `http://127.0.0.1:${port}/metrics`;
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(url);
      await res.text();
      if (res.ok) {
        const version = /version ([^\s]+)/.exec(spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 5000 }).stdout ?? '')?.[1] ?? '';
        return {
          url,
          version,
          close: async () => {
            if (child.exitCode === null) {
              const exited = new Promise((r) => child.once('exit', r));
              child.kill('SIGTERM');
              await Promise.race([exited, sleep(3000)]);
              if (child.exitCode === null) child.kill('SIGKILL');
            }
          },
        };
      }
    } catch {
      /* not yet */
    }
  }
  if (child.exitCode === null) child.kill('SIGKILL');
  process.stderr.write(`node_exporter did not start: ${err.slice(-300)}\n`);
  return undefined;
}

async function fleetRun(sim, n) {
  const { startExporter } = await import('../dist/main.js');
  const log = countingLogger('warn');
  const t0 = performance.now();
  const targets = Array.from({ length: n }, (_, i) => ({ name: targetName(i), url: sim.nodeUrl(i) }));
  const exporter = await startExporter({ config: fleetConfig(targets), logger: log.logger, schedule: true });
  try {
    // The scheduler starts every target once right away, staggered over half the interval.
    const runners = () => exporter.scheduler.runners();
    while (runners().some((r) => r.cycles < 1) && performance.now() - t0 < 60_000) await sleep(20);
    const firstPassMs = performance.now() - t0;
    const overlaps = log.counts[40] ?? 0;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await exporter.collectOnce();
    const lightMs = performance.now() - w0;
    const cu = process.cpuUsage(c0);
    return { firstPassMs, lightMs, lightCpuMs: (cu.user + cu.system) / 1000, overlaps, seriesCount: exporter.current().seriesCount };
  } finally {
    await exporter.stop();
  }
}

if (!ensureGc()) await main();
