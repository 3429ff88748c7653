// npm run soak: the exporter against the simulator for many cycles with churn (issue 6, Soak).
//
//   node bench/soak.js [--cycles N] [--targets K] [--switch-every C] [--max-minutes M]
//
// Defaults: 10,000 cycles, 3 targets, at most 45 minutes. The simulator (mainnet scale: 1,500
// validators, 1,700 peers per node) runs in a child process; its clock moves 15 s per cycle, so
// peers come and go, validators' periods roll over, peer versions change and chain heights grow.
// Every 10 cycles (--switch-every) one of the nodes 1..K-1 switches to its next scenario of a rotation (health
// checks flip, answers turn into errors, garbage or refused connections, then recover); node 0
// stays healthy. The exporter runs with its real scheduler (concurrency bound, shutdown signal);
// cycles are driven with collectOnce().
//
// Printed: series count min/max (first and second half), heap and RSS over the second half with
// the drift, active handles by type and timers at start and at end. Exit code 1 when the series
// count grows in the second half, handles grow, or the heap trend exceeds a generous bound.
import os from 'node:os';
import {
  MB,
  countingLogger,
  ensureGc,
  fleetConfig,
  fmtHandles,
  fmtMB,
  fmtSignedMB,
  gc,
  handleCounts,
  machineLine,
  mean,
  slope,
  startSimChild,
  targetName,
  SOAK_ROTATION as ROTATION,
} from './lib.js';


function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && process.argv[i + 1] !== undefined) return Number(process.argv[i + 1]);
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq ? Number(eq.slice(name.length + 3)) : def;
}

if (!ensureGc()) await main();

