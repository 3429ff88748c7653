import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FleetDerivation } from '../../src/derive/define.js';
import { DESCRIPTOR_INDEX } from '../../src/metrics/descriptors.js';
import { Publisher } from '../../src/metrics/publisher.js';
import { snapshotWith } from '../derive/snapshot.js';
import { memoryLogger } from '../helpers/log.js';

function publisher(fleet: FleetDerivation[] = [], processMetrics?: () => Promise<string>) {
  return new Publisher({
    index: DESCRIPTOR_INDEX,
    derivations: [],
    fleetDerivations: fleet,
    global: [],
    helpSuffix: () => '',
    processMetrics,
    logger: memoryLogger('silent').logger,
    now: () => 0,
  });
}
const upLine = (name: string, up: 0 | 1) => `avax_up{target="${name}"} ${up}`;

describe('publisher: renders once per batch of publications, gzip made with the render', () => {
  it('default: the gzip served is made with the render and is the gzip of the text', async () => {
    const p = publisher();
    const r = await p.publish(snapshotWith({}, { name: 'a' }));
    expect(r.text.toString()).toContain(upLine('a', 1));
    expect(gunzipSync(r.gzip()).equals(r.text)).toBe(true);
    expect(p.current()).toBe(r);
  });

  it('behavior: publications in the same turn share one render; each publication resolves to a render that includes it', async () => {
    const p = publisher();
    const [a, b] = await Promise.all([p.publish(snapshotWith({}, { name: 'a' })), p.publish(snapshotWith({}, { name: 'b' }))]);
    expect(a).toBe(b);
    expect(a.text.toString()).toContain(upLine('b', 1));
  });

  it('behavior: a publication that arrives while a render is in flight (its gzip being made) gets the next render, never the one in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    // The process-metrics step of the render waits on the gate the first time: the render is in flight.
    const p = publisher([], async () => {
      if (calls++ === 0) await gate;
      return '';
    });
    const first = p.publish(snapshotWith({}, { name: 'a' }));
    await new Promise((r) => setTimeout(r, 20)); // the first render has started assembling
    const second = p.publish(snapshotWith({}, { name: 'a' }));
    const third = p.publish(snapshotWith({}, { name: 'a', up: 0 }));
    expect(second).toBe(third);
    release();
    const [r1, r3] = await Promise.all([first, third]);
    expect(r1).not.toBe(r3);
    expect(r1.text.toString()).toContain(upLine('a', 1));
    expect(r3.text.toString()).toContain(upLine('a', 0));
    expect(p.current()).toBe(r3);
  });

  it('behavior: fleet derivations run once per render, not once per publication (1,000 targets would make that quadratic)', async () => {
    let runs = 0;
    const counting: FleetDerivation = { name: 'count', reads: [], metrics: [], derive: () => (runs++, []) };
    const p = publisher([counting]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => p.publish(snapshotWith({}, { name: `t${i}` }))));
    expect(runs).toBe(1);
    p.remove('t0');
    await p.scheduleRender();
    expect(runs).toBe(2);
    expect(p.current().text.toString()).not.toContain('target="t0"');
  });
});
