/**
 * Fuzzing the /ext/metrics reader and picker: any text (random bytes, mutated lines of the real
 * capture, every known native name with hostile labels and values, split anywhere) never throws and
 * never yields a series outside the curated set, with label values from the bounded sets only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_METRICS_FAMILIES, pickFromText } from '../../src/collectors/node-metrics.js';
import { SignalIndex } from '../../src/collectors/node-metrics-pick.js';
import { NODE_SIGNALS } from '../../src/collectors/node-metrics-signals.js';
import { PrometheusTextReader } from '../../src/collectors/prometheus-text.js';
import type { Sample } from '../../src/model.js';

const CAPTURE = readFileSync(fileURLToPath(new URL('../fixtures/real-node-v1.14.2/ext-metrics-v1.14.2.txt', import.meta.url)), 'utf8');
const CAPTURE_LINES = CAPTURE.split('\n');
const WATCHED = '2Y3yGzJ9nB1DxuUgWL87W3HuXpM3AHcWqiUVsJkWNFvqRgDj5n';
const INDEX = new SignalIndex([WATCHED]);
const NATIVE_NAMES = INDEX.names();
const FAMILY = new Map(NODE_METRICS_FAMILIES.map((f) => [f.name, f]));
const SIGNAL = new Map(NODE_SIGNALS.map((s) => [s.name, s]));
const CHAINS = new Set(['P', 'X', 'C', WATCHED]);

/** Throws unless every sample is one of the curated series with bounded label values. */
function assertCurated(samples: readonly Sample[]): void {
  for (const s of samples) {
    const base = FAMILY.has(s.name) ? s.name : s.name.replace(/_(bucket|sum|count)$/, '');
    const f = FAMILY.get(base);
    if (!f) throw new Error(`outside the curated set: ${s.name}`);
    if (base !== s.name && f.type !== 'histogram' && f.type !== 'summary') throw new Error(`suffix on a ${f.type}: ${s.name}`);
    const keys = Object.keys(s.labels).filter((k) => !(k === 'le' && s.name.endsWith('_bucket')));
    expect(keys.sort()).toEqual([...f.labels].sort());
    const sig = SIGNAL.get(base);
    const chain = s.labels['chain'];
    if (chain !== undefined && !CHAINS.has(chain) && !(chain === 'all' && sig?.extraMap)) throw new Error(`unbounded chain ${chain} on ${s.name}`);
    if (sig?.extra) expect(sig.extraValues).toContain(s.labels[sig.extra]);
    if (s.name === 'avax_node_metrics_scheme') expect(['v1.10.0', 'v1.11.6', 'v1.11.8', 'unknown']).toContain(s.labels['scheme']);
    if (Number.isNaN(s.value)) throw new Error(`NaN on ${s.name}`);
  }
}

const labelValue = fc.oneof(fc.constantFrom('P', 'X', 'C', 'all', WATCHED, 'get', 'put', 'sent', 'received', 'sync', 'health', 'early_fail', 'le', '+Inf', '1e+09', ''), fc.string({ maxLength: 12 }));
const labelName = fc.oneof(fc.constantFrom('chain', 'op', 'io', 'method', 'check', 'tag', 'level', 'reason', 'le', 'compressed'), fc.string({ maxLength: 6 }));
const value = fc.oneof(fc.constantFrom('0', '1', '-1', '+Inf', '-Inf', 'NaN', '1e+308', '1.5e-9', '1e999', 'x', ''), fc.double().map(String), fc.string({ maxLength: 6 }));
const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
/** A line of a known native name with random labels (escaped or not) and value. */
const knownLine = fc
  .tuple(fc.constantFrom(...NATIVE_NAMES), fc.array(fc.tuple(labelName, labelValue, fc.boolean()), { maxLength: 4 }), value, fc.boolean())
  .map(([n, labels, v, braces]) => {
    const body = labels.map(([k, lv, esc]) => `${k}="${esc ? escape(lv) : lv}"`).join(',');
    return `${n}${braces || body ? `{${body}}` : ''} ${v}`;
  });
/** A line of the real capture, cut, doubled or with a character replaced. */
const mutatedLine = fc.tuple(fc.constantFrom(...CAPTURE_LINES), fc.nat(), fc.constantFrom('cut', 'dup', 'char')).map(([l, n, how]) => {
  const at = l.length ? n % l.length : 0;
  if (how === 'cut') return l.slice(0, at);
  if (how === 'dup') return l + l;
  return l.slice(0, at) + '{"\\ \t=,}'[n % 9] + l.slice(at + 1);
});
const body = fc.array(fc.oneof(knownLine, mutatedLine, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 60 }).map((ls) => ls.join('\n'));

describe('node-metrics property: any /ext/metrics text', () => {
  it('property: never throws, never yields a series outside the curated set or an unbounded label value', () => {
    fc.assert(
      fc.property(body, (text) => {
        const r = pickFromText(text, [WATCHED], undefined, INDEX);
        assertCurated(r.samples);
      }),
      { numRuns: 400, seed: 1515 },
    );
  });
  it('property: the result does not depend on where the body is split into chunks', () => {
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const whole = pickFromText(text, [WATCHED], undefined, INDEX);
        const points = [...new Set(cuts.map((c) => (text.length ? c % text.length : 0)))].sort((a, b) => a - b);
        const got: string[] = [];
        const r = new PrometheusTextReader(INDEX.has.bind(INDEX), (n, l, v) => got.push(`${n}${JSON.stringify(l)}${v}`));
        let prev = 0;
        for (const p of [...points, text.length]) {
          r.push(text.slice(prev, p));
          prev = p;
        }
        r.end();
        const want: string[] = [];
        const r2 = new PrometheusTextReader(INDEX.has.bind(INDEX), (n, l, v) => want.push(`${n}${JSON.stringify(l)}${v}`));
        r2.push(text);
        r2.end();
        expect(got).toEqual(want);
        assertCurated(whole.samples);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
  it('behavior: the real capture with every line mutated once still reads the intact lines', () => {
    const broken = CAPTURE_LINES.map((l, i) => (i % 2 === 0 && l.startsWith('avalanche_') ? l.replace(/ (\S+)$/, ' not-a-number') : l)).join('\n');
    const r = pickFromText(broken, [], undefined);
    assertCurated(r.samples);
    expect(r.stats.malformed).toBeGreaterThan(0);
    expect(r.samples.length).toBeGreaterThan(0);
    expect(r.samples.length).toBeLessThan(pickFromText(CAPTURE).samples.length);
  });
  it('behavior: an overlong line is skipped, not kept whole in memory, and the next line is read', () => {
    const r = new PrometheusTextReader(() => true, () => {});
    const big = 'avalanche_network_peers{x="' + 'a'.repeat(70_000);
    for (let i = 0; i < big.length; i += 10_000) r.push(big.slice(i, i + 10_000));
    r.push('"} 1\navalanche_network_peers 3\n');
    const stats = r.end();
    expect(stats.kept).toBe(1);
    expect(stats.malformed).toBe(1);
  });
});
