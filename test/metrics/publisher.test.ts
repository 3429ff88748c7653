import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FleetDerivation } from '../../src/derive/define.js';
import { DESCRIPTOR_INDEX } from '../../src/metrics/descriptors.js';
import type { RenderedExposition } from '../../src/metrics/exposition.js';
import { Publisher } from '../../src/metrics/publisher.js';
import { snapshotWith } from '../derive/snapshot.js';
import { memoryLogger } from '../helpers/log.js';
import { waitFor } from '../helpers/proc.js';

function publisher(fleet: FleetDerivation[] = [], processMetrics?: () => Promise<string>, monotonic?: () => number) {
  return new Publisher({
    monotonic,
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
const text = (r: RenderedExposition) => r.text.toString();
const turn = () => new Promise((r) => setImmediate(r));

/** processMetrics that holds the render in flight until released (each call waits on its own gate). */
function gated() {
  const gates: (() => void)[] = [];
  let calls = 0;
  return {
    fn: () => {
      calls++;
      return new Promise<string>((resolve) => gates.push(() => resolve('')));
    },
    calls: () => calls,
    /** Releases every render waiting so far. */
    release() {
      for (const g of gates.splice(0)) g();
    },
  };
}

describe('publisher: one render at a time, only when /metrics is looked at (issue 21)', () => {
  it('default: flush renders what was published; the gzip served is made with the render and is the gzip of the text', async () => {
    const p = publisher();
    p.publish(snapshotWith({}, { name: 'a' }));
    const r = await p.flush();
    expect(text(r)).toContain(upLine('a', 1));
    // The render is its gzip (made from the segments, never from a whole text): it holds the target and the global samples.
    const served = gunzipSync(r.gzip()).toString();
    expect(served).toBe(text(r));
    expect(served).toContain(upLine('a', 1));
    expect(served.match(/^# TYPE avax_up gauge$/gm)?.length).toBe(1);
    expect(p.current()).toBe(r);
  });

  it('behavior: nobody scrapes /metrics: publications build no full exposition; /probe still assembles its target', async () => {
    const p = publisher();
    for (let i = 0; i < 100; i++) p.publish(snapshotWith({}, { name: `t${i}` }));
    await new Promise((r) => setTimeout(r, 20));
    expect(p.stats().started).toBe(0);
    expect(text(p.probe('t7')!)).toContain(upLine('t7', 1));
    expect(text(p.probe('t7')!)).not.toContain('t8');
  });

  it('behavior: the first scrape waits for a render that includes every publication (never an old render)', async () => {
    const p = publisher();
    p.publish(snapshotWith({}, { name: 'a', up: 1 }));
    const r = await p.scrape();
    expect(text(r)).toContain(upLine('a', 1));
    expect(p.stats().started).toBe(1);
    // Nothing new: the same bytes, no render.
    expect(await p.scrape()).toBe(r);
    expect(p.stats().started).toBe(1);
  });

  it('behavior: a burst of 1,000 publications, some during a render, gives at most one render in flight and at most two renders', async () => {
    const g = gated();
    const p = publisher([], g.fn);
    p.publish(snapshotWith({}, { name: 'seed' }));
    const first = p.scrape(); // /metrics is watched from now on
    await turn();
    expect(g.calls()).toBe(1); // the first render is in flight (held by its process-metrics step)
    for (let i = 0; i < 1000; i++) {
      p.publish(snapshotWith({}, { name: `t${i % 250}`, up: i < 750 ? 1 : 0 }));
      if (i % 100 === 0) await turn();
    }
    expect(p.stats()).toEqual({ started: 1, maxInFlight: 1 });
    g.release();
    await first;
    await turn();
    await turn();
    expect(p.stats().started).toBe(2); // the 1,000 publications coalesced into one next render
    const pending = p.flush(); // hurries the next render past its spacing
    await turn();
    await turn();
    g.release();
    const last = await pending;
    expect(p.stats()).toEqual({ started: 2, maxInFlight: 1 });
    expect(text(last)).toContain(upLine('t249', 0));
    expect(text(last).match(/^avax_up\{/gm)?.length).toBe(251);
  });

  it('behavior: a publication that arrives while a render is in flight gets the next render, never the one in flight', async () => {
    const g = gated();
    const p = publisher([], g.fn);
    p.publish(snapshotWith({}, { name: 'a' }));
    const first = p.flush();
    await turn();
    p.publish(snapshotWith({}, { name: 'a', up: 0 }));
    const second = p.flush();
    const third = p.flush();
    expect(second).toBe(third);
    g.release();
    const r1 = await first;
    await turn();
    g.release();
    const r3 = await third;
    expect(r1).not.toBe(r3);
    expect(text(r1)).toContain(upLine('a', 1));
    expect(text(r3)).toContain(upLine('a', 0));
    expect(p.current()).toBe(r3);
  });

  it('behavior: with a costly render, a watched scrape gets the last complete render at once while the next one is made', async () => {
    // A render held for 40 ms costs more than a scrape waits for.
    const p = publisher([], () => new Promise((r) => setTimeout(() => r(''), 40)));
    p.publish(snapshotWith({}, { name: 'a', up: 1 }));
    const r1 = await p.scrape();
    p.publish(snapshotWith({}, { name: 'a', up: 0 }));
    const r2 = p.scrape();
    expect(r2).toBe(r1); // not a promise: the bytes of the last render
    const r3 = await p.flush();
    expect(text(r3)).toContain(upLine('a', 0));
    expect(p.stats().maxInFlight).toBe(1);
  });

  it('behavior: fleet derivations run once per render, not once per publication (1,000 targets would make that quadratic)', async () => {
    let runs = 0;
    const counting: FleetDerivation = { name: 'count', reads: [], metrics: [], derive: () => (runs++, []) };
    const p = publisher([counting]);
    for (let i = 0; i < 50; i++) p.publish(snapshotWith({}, { name: `t${i}` }));
    await p.flush();
    expect(runs).toBe(1);
    p.remove('t0');
    await p.flush();
    expect(runs).toBe(2);
    expect(text(p.current())).not.toContain('target="t0"');
    expect(p.probe('t0')).toBeUndefined();
  });

  it('error: process metrics that fail leave a render without them, never a failed scrape', async () => {
    const p = publisher([], () => Promise.reject(new Error('boom')));
    p.publish(snapshotWith({}, { name: 'a' }));
    expect(text(await p.scrape())).toContain(upLine('a', 1));
  });

  it('behavior: renders ahead only for the next scrape: publications between two scrapes 15 s apart render nothing until the scrape', async () => {
    let t = 0;
    let renders = 0;
    const p = publisher([], async () => (renders++, ''), () => t);
    p.publish(snapshotWith({}, { name: 'a' }));
    await p.scrape();
    t = 15_000;
    await p.scrape(); // two scrapes: the cadence is 15 s
    expect(renders).toBe(1); // nothing new at the second scrape
    expect(p.nextScrape()).toEqual({ dueAt: 30_000, leadMs: 1000 });
    // A fleet's publications all through the interval: no render until the scrape is due
    for (let i = 0; i < 100; i++) {
      t = 16_000 + i * 100;
      p.publish(snapshotWith({}, { name: `t${i}` }));
      if (i % 20 === 0) await turn();
    }
    await new Promise((r) => setTimeout(r, 30));
    expect(renders).toBe(1);
    t = 30_000;
    const r = await p.scrape(); // a cheap render: the scrape waits for it
    expect(renders).toBe(2);
    expect(text(r)).toContain(upLine('t99', 1));
    expect(p.stats().maxInFlight).toBe(1);
  });

  it('behavior: with a costly render, the render ahead starts the lead before the next scrape is due, so that the scrape gets it at once', async () => {
    let t = 0;
    let renders = 0;
    // each render costs 40 ms on the injected clock: more than a scrape waits for
    const p = publisher([], async () => ((t += 40), renders++, ''), () => t);
    p.publish(snapshotWith({}, { name: 'a', up: 1 }));
    await p.scrape();
    t = 1200;
    await p.scrape(); // cadence 1.2 s, lead min(600, max(1000, 3 × 40)) = 600 ms: the render ahead at 1.8 s
    expect(p.nextScrape()).toEqual({ dueAt: 2400, leadMs: 600 });
    t = 1300;
    p.publish(snapshotWith({}, { name: 'a', up: 0 })); // waits 500 ms (real timer) for the lead
    await new Promise((r) => setTimeout(r, 50));
    expect(renders).toBe(1);
    t = 1800;
    // the render ahead starts by itself (no scrape asks for it) and completes (its gzip is made on zlib's threads)
    await waitFor(() => text(p.current()).includes(upLine('a', 0)), 10_000, 10);
    expect(renders).toBe(2);
    t = 2400;
    const r = p.scrape();
    expect(r).not.toBeInstanceOf(Promise); // the bytes at once
    expect(text(r as RenderedExposition)).toContain(upLine('a', 0));
  });

  it('behavior: the cadence is the shortest of the last three gaps of at least a second (an HA pair of Prometheus; a burst is not a cadence)', async () => {
    let t = 0;
    const p = publisher([], undefined, () => t);
    expect(p.nextScrape()).toBeUndefined();
    for (const at of [0, 5_000, 15_000, 20_000, 30_000]) {
      t = at;
      await p.scrape();
    }
    expect(p.nextScrape()?.dueAt).toBe(35_000); // gaps 10 s, 5 s, 10 s: 5 s
    for (const at of [30_005, 30_010]) {
      t = at;
      await p.scrape();
    }
    expect(p.nextScrape()?.dueAt).toBe(35_010);
    t = 30_010 + 11 * 60_000; // unwatched for longer than the watch window: the cadence starts over
    await p.scrape();
    expect(p.nextScrape()).toBeUndefined();
  });
});

describe('publisher: /probe bytes for the serving thread (sendProbes)', () => {
  it('behavior: a watched target\'s publications go to the sink with the bytes probe() gives; others do not; a removal drops it', () => {
    const p = publisher();
    const watched = new Set(['b']);
    const sent: [string, string, number][] = [];
    const dropped: string[] = [];
    p.sendProbes({ watches: (n) => watched.has(n), set: (n, bytes, series) => sent.push([n, bytes.toString(), series]), drop: (n) => dropped.push(n) });
    p.publish(snapshotWith({}, { name: 'a' }));
    p.publish(snapshotWith({}, { name: 'b' }));
    expect(sent.map(([n]) => n)).toEqual(['b']);
    const probe = p.probe('b')!;
    expect(sent[0]![1]).toBe(text(probe));
    expect(sent[0]![2]).toBe(probe.seriesCount);
    expect(sent[0]![1]).toContain(upLine('b', 1));
    p.publish(snapshotWith({}, { name: 'b', up: 0 }));
    expect(sent[1]![1]).toContain(upLine('b', 0));
    p.remove('b');
    p.remove('a');
    expect(dropped).toEqual(['b', 'a']);
  });
});
