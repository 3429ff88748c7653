// Decoding the big answers (issue 21 point 3): JSON.parse alone (the floor), JSON.parse + the zod
// schema, JSON.parse + the lean reader (src/schemas/lean.ts), for the full primary-network validator
// list (platform.getCurrentValidators without nodeIDs) and info.peers of a mainnet-scale simulated node
// (1,500 validators, 1,700 peers), and the health report (small: zod only, to show it needs no reader).
//
//   npm run build && node bench/decode.js [--quick]
//
// The answers come from the simulator (in this process, on 127.0.0.1, closed after), or from the node
// URL bench/run.js passes (row 2: `decodeRows({ row, say, quick, nodeUrl })`). Each (answer, decoder)
// pair is measured in a fresh child process: its first run is the cold one (code
// not optimised yet, CB58 cache empty, as in the exporter's first cycle), then at least 30 warm runs,
// in batches alternating with JSON.parse alone of the same bytes, so that "× JSON.parse" compares p50s
// taken under the same machine load. Target: lean + parse ≤ 3 × JSON.parse of the same bytes (p50).
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmtBytes, fmtMs, machineLine, quantile } from './lib.js';

const SELF = fileURLToPath(import.meta.url);
const TARGET_RATIO = 3;

/** The answers measured: how to ask for them, and the schema and reader of each. */
const ANSWERS = [
  { key: 'validators', what: 'platform.getCurrentValidators (full list)', path: '/ext/bc/P', method: 'platform.getCurrentValidators', module: 'platform.js', zod: 'PlatformGetCurrentValidatorsResult', lean: 'PlatformGetCurrentValidatorsLean', count: (r) => r.validators.length, unit: 'validators' },
  { key: 'peers', what: 'info.peers', path: '/ext/info', method: 'info.peers', module: 'info.js', zod: 'InfoPeersResult', lean: 'InfoPeersLean', count: (r) => r.peers.length, unit: 'peers' },
  { key: 'health', what: 'GET /ext/health', path: '/ext/health', get: true, module: 'health.js', zod: 'HealthReport', lean: undefined, count: (r) => Object.keys(r.checks).length, unit: 'checks' },
];

async function fetchAnswer(base, a) {
  const res = a.get
    ? await fetch(base + a.path)
    : await fetch(base + a.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: a.method, params: {} }) });
  const text = await res.text();
  if (!a.get && res.status !== 200) throw new Error(`${a.method}: HTTP ${res.status}`);
  return text;
}

