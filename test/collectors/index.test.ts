import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';

describe('COLLECTORS', () => {
  it('default: the collectors in order, with their intervals', () => {
    expect(COLLECTORS.map((c) => [c.name, c.interval, c.nodeSpecific])).toEqual([
      ['node-info', 60, false],
      ['health', 30, true],
      ['info-is-bootstrapped', 30, false],
      ['info-peers', 15, false],
      ['info-uptime', 60, true],
      ['platform-validators', 15, false],
      ['platform-validators-full', 300, false],
      ['chain-height', 15, false],
      ['index-last-accepted', 30, false],
      ['info-upgrades', 300, false],
      ['info-acps', 300, false],
      ['platform-validator-fee', 60, false],
      ['validator-rewards', 300, false],
      ['network-economics', 60, false],
      ['node-metrics', 60, true],
    ]);
  });
  it('behavior: every collector owns at least one metric family', () => {
    const owners = new Set(DESCRIPTORS.map((d) => d.collector));
    for (const c of COLLECTORS) expect(owners.has(c.name), c.name).toBe(true);
  });
  it('behavior: intervals are multiples of the 15 s base cycle', () => {
    for (const c of COLLECTORS) expect(c.interval % 15).toBe(0);
  });
});