async function main() {
  const cycles = arg('cycles', 10_000);
  const K = Math.max(2, arg('targets', 3));
  const maxMs = arg('max-minutes', 45) * 60_000;
  if (!Number.isInteger(cycles) || cycles < 8) throw new Error('--cycles must be an integer ≥ 8');
  const started = performance.now();
  const say = (s) => process.stderr.write(`[soak ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

  say(`simulator: ${K} nodes × (1,500 validators, 1,700 peers)`);
  const sim = await startSimChild({ nodes: K, validators: 1500, peers: 1700 });
  const { startExporter } = await import('../dist/main.js');
  const log = countingLogger('warn');
  const targets = Array.from({ length: K }, (_, i) => ({ name: targetName(i), url: sim.nodeUrl(i) }));
  const exporter = await startExporter({ config: fleetConfig(targets), logger: log.logger, schedule: true });

  const series = [];
  const mem = [];
  const cycleMs = [];
  let handlesStart;
  let rot = 0;
  const pos = new Array(K).fill(0);
  const switchEvery = Math.max(1, arg('switch-every', 10));
  // Cycles until every node 1..K-1 has been through every scenario once.
  const fullRotation = switchEvery * (K - 1) * ROTATION.length;
  const sampleEvery = Math.max(1, Math.floor(cycles / 200));
  say(`${cycles.toLocaleString('en-US')} cycles (at most ${maxMs / 60_000} min); a forced gc and a memory sample every ${sampleEvery} cycles`);
  let done = 0;
  let handlesEnd;
  try {
    for (let i = 0; i < cycles && performance.now() - started < maxMs; i++) {
      if (i > 0 && i % switchEvery === 0) {
        // Nodes 1..K-1 take turns; each walks through the whole rotation.
        const node = 1 + (Math.floor(i / switchEvery) % (K - 1));
        await sim.scenario(ROTATION[pos[node]++ % ROTATION.length], node);
        rot++;
      }
      const t0 = performance.now();
      await exporter.collectOnce();
      cycleMs.push(performance.now() - t0);
      series.push(exporter.current().seriesCount);
      await sim.advance(15_000);
      if (i === 4) {
        gc();
        handlesStart = handleCounts();
      }
      if (i % sampleEvery === 0) {
        gc();
        const m = process.memoryUsage();
        mem.push({ cycle: i, heap: m.heapUsed, rss: m.rss });
      }
      if (i > 0 && i % 1000 === 0) say(`cycle ${i}: series ${series[i]}, heap ${fmtMB(mem[mem.length - 1].heap)}, RSS ${fmtMB(mem[mem.length - 1].rss)}`);
      done = i + 1;
    }
    // Bring every node back, so the end state has the same sockets as the start.
    await sim.scenario('healthy');
    for (let i = 0; i < 3; i++) await exporter.collectOnce();
    gc();
  } finally {
    handlesEnd = handleCounts();
    await exporter.stop();
    await sim.close();
  }
  gc();
  const handlesAfterStop = handleCounts();

  const n = done;
  const half = Math.floor(n / 2);
  const first = series.slice(0, half);
  const second = series.slice(half);
  const memHalf = mem.filter((m) => m.cycle >= half);
  const xs = memHalf.map((m) => m.cycle);
  const heapDrift = slope(xs, memHalf.map((m) => m.heap)) * (n - half);
  const rssDrift = slope(xs, memHalf.map((m) => m.rss)) * (n - half);
  const q = (a, b) => mem.filter((m) => m.cycle >= a * n && m.cycle < b * n);
  const heapQ2 = mean(q(0.25, 0.5).map((m) => m.heap));
  const heapQ4 = mean(q(0.75, 1.01).map((m) => m.heap));
  const rssQ2 = mean(q(0.25, 0.5).map((m) => m.rss));
  const rssQ4 = mean(q(0.75, 1.01).map((m) => m.rss));

  const checks = [
    half >= fullRotation
      ? ['series count bounded (max of the second half ≤ max of the first half + 2 %)', Math.max(...second) <= Math.max(...first) * 1.02]
      : [`series count bounded: not judged (the first half has fewer than the ${fullRotation} cycles of one full scenario rotation)`, true],
    ['no growth of sockets (socket fds and Socket handles: end ≤ start)', handlesEnd.socketFds <= handlesStart.socketFds && (handlesEnd.byType.Socket ?? 0) <= (handlesStart.byType.Socket ?? 0)],
    ['no growth of timers (end ≤ start + 2)', handlesEnd.timers <= handlesStart.timers + 2],
    ['heap: last quarter mean ≤ second quarter mean + max(4 MB, 10 %)', heapQ4 <= heapQ2 + Math.max(4 * MB, 0.1 * heapQ2)],
  ];

  const out = [];
  out.push(`Machine: ${machineLine()}`);
  out.push(`Command: npm run soak (node --expose-gc bench/soak.js --cycles ${cycles} --targets ${K}); ${new Date().toISOString().slice(0, 19)}Z; load average ${os.loadavg()[0].toFixed(2)}`);
  out.push(`Cycles: ${n.toLocaleString('en-US')} of ${cycles.toLocaleString('en-US')}${n < cycles ? ' (time bound reached)' : ''} in ${((performance.now() - started) / 1000).toFixed(0)} s; cycle p50 ${[...cycleMs].sort((a, b) => a - b)[Math.floor(cycleMs.length / 2)].toFixed(1)} ms; simulated time ${((n * 15) / 3600).toFixed(1)} h; ${rot} scenario switches`);
  out.push(`Series count: min ${Math.min(...series)}, max ${Math.max(...series)} (first half ${Math.min(...first)}–${Math.max(...first)}, second half ${Math.min(...second)}–${Math.max(...second)})`);
  out.push(
    `Heap (after gc) over the second half: ${fmtMB(memHalf[0].heap)} → ${fmtMB(memHalf[memHalf.length - 1].heap)}, trend ${fmtSignedMB(heapDrift)}; mean of the 2nd quarter ${fmtMB(heapQ2)}, of the 4th quarter ${fmtMB(heapQ4)} (${fmtSignedMB(heapQ4 - heapQ2)})`,
  );
  out.push(
    `RSS over the second half: ${fmtMB(memHalf[0].rss)} → ${fmtMB(memHalf[memHalf.length - 1].rss)}, trend ${fmtSignedMB(rssDrift)}; mean of the 2nd quarter ${fmtMB(rssQ2)}, of the 4th quarter ${fmtMB(rssQ4)} (${fmtSignedMB(rssQ4 - rssQ2)})`,
  );
  out.push(`Handles at start (cycle 5): ${fmtHandles(handlesStart)}`);
  out.push(`Handles at end (before stop): ${fmtHandles(handlesEnd)}`);
  out.push(`Handles after stop: ${fmtHandles(handlesAfterStop)}`);
  out.push(`Log lines at warn and above: ${Object.entries(log.counts).map(([l, c]) => `level ${l}: ${c}`).join(', ') || 'none'}`);
  for (const [what, ok] of checks) out.push(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
}
