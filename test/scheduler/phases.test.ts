import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { defaultOptions } from '../../src/collectors/define.js';
import { assignPhases } from '../../src/scheduler/phases.js';

const spec = { name: 't', reference: false, validatorNodeIds: [], subnets: [], chains: [] };

function perTick(items: { slot: { every: number; phase: number }; weight: number }[], ticks: number): number[] {
  return Array.from({ length: ticks }, (_, t) => items.filter((i) => t === 0 || (t >= i.slot.every && t % i.slot.every === i.slot.phase)).reduce((a, i) => a + i.weight, 0));
}

describe('assignPhases', () => {
  it('default: with the default intervals no cycle after start-up asks the node more than 12 times', () => {
    const items = COLLECTORS.map((c) => ({ slot: { every: c.interval / 15, phase: 0 }, weight: c.requestsPerRun(spec, defaultOptions(c.options)) }));
    assignPhases(items);
    const load = perTick(items, 240); // one hour of 15 s cycles
    expect(load[0]).toBe(items.reduce((a, i) => a + i.weight, 0)); // start-up runs everything
    expect(Math.max(...load.slice(1))).toBeLessThanOrEqual(12);
    // each collector still runs exactly once per interval
    // and never twice within its interval
    for (const i of items) {
      const runs = Array.from({ length: 240 }, (_, t) => t).filter((t) => t === 0 || (t >= i.slot.every && t % i.slot.every === i.slot.phase));
      const gaps = runs.slice(1).map((t, k) => t - runs[k]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(i.slot.every);
    }
  });

  it('behavior: without spreading the same intervals would burst', () => {
    const items = COLLECTORS.map((c) => ({ slot: { every: c.interval / 15, phase: 0 }, weight: c.requestsPerRun(spec, defaultOptions(c.options)) }));
    expect(Math.max(...perTick(items, 240).slice(1))).toBeGreaterThan(12);
  });

  it('behavior: phases stay within the period', () => {
    const items = [4, 4, 4, 4, 2, 20].map((every, k) => ({ slot: { every, phase: -1 }, weight: k + 1 }));
    assignPhases(items);
    for (const i of items) {
      expect(i.slot.phase).toBeGreaterThanOrEqual(0);
      expect(i.slot.phase).toBeLessThan(i.slot.every);
    }
    // the 60 s collectors do not pile onto one cycle: the busiest cycle is lighter than all at once
    const spread = Math.max(...perTick(items, 20).slice(1));
    const piled = Math.max(...perTick(items.map((i) => ({ ...i, slot: { every: i.slot.every, phase: 0 } })), 20).slice(1));
    expect(spread).toBeLessThan(piled);
  });
});
