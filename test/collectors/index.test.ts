import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLS, COLLECTORS, COLLECTOR_BY_NAME, schemaOfMethod } from '../../src/collectors/index.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';

const DIR = resolve(import.meta.dirname, '../../src/collectors');

// Each collector's interval, node-specific mark and order are its declaration's; the collectors table of
// docs/configuration.md (checked against them in test/metrics/contract.test.ts) is where they are written down.
describe('COLLECTORS', () => {
  it('default: every module that defines a collector is listed, once (the only list)', () => {
    const modules = readdirSync(DIR)
      .filter((f) => f.endsWith('.ts') && /\bdefineCollector\(/.test(readFileSync(resolve(DIR, f), 'utf8')) && f !== 'define.ts')
      .map((f) => f.slice(0, -'.ts'.length));
    const names = COLLECTORS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(modules.sort());
    expect([...COLLECTOR_BY_NAME.keys()]).toEqual(names);
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

describe('CALLS and schemaOfMethod', () => {
  it('default: every declared call, each with the collector that declares it', () => {
    expect(CALLS.map((x) => x.call)).toEqual(COLLECTORS.flatMap((c) => c.calls));
    for (const { collector, call } of CALLS) expect(COLLECTOR_BY_NAME.get(collector)!.calls).toContain(call);
  });
  it("default: a method's schema is its calls' (the same reader wherever a method is declared twice); a text call has none", () => {
    for (const { call } of CALLS) {
      if (call.kind === 'text') expect(schemaOfMethod(call.method), call.method).toBeUndefined();
      else expect(schemaOfMethod(call.method), call.method).toBe(call.result);
    }
    expect(schemaOfMethod('info.noSuchMethod')).toBeUndefined();
  });
});
