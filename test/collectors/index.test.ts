import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';

describe('COLLECTORS', () => {
  it('default: the collectors in order, with their intervals', () => {
    expect(COLLECTORS.map((c) => [c.name, c.interval, c.nodeSpecific])).toEqual([
      ['node-info', 60, false],
      ['health', 15, true],
      ['info-is-bootstrapped', 60, false],
      ['info-peers', 30, false],
      ['info-uptime', 60, true],
      ['platform-validators', 15, false],
      ['platform-validators-full', 300, false],
      ['chain-height', 15, false],
      ['index-last-accepted', 60, false],
      ['info-upgrades', 300, false],
      ['info-acps', 300, false],
      ['platform-validator-fee', 60, false],
      ['validator-rewards', 300, false],
      ['network-economics', 300, false],
      ['node-metrics', 60, true],
      ['subnet-chains', 300, false],
      ['admin-logger', 300, true],
      ['node-ip', 300, true],
    ]);
  });
  it('behavior: every collector owns at least one metric family, or publishes a value another one exports', () => {
    const owners = new Set(DESCRIPTORS.map((d) => d.collector));
    // node-ip: its address is the ip label of node-info's avax_node_info (node-info reads it).
    const valueOnly = new Set(COLLECTORS.filter((c) => COLLECTORS.some((o) => o.readsLatest.includes(c.name) || o.reads.includes(c.name))).map((c) => c.name));
    for (const c of COLLECTORS) expect(owners.has(c.name) || (c.metrics.length === 0 && valueOnly.has(c.name)), c.name).toBe(true);
    expect(COLLECTORS.filter((c) => !owners.has(c.name)).map((c) => c.name)).toEqual(['node-ip']);
  });
  it('behavior: intervals are multiples of the 15 s base cycle', () => {
    for (const c of COLLECTORS) expect(c.interval % 15).toBe(0);
  });
});
