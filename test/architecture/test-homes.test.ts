// One test home per unit (issue 22 point 6): every collector of COLLECTORS has its test file
// test/collectors/<name>.test.ts, every derivation of src/derive/index.ts test/derive/<name>.test.ts,
// and every test file there is named after a module of that layer (a collector, one of its own modules
// such as node-metrics-signals.ts, or the layer's index.ts): no second file under another name.
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { DERIVATIONS, FLEET_DERIVATIONS } from '../../src/derive/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const testsIn = (dir: string) => readdirSync(resolve(ROOT, 'test', dir)).filter((f) => f.endsWith('.test.ts')).map((f) => f.slice(0, -'.test.ts'.length));

describe.each([
  ['collectors', COLLECTORS.map((c) => c.name)],
  ['derive', [...DERIVATIONS, ...FLEET_DERIVATIONS].map((d) => d.name)],
])('test/%s', (layer, units) => {
  it('default: every unit has its own test file, named after it', () => {
    expect(units.filter((u) => !testsIn(layer).includes(u))).toEqual([]);
  });
  it('default: every test file is named after a module of src/' + layer, () => {
    expect(testsIn(layer).filter((t) => !existsSync(resolve(ROOT, 'src', layer, `${t}.ts`)))).toEqual([]);
  });
  it('default: every unit is spelled like its file', () => {
    expect(units.filter((u) => !existsSync(resolve(ROOT, 'src', layer, `${u}.ts`)))).toEqual([]);
  });
});
