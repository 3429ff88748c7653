// Filtering the exposition to the families the shipped rules select cannot change a rule's result:
// a PromQL expression only reads the series its vector selectors select, and every selector of every
// rule names its metric exactly (no `__name__` regex, no selector without a name), and that name is
// kept (rules.ts metricNames, checked here against the PromQL parser). Also the exposition reader
// and the OpenMetrics writer (exposition.ts, openmetrics.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, describe, expect, it } from 'vitest';
import { keptSamples, sampleName, splitSample } from '../../backtest/src/exposition.js';
import { formatSeconds, OpenMetricsWriter } from '../../backtest/src/openmetrics.js';
import { loadRules, metricNames, ruleMetrics } from '../../backtest/src/rules.js';

const ALERTS = resolve(import.meta.dirname, '../../alerts');

/** Every vector selector of an expression: its metric name (or undefined) and whether a __name__ matcher is used. */
function selectors(src: string): { metric?: string; byName: boolean }[] {
  const out: { metric?: string; byName: boolean }[] = [];
  parser.parse(src).iterate({
    enter(ref) {
      if (ref.type.isError) throw new Error(`syntax error in ${src}`);
      if (ref.name !== 'VectorSelector') return;
      const id = ref.node.getChild('Identifier');
      const text = src.slice(ref.from, ref.to);
      out.push({ metric: id ? src.slice(id.from, id.to) : undefined, byName: /__name__/.test(text) });
    },
  });
  return out;
}

describe('rule families', () => {
  const rules = loadRules(ALERTS, 15_000);

  it('default: every selector of every shipped rule names its metric exactly, and the name is kept', () => {
    const keep = ruleMetrics(rules);
    const problems: string[] = [];
    for (const r of rules) {
      const sels = selectors(r.expr);
      // only the always-firing heartbeat reads no series
      if (r.alert === 'Watchdog') expect(sels, r.id).toEqual([]);
      else expect(sels.length, r.id).toBeGreaterThan(0);
      for (const s of sels) {
        if (!s.metric || s.byName) problems.push(`${r.id}: a selector without a plain metric name`);
        else if (!keep.has(s.metric)) problems.push(`${r.id}: ${s.metric} is not kept`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('behavior: metricNames finds names in matchers-heavy expressions and skips functions, keywords and label names', () => {
    expect(metricNames('max by (target) (avax_a{x="b{c}"}) and on(target, chain) delta(avax_b[5m]) > 0 unless absent(avax_c) or time() - avax_d > 900')).toEqual(['avax_a', 'avax_b', 'avax_c', 'avax_d']);
    expect(metricNames('sum by (subnet, node_id) (count by (target) (x_total))')).toEqual(['x_total']);
  });

  it('default: the check fails on a rule that selects by __name__ (self-test of the parser walk)', () => {
    expect(selectors('{__name__=~"avax_.*"} == 1')[0]!.byName).toBe(true);
    expect(selectors('rate(avax_x_total[5m])')[0]!.metric).toBe('avax_x_total');
  });
});

describe('exposition reader', () => {
  const text = [
    '# HELP avax_up 1 if the node answered',
    '# TYPE avax_up gauge',
    'avax_up{target="a"} 1',
    'avax_peers{target="a b",x="q\\"}{ z"} 31',
    'avax_other 5',
    'avax_chain_height{target="a",chain="C"} 71284913 1767571200000',
    '',
  ].join('\n');

  it('default: keeps the listed families byte for byte, drops comments, other families and timestamps', () => {
    expect(keptSamples(text, new Set(['avax_up', 'avax_peers', 'avax_chain_height']))).toEqual([
      'avax_up{target="a"} 1',
      'avax_peers{target="a b",x="q\\"}{ z"} 31',
      'avax_chain_height{target="a",chain="C"} 71284913',
    ]);
    expect(sampleName('# TYPE x gauge')).toBeUndefined();
    expect(splitSample('x 1.5e+21')).toEqual({ series: 'x', value: '1.5e+21' });
  });
});

describe('OpenMetrics writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-om-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('default: one file per window, timestamps in seconds, # EOF at the end, scrapes in time order only', () => {
    const w = new OpenMetricsWriter(dir, 3_600_000, 'x');
    w.scrape(7_200_000, ['a{t="1"} 1', 'b 2']);
    w.scrape(7_260_500, ['a{t="1"} 0']);
    w.scrape(10_800_000, ['a{t="1"} 1']);
    expect(() => w.scrape(10_800_000, [])).toThrow(/out of order/);
    const files = w.close();
    expect(files.map((f) => [f.fromMs, f.samples])).toEqual([[7_200_000, 3], [10_800_000, 1]]);
    expect(readFileSync(files[0]!.path, 'utf8')).toBe('a{t="1"} 1 7200\nb 2 7200\na{t="1"} 0 7260.500\n# EOF\n');
    expect(readFileSync(files[1]!.path, 'utf8')).toBe('a{t="1"} 1 10800\n# EOF\n');
    expect(formatSeconds(1_767_571_200_007)).toBe('1767571200.007');
  });
});
