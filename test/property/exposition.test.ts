import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import type { Sample } from '../../src/model.js';
import { escapeLabelValue } from '../../src/metrics/render.js';
import { nastyNumber, nastyString, renderRoundTrip } from '../helpers/answer-mutations.js';
import { parseExposition } from '../helpers/exposition-parser.js';
import { HAS_PROMTOOL, promtoolCheck } from '../helpers/promtool.js';

const NUM_RUNS = 200;

/** Gauges with one label besides `target`, where collectors put strings taken from node answers. */
const LABELLED = DESCRIPTORS.filter((d) => d.type === 'gauge' && d.labels.length >= 2 && d.labels[0] === 'target');

const labelValue = fc.oneof(nastyString, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 10 }));
const sampleValue = fc.oneof(nastyNumber, fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));

const generatedSamples: fc.Arbitrary<Sample[]> = fc
  .uniqueArray(
    fc.tuple(fc.constantFrom(...LABELLED), fc.array(labelValue, { minLength: 8, maxLength: 8 }), sampleValue),
    // One series per (family, labels): the exposition must not carry duplicates.
    { selector: ([d, vs]) => JSON.stringify([d.name, vs.slice(0, d.labels.length - 1)]), maxLength: 12 },
  )
  .map((rows) =>
    rows.map(([d, vs, value]) => ({
      name: d.name,
      labels: Object.fromEntries(d.labels.slice(1).map((l, i) => [l, vs[i]!])),
      value,
    })),
  );

describe('exposition parser (the checker the fault and property tests rely on)', () => {
  it('accepts a well-formed exposition and unescapes label values', () => {
    const p = parseExposition(
      '# HELP a_total x\\\\y\\nz\n# TYPE a_total counter\na_total{l="q\\"b\\\\s\\nn",m="é😀"} 1\n' +
        '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3\nh_count 2\n' +
        '# TYPE s summary\ns{quantile="0.5"} NaN\ns_sum 0\ns_count 0\nuntyped_one -Inf\n',
    );
    expect(p.families.get('a_total')!.help).toBe('x\\y\nz');
    expect(p.samples[0]!.labels).toEqual({ l: 'q"b\\s\nn', m: 'é😀' });
    expect(p.samples).toHaveLength(9);
  });

  it.each([
    ['unescaped quote', 'a{l="x"y"} 1\n'],
    ['raw newline in a value', 'a{l="x\ny"} 1\n'],
    ['unknown escape', 'a{l="\\t"} 1\n'],
    ['unterminated value', 'a{l="x} 1\n'],
    ['bad metric name', '1a 1\n'],
    ['bad label name', 'a{1l="x"} 1\n'],
    ['duplicate label', 'a{l="x",l="y"} 1\n'],
    ['bad value', 'a 1,5\n'],
    ['missing newline at the end', 'a 1'],
    ['duplicate series', 'a{l="x"} 1\na{l="x"} 2\n'],
    ['family split in two groups', 'a 1\nb 1\na{l="x"} 1\n'],
    ['TYPE after samples', 'a 1\n# TYPE a gauge\n'],
    ['two TYPE lines', '# TYPE a gauge\n# TYPE a gauge\na 1\n'],
    ['histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\n'],
    ['histogram buckets decreasing', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n'],
    ['histogram +Inf != count', '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_count 2\n'],
    ['summary sample without quantile', '# TYPE s summary\ns 1\n'],
  ])('rejects: %s', (_what, text) => {
    expect(() => parseExposition(text)).toThrow();
  });

  it('property: escapeLabelValue then the parser gives the value back', () => {
    fc.assert(
      fc.property(labelValue, (v) => {
        const p = parseExposition(`a{l="${escapeLabelValue(v)}"} 1\n`);
        expect(p.samples[0]!.labels['l']).toBe(v);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('property: any label value and any value render to a valid exposition', () => {
  it('quotes, backslashes, newlines, non-ASCII and lone surrogates round-trip through the UTF-8 bytes', () => {
    fc.assert(
      fc.property(generatedSamples, (samples) => {
        renderRoundTrip(samples);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it.skipIf(!HAS_PROMTOOL && !process.env['CI'])('promtool check metrics accepts a handful of generated expositions', () => {
    const texts = fc.sample(generatedSamples.filter((s) => s.length > 3), { numRuns: 6, seed: 42 }).map((s) => renderRoundTrip(s));
    // One with every nasty label at once.
    texts.push(renderRoundTrip(LABELLED.slice(0, 8).map((d, i) => ({ name: d.name, labels: Object.fromEntries(d.labels.slice(1).map((l) => [l, `"\\\n${i}é😀\ud800`])), value: i }))));
    for (const t of texts) expect(promtoolCheck(t)).toBe('ok');
  });
});
