// The serving thread's gzips of watched targets' new /probe texts (src/server/gzip-queue.ts): at most
// `limit` at once whatever the burst, per target only the newest text waits, and real zlib gives back
// the text it was given.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipQueue, type GzipFn } from '../../src/server/gzip-queue.js';

/** A gzip stepped by hand: each job waits until the test ends it; the "gzip" is the text reversed. */
function manualGzip() {
  const jobs: { text: Buffer; done: (err: Error | null, gz?: Buffer) => void }[] = [];
  const fn: GzipFn = (text, done) => void jobs.push({ text, done });
  const finishOne = (err: Error | null = null) => {
    const j = jobs.shift();
    if (!j) throw new Error('no gzip is running');
    j.done(err, err ? undefined : Buffer.from(j.text).reverse());
  };
  return { fn, jobs, finishOne };
}

describe('GzipQueue', () => {
  it('a burst of 1,000 texts runs at most `limit` gzips at once, and every text is gzipped once', () => {
    const g = manualGzip();
    const q = new GzipQueue(2, g.fn);
    const got = new Map<string, string>();
    for (let i = 0; i < 1000; i++) q.add(`t${i}`, Buffer.from(`text of t${i}`), (gz) => got.set(`t${i}`, Buffer.from(gz).reverse().toString()));
    expect(q.inFlight).toBe(2);
    expect(q.queued).toBe(998);
    let most = 0;
    for (let step = 0; step < 1000 && g.jobs.length > 0; step++) {
      most = Math.max(most, q.inFlight, g.jobs.length);
      g.finishOne();
    }
    expect(most).toBe(2);
    expect(q.inFlight).toBe(0);
    expect(q.queued).toBe(0);
    expect(got.size).toBe(1000);
    expect(got.get('t999')).toBe('text of t999');
  });

  it('a target updated while it waits is gzipped once, with its newest text, in its first place', () => {
    const g = manualGzip();
    const q = new GzipQueue(1, g.fn);
    const order: string[] = [];
    q.add('a', Buffer.from('a1'), (gz) => order.push(`a:${Buffer.from(gz).reverse()}`));
    q.add('b', Buffer.from('b1'), (gz) => order.push(`b:${Buffer.from(gz).reverse()}`));
    q.add('c', Buffer.from('c1'), (gz) => order.push(`c:${Buffer.from(gz).reverse()}`));
    q.add('b', Buffer.from('b2'), (gz) => order.push(`b:${Buffer.from(gz).reverse()}`));
    q.add('b', Buffer.from('b3'), (gz) => order.push(`b:${Buffer.from(gz).reverse()}`));
    expect(q.queued).toBe(2);
    for (let step = 0; step < 10 && g.jobs.length > 0; step++) g.finishOne();
    expect(order).toEqual(['a:a1', 'b:b3', 'c:c1']);
  });

  it('a running gzip keeps its text; a newer one waits for its own turn', () => {
    const g = manualGzip();
    const q = new GzipQueue(1, g.fn);
    const got: string[] = [];
    q.add('a', Buffer.from('a1'), (gz) => got.push(Buffer.from(gz).reverse().toString()));
    q.add('a', Buffer.from('a2'), (gz) => got.push(Buffer.from(gz).reverse().toString()));
    expect(q.inFlight).toBe(1);
    expect(q.queued).toBe(1);
    g.finishOne();
    g.finishOne();
    expect(got).toEqual(['a1', 'a2']);
  });

  it('a deleted target is not gzipped; a failed gzip frees its slot and calls nothing', () => {
    const g = manualGzip();
    const q = new GzipQueue(1, g.fn);
    const got: string[] = [];
    q.add('a', Buffer.from('a1'), () => got.push('a'));
    q.add('b', Buffer.from('b1'), () => got.push('b'));
    q.add('c', Buffer.from('c1'), () => got.push('c'));
    q.delete('b');
    g.finishOne(new Error('zlib failed'));
    expect(q.inFlight).toBe(1);
    g.finishOne();
    expect(g.jobs).toHaveLength(0);
    expect(got).toEqual(['c']);
  });

  it('a text no longer wanted when its turn comes (a probe gzipped it in place) is skipped, its slot goes on', () => {
    const g = manualGzip();
    const q = new GzipQueue(1, g.fn);
    const got: string[] = [];
    let bGzippedInPlace = false;
    q.add('a', Buffer.from('a1'), () => got.push('a'));
    q.add('b', Buffer.from('b1'), () => got.push('b'), () => !bGzippedInPlace);
    q.add('c', Buffer.from('c1'), () => got.push('c'), () => {
      throw new Error('a check that throws counts as not wanted');
    });
    q.add('d', Buffer.from('d1'), () => got.push('d'), () => true);
    bGzippedInPlace = true;
    g.finishOne(); // a ends; b and c are skipped, d runs
    expect(g.jobs.map((j) => j.text.toString())).toEqual(['d1']);
    expect(q.inFlight).toBe(1);
    g.finishOne();
    expect(got).toEqual(['a', 'd']);
    expect(q.inFlight).toBe(0);
    expect(q.queued).toBe(0);
  });

  it('a gzip that calls back twice frees one slot, not two', () => {
    const calls: ((err: Error | null, gz?: Buffer) => void)[] = [];
    const q = new GzipQueue(1, (_text, done) => void calls.push(done));
    q.add('a', Buffer.from('a'), () => {});
    q.add('b', Buffer.from('b'), () => {});
    q.add('c', Buffer.from('c'), () => {});
    calls[0]!(null, Buffer.from('x'));
    calls[0]!(null, Buffer.from('x'));
    expect(q.inFlight).toBe(1);
    expect(q.queued).toBe(1);
  });

  it('a gzip that throws instead of calling back frees its slot', () => {
    let calls = 0;
    const q = new GzipQueue(1, (text, done) => {
      calls++;
      if (text.toString() === 'bad') throw new TypeError('not a buffer zlib takes');
      done(null, Buffer.from('gz'));
    });
    const got: string[] = [];
    q.add('a', Buffer.from('bad'), () => got.push('a'));
    q.add('b', Buffer.from('good'), () => got.push('b'));
    expect(calls).toBe(2);
    expect(got).toEqual(['b']);
    expect(q.inFlight).toBe(0);
  });

  it('rejects a limit below one', () => {
    expect(() => new GzipQueue(0)).toThrow(/positive integer/);
  });

  it("on zlib's pool: the gzip is the text", async () => {
    const q = new GzipQueue(2);
    const texts = Array.from({ length: 20 }, (_, i) => Buffer.from(`avax_up{target="t${i}"} 1\n`.repeat(500)));
    const back = await Promise.all(texts.map((t, i) => new Promise<Buffer>((resolve) => q.add(`t${i}`, t, resolve))));
    back.forEach((gz, i) => expect(gunzipSync(gz).equals(texts[i]!)).toBe(true));
    expect(q.inFlight).toBe(0);
  });
});
