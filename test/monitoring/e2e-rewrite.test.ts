// The end-to-end test (test/e2e/prometheus.test.ts) runs the shipped rules with short durations:
// helpers/rules.ts derives them by a rule, so every duration the rules use, now or later, has one.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/monitoring/duration.js';
import { shortenRuleText, shortFor, shortWindow } from '../e2e/helpers/rules.js';
import { ROOT } from '../helpers/proc.js';

const files = readdirSync(join(ROOT, 'alerts')).filter((f) => f.endsWith('.rules.yaml'));

describe('e2e rule rewrite (test/e2e/helpers/rules.ts)', () => {
  it('default: every for: becomes 2-5 s, in the order of the shipped durations', () => {
    expect(['1m', '2m', '5m', '10m', '15m', '1h', '1d'].map((d) => shortFor(parseDuration(d)!))).toEqual([2, 2, 3, 4, 5, 5, 5]);
    const fors = [60, 120, 300, 600, 900, 1800, 3600, 86400, 7 * 86400];
    for (let i = 1; i < fors.length; i++) expect(shortFor(fors[i]!)).toBeGreaterThanOrEqual(shortFor(fors[i - 1]!));
    expect(shortFor(0)).toBe(0);
  });

  it('default: windows under an hour become 10-20 s; look-backs of an hour or more stay', () => {
    expect(['1m', '5m', '10m', '15m', '30m'].map((d) => shortWindow(parseDuration(d)!))).toEqual([10, 10, 20, 20, 20]);
    for (const d of ['1h', '6h', '1d', '7d']) expect(shortWindow(parseDuration(d)!)).toBe(parseDuration(d));
  });

  it('behavior: subqueries, their steps and offsets are rewritten too; comments are not', () => {
    const { text } = shortenRuleText('  # for: 10m [5m]\n  expr: max_over_time(x[1d:5m] offset 15m) and rate(y[10m:1m]) and z[5m:]\n  for: 15m\n');
    expect(text).toBe('  # for: 10m [5m]\n  expr: max_over_time(x[1d:5m] offset 20s) and rate(y[20s:2s]) and z[10s:]\n  for: 5s\n');
  });

  it.each(files)('default: every duration of alerts/%s gets a short one (no for: left over a minute, no window under an hour left as it was)', (f) => {
    const { text } = shortenRuleText(readFileSync(join(ROOT, 'alerts', f), 'utf8'), f);
    const code = text.split('\n').filter((l) => !/^\s*#/.test(l));
    for (const l of code) {
      const fr = /^\s*for:\s*(\S+)\s*$/.exec(l);
      if (fr) expect(parseDuration(fr[1]!), l).toBeLessThanOrEqual(5);
      for (const m of l.matchAll(/\[(\w+?)(?::(\w*))?\]|offset (\w+)/g)) {
        const d = parseDuration(m[1] ?? m[3]);
        if (d === undefined) continue; // a label name in a printf, e.g. [subnet]
        expect(d <= 20 || d >= 3600, `${f}: ${l.trim()}`).toBe(true);
      }
    }
  });
});
