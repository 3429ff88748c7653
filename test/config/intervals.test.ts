// The interval rule, written once (src/config/intervals.ts, issue 44): which base intervals a clock can
// run, which collector intervals a user may set, and how many cycles a collector's interval spans.
import { describe, expect, it } from 'vitest';
import { cyclesOf, isBaseInterval, isWholeCycles } from '../../src/config/intervals.js';

describe('the interval rule', () => {
  it('default: a base interval divides a minute or an hour', () => {
    expect([1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 900, 1800].filter((s) => !isBaseInterval(s))).toEqual([]);
    expect([0, 7, 45, 90, 150, 3600, 0.5, -15].filter((s) => isBaseInterval(s))).toEqual([]);
  });

  it('default: a user may set a whole number of cycles, one at least', () => {
    expect(isWholeCycles(30, 15)).toBe(true);
    expect(isWholeCycles(15, 15)).toBe(true);
    expect(isWholeCycles(0.3 * 100, 10)).toBe(true); // 30.000000000000004 s: the float error is not a refusal
    expect(isWholeCycles(20, 15)).toBe(false);
    expect(isWholeCycles(10, 15)).toBe(false);
  });

  it('default: cycles round up, one at least (a 15 s default under a 10 s base runs every 2 cycles)', () => {
    expect(cyclesOf(15, 10)).toBe(2);
    expect(cyclesOf(60, 15)).toBe(4);
    expect(cyclesOf(5, 15)).toBe(1);
    expect(cyclesOf(0.3 * 100, 10)).toBe(3);
  });
});
