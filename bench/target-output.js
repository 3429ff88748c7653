// node bench/target-output.js: what a target's user labels and metric selection cost when its segment
// is rendered (issue 27, item 7). The samples of one target are those of the golden exposition (a
// healthy mainnet-scale node, test/golden/metrics.txt); each round renders them into 1,000 targets'
// segments (new TargetSegment per target, as the publisher does after each cycle) plain, with 3 user
// labels, and with 3 labels and a drop of the request-latency histogram. Prints the median of 15
// rounds after 3 warm-up rounds (the cases take turns in each round), and the bytes of the 1,000 segments. Needs `npm run build`.
import { readFileSync } from 'node:fs';
import { DESCRIPTOR_INDEX } from '../dist/metrics/descriptors.js';
import { TargetSegment } from '../dist/metrics/exposition.js';
import { TargetOutputs } from '../dist/metrics/target-output.js';

const TARGETS = 1000;
const ROUNDS = 15;

/** The golden file's samples, as the runner hands them to the segment (labels parsed back). */
function goldenSamples() {
  const out = [];
  for (const line of readFileSync(new URL('../test/golden/metrics.txt', import.meta.url), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || !m[1].startsWith('avax_') || m[1] === 'avax_exporter_build_info') continue;
    const labels = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const base = goldenSamples();
const perTarget = Array.from({ length: TARGETS }, (_, i) => base.map((s) => ({ ...s, labels: { ...s.labels, target: `t${i}` } })));
const spec = (i, over) => ({ name: `t${i}`, reference: false, validatorNodeIds: [], subnets: [], chains: [], ...over });
const LABELS = { operator: 'acme', region: 'eu-west', customer: 'x' };
const cases = [
  ['plain', () => ({})],
  ['3 user labels', () => ({ labels: LABELS })],
  ['3 labels + drop avax_rpc_request_duration_seconds', () => ({ labels: LABELS, metrics: { keep: [], drop: ['avax_rpc_request_duration_seconds'] } })],
  // What pre-rendering saves: the same 3 labels merged into every sample's labels, then rendered plain.
  ['3 labels merged into each sample (not how it is done)', () => ({}), (samples) => samples.map((s) => ({ ...s, labels: { ...s.labels, ...LABELS } }))],
];

// The cases take turns within each round, so that each median is taken under the same machine load.
const state = cases.map(([name, over, perSample = (x) => x]) => ({
  name,
  perSample,
  outputs: new TargetOutputs(DESCRIPTOR_INDEX),
  specs: perTarget.map((_, i) => spec(i, over())),
  times: [],
  bytes: 0,
  series: 0,
}));
for (let r = 0; r < ROUNDS + 3; r++) {
  for (const c of state) {
    const t0 = performance.now();
    let b = 0;
    let n = 0;
    for (let i = 0; i < TARGETS; i++) {
      const seg = new TargetSegment(c.perSample(perTarget[i]), DESCRIPTOR_INDEX, c.outputs.of(c.specs[i]));
      for (const chunk of seg.chunks.values()) b += chunk.length;
      n += seg.seriesCount;
    }
    if (r >= 3) c.times.push(performance.now() - t0);
    c.bytes = b;
    c.series = n;
  }
}
const rows = state.map((c) => {
  const median = c.times.sort((a, b) => a - b)[Math.floor(c.times.length / 2)];
  return `| ${c.name} | ${c.series.toLocaleString('en')} | ${(c.bytes / 1e6).toFixed(1)} MB | ${median.toFixed(0)} ms | ${(median / TARGETS).toFixed(3)} ms |`;
});
console.log(`${base.length} samples per target (test/golden/metrics.txt), ${TARGETS} targets, median of ${ROUNDS} rounds, Node ${process.version}\n`);
console.log('| segments | series | bytes | 1,000 segments | per target |\n|---|---|---|---|---|');
for (const r of rows) console.log(r);
