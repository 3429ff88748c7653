import { describe, expect, it } from 'vitest';
import { CALLS } from '../../src/collectors/index.js';
import { fixture, fixtureMethods, fixtureNames, fixtureOfCall, schemaOfFixture } from '../fixtures/load.js';

/** Every fixture folder, read with the schema the exporter reads its answers with (schemaOfFixture: the declared calls'). */
describe('fixtures', () => {
  it('default: every fixture folder is read by a declared call', () => {
    expect(fixtureMethods().filter((m) => schemaOfFixture(m) === undefined)).toEqual([]);
  });

  it('default: every JSON answer a declared call reads has a fixture folder', () => {
    const folders = new Set(fixtureMethods());
    const calls = CALLS.map(({ call }) => call).filter((c) => c.kind !== 'text');
    expect(calls.filter((c) => !folders.has(fixtureOfCall(c)!)).map((c) => c.method)).toEqual([]);
  });

  for (const method of fixtureMethods()) {
    for (const name of fixtureNames(method)) {
      it(`default: ${method}/${name} is accepted`, () => {
        const f = fixture(method, name);
        expect(typeof f.source).toBe('string');
        expect(f.source.length).toBeGreaterThan(0);
        const schema = schemaOfFixture(method);
        expect(schema).toBeDefined();
        const parsed = schema!.safeParse(f.result);
        expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      });
    }
  }
});
