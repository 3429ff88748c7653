// src/duration.ts: the one duration grammar (Prometheus' model.ParseDuration without y and w) and its
// formatter, which every flag, YAML key, HELP text and generated file goes through.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/duration.js';

describe('durations', () => {
  it('default: Prometheus durations and plain seconds parse to seconds', () => {
    const cases: [string | number, number][] = [
      ['15s', 15], ['500ms', 0.5], ['1m30s', 90], ['1h', 3600], ['7d', 604_800], ['1d2h3m4s5ms', 93_784.005],
      ['5m', 300], ['5ms', 0.005], ['0s', 0], ['15', 15], ['0.5', 0.5], [' 2m ', 120], [30, 30], [0, 0],
    ];
    for (const [input, seconds] of cases) expect(parseDuration(input), JSON.stringify(input)).toBe(seconds);
  });

  it('default: what Prometheus refuses is refused (undefined), never read as something else', () => {
    for (const bad of ['', ' ', '30s1m', '1m1m', '1.5h', '-5s', '1w', '1y', 's', '10 s', '1h 30m', 'ms', '+5s', '5S']) expect(parseDuration(bad), JSON.stringify(bad)).toBeUndefined();
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, ['15s']]) expect(parseDuration(bad), String(bad)).toBeUndefined();
  });

  it('default: weeks and years only where asked (PromQL windows, the backtest), plain seconds refusable', () => {
    for (const x of ['1w', '2y', '1y2w3d']) expect(parseDuration(x), x).toBeUndefined();
    expect(parseDuration('1w', { weeksAndYears: true })).toBe(604_800);
    expect(parseDuration('1y2w3d', { weeksAndYears: true })).toBe((365 + 14 + 3) * 86_400);
    expect(parseDuration('2w1y', { weeksAndYears: true })).toBeUndefined();
    expect(parseDuration('15', { plainSeconds: false })).toBeUndefined();
    expect(parseDuration('0', { plainSeconds: false })).toBe(0);
    expect(parseDuration('15s', { plainSeconds: false })).toBe(15);
    // a week formats in days: no interval of ours is written in weeks
    expect(formatDuration(604_800)).toBe('7d');
  });

  it('default: seconds format as Prometheus writes them, largest unit first', () => {
    const cases: [number, string][] = [[600, '10m'], [5400, '1h30m'], [86_400, '1d'], [0.5, '500ms'], [0, '0s'], [-3, '0s'], [15, '15s'], [93_784.005, '1d2h3m4s5ms'], [604_800, '7d']];
    for (const [seconds, text] of cases) expect(formatDuration(seconds), String(seconds)).toBe(text);
  });

  it('property: formatting then parsing gives the same seconds back (whole milliseconds, 0 to 30 days)', () => {
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31; // a fixed LCG: the same 2,000 values every run
      const seconds = (x % (30 * 86_400_000)) / 1000;
      expect(parseDuration(formatDuration(seconds)), String(seconds)).toBe(seconds);
    }
  });
});