/** The bodies of every answer: from `nodeUrl`, or from a simulated node started (and closed) here. */
async function answerBodies(nodeUrl) {
  let sim;
  let base = nodeUrl;
  if (!base) {
    const { startSimNode } = await import('@avalanche-exporter/simulated-node');
    sim = await startSimNode({ host: '127.0.0.1', validators: 1500, peers: 1700 });
    base = sim.url;
  }
  try {
    // The health report once its checks ran (503 with "not yet run" checks before that).
    for (let i = 0; i < 100 && (await fetch(`${base}/ext/health`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
    const bodies = {};
    for (const a of ANSWERS) bodies[a.key] = await fetchAnswer(base, a);
    return bodies;
  } finally {
    await sim?.close();
  }
}

/** One (answer, decoder) pair in a fresh process: { cold, warm: [ms], count }. */
function measureInChild(answer, decoder, body, runs) {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--decode-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let done = false;
    child.once('message', (m) => {
      done = true;
      if (m.error) reject(new Error(`${answer.key}/${decoder}: ${m.error}`));
      else resolve(m);
    });
    child.once('exit', (code) => {
      if (!done) reject(new Error(`${answer.key}/${decoder}: child exited with ${code}`));
    });
    child.send({ key: answer.key, decoder, body, runs });
  });
}

/**
 * In the child: decode `body` once cold, then `runs` times warm, in batches of BATCH alternating with
 * as many JSON.parse alone of the same body (the floor under the same machine load: this 2-core
 * machine is shared, and its load moves). Within a batch the garbage of one run is collected during
 * the next ones, as it falls; the first run of a batch may pay for the other batch's garbage, which the
 * p50 leaves out.
 */
const BATCH = 5;
async function childMain() {
  process.once('message', async ({ key, decoder, body, runs }) => {
    try {
      const a = ANSWERS.find((x) => x.key === key);
      const mod = await import(`../dist/schemas/${a.module}`);
      const schema = decoder === 'zod' ? mod[a.zod] : decoder === 'lean' ? mod[a.lean] : undefined;
      const parse = () => {
        const v = JSON.parse(body);
        return a.get ? v : v.result;
      };
      const decode =
        decoder === 'parse'
          ? parse
          : () => {
              const r = schema.safeParse(parse());
              if (!r.success) throw new Error(`rejected the simulator's answer: ${JSON.stringify(r.error.issues.slice(0, 3)).slice(0, 300)}`);
              return r.data;
            };
      const time = (f) => {
        const t = performance.now();
        f();
        return performance.now() - t;
      };
      let t = performance.now();
      const first = decode();
      const cold = performance.now() - t;
      const warm = [];
      const floor = [];
      while (warm.length < runs) {
        for (let i = 0; i < BATCH; i++) floor.push(time(parse));
        for (let i = 0; i < BATCH; i++) warm.push(time(decode));
      }
      process.send({ cold, warm, floor, count: a.count(first) }, () => process.exit(0));
    } catch (err) {
      process.send({ error: String(err?.stack ?? err) }, () => process.exit(1));
    }
  });
}

/**
 * Measures every answer with every decoder and adds the rows (bench/run.js `row`). Returns the figures:
 * { [answer]: { bytes, count, parse|zod|lean: { p50, floor, ratio, cold, runs } } }.
 */
export async function decodeRows({ row, say = () => {}, quick = false, nodeUrl } = {}) {
  const runs = quick ? 30 : 50;
  say(`decoding the big answers: JSON.parse, + zod, + lean reader (a fresh process each, cold + ${runs} warm runs)`);
  const bodies = await answerBodies(nodeUrl);
  const out = {};
  for (const a of ANSWERS) {
    const body = bodies[a.key];
    const f = { bytes: Buffer.byteLength(body) };
    for (const decoder of ['parse', 'zod', ...(a.lean ? ['lean'] : [])]) {
      const m = await measureInChild(a, decoder, body, runs);
      const p50 = (x) => quantile(x, 0.5);
      f.count = m.count;
      f[decoder] = { p50: p50(m.warm), floor: p50(m.floor), ratio: p50(m.warm) / p50(m.floor), cold: m.cold, runs: m.warm.length };
    }
    out[a.key] = f;
    const what = `${a.what}, ${fmtBytes(f.bytes)}, ${f.count.toLocaleString('en-US')} ${a.unit}`;
    const figures = (d) =>
      d === 'parse'
        ? `p50 ${fmtMs(f[d].p50)} ms; cold ${fmtMs(f[d].cold)} ms (${f[d].runs} warm runs)`
        : `p50 ${fmtMs(f[d].p50)} ms = ${f[d].ratio.toFixed(1)} × JSON.parse (p50 ${fmtMs(f[d].floor)} ms alongside); cold ${fmtMs(f[d].cold)} ms`;
    row(`2. decode ${what}: JSON.parse alone`, figures('parse'), '— (the floor)', undefined, null);
    row(`2. decode ${what}: JSON.parse + zod schema`, figures('zod'), a.lean ? '—' : '— (small: no lean reader)', undefined, null);
    if (a.lean) row(`2. decode ${what}: JSON.parse + lean reader`, figures('lean'), `≤ ${TARGET_RATIO} × JSON.parse (p50)`, undefined, f.lean.ratio <= TARGET_RATIO);
  }
  return out;
}

async function main() {
  const started = performance.now();
  const rows = [];
  const row = (figure, measured, target, _series, ok) => rows.push({ figure, measured, target, ok });
  const say = (s) => process.stderr.write(`[decode ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${s}\n`);
  await decodeRows({ row, say, quick: process.argv.includes('--quick') });
  const lines = [
    `Machine: ${machineLine()}`,
    `Command: node bench/decode.js${process.argv.slice(2).map((a) => ` ${a}`).join('')}, ${new Date().toISOString().slice(0, 19)}Z, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    '',
    '| figure | measured | target | ok? |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.measured} | ${r.target} | ${r.ok === null ? '—' : r.ok ? 'yes' : '**no**'} |`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

if (process.argv[2] === '--decode-child') await childMain();
else if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) await main();
