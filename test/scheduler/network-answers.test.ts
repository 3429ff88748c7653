import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Answer } from '../../src/node-client/call.js';
import { HEDGE_FIRST_MS, HEDGE_MIN_MS, NetworkAnswers } from '../../src/scheduler/network-answers.js';

/** A fetch that counts itself and answers `value` (or fails). */
function fetcher(value: unknown, fail = false) {
  let n = 0;
  const fetch = async (): Promise<Answer<unknown, never>> => {
    n++;
    await new Promise((r) => setImmediate(r));
    return fail ? { ok: false, error: new Error('down') } : { ok: true, value };
  };
  return { fetch, count: () => n };
}

const q = (target: string, previousRun = -Infinity, maxAgeMs = 60_000) => ({ target, previousRun, maxAgeMs });

describe('network answers: once per network per interval, shared by its targets (issue 21)', () => {
  it('default: the second target of a network reuses what the first fetched; another network asks its own', async () => {
    const a = new NetworkAnswers(() => 0);
    const f = fetcher({ supply: 1 });
    expect(await a.get('1', 'k', q('a'), f.fetch)).toEqual({ ok: true, value: { supply: 1 } });
    expect(await a.get('1', 'k', q('b'), f.fetch)).toEqual({ ok: true, value: { supply: 1 } });
    expect(f.count()).toBe(1);
    await a.get('5', 'k', q('c'), f.fetch);
    expect(f.count()).toBe(2);
  });

  it('behavior: targets that ask at the same time wait for the one fetch in flight', async () => {
    const a = new NetworkAnswers(() => 0);
    const f = fetcher('v');
    const all = await Promise.all(['a', 'b', 'c', 'd'].map((t) => a.get('1', 'k', q(t), f.fetch)));
    expect(all.every((x) => x.ok)).toBe(true);
    expect(f.count()).toBe(1);
  });

  it('behavior: a network with one target asks every run, whatever the clock says (as without sharing)', async () => {
    const a = new NetworkAnswers(() => 0);
    const f = fetcher('v');
    let previous = -Infinity;
    for (let i = 0; i < 3; i++) {
      const start = a.mark();
      await a.get('1', 'k', q('only', previous), f.fetch);
      previous = start;
    }
    expect(f.count()).toBe(3);
  });

  it('behavior: next interval, a target reuses only what another fetched since its own previous run', async () => {
    const a = new NetworkAnswers(() => 0);
    const f = fetcher('v');
    const runA1 = a.mark();
    await a.get('1', 'k', q('a'), f.fetch); // A fetches in interval 1
    const runB1 = a.mark();
    await a.get('1', 'k', q('b'), f.fetch); // B reuses it
    expect(f.count()).toBe(1);
    // Interval 2: B comes first; A's answer is older than B's previous run: B asks its node.
    a.mark();
    await a.get('1', 'k', q('b', runB1), f.fetch);
    expect(f.count()).toBe(2);
    await a.get('1', 'k', q('a', runA1), f.fetch); // A reuses B's
    expect(f.count()).toBe(2);
  });

  it('behavior: an answer older than the interval is not reused', async () => {
    let now = 0;
    const a = new NetworkAnswers(() => now);
    const f = fetcher('v');
    await a.get('1', 'k', q('a'), f.fetch);
    now = 61_000;
    await a.get('1', 'k', q('b'), f.fetch);
    expect(f.count()).toBe(2);
  });

  it('error: a failed fetch is not shared: the next target asks its own node, and its answer is kept', async () => {
    const a = new NetworkAnswers(() => 0);
    const bad = fetcher(undefined, true);
    const good = fetcher('v');
    const [ra, rb] = await Promise.all([a.get('1', 'k', q('a'), bad.fetch), a.get('1', 'k', q('b'), good.fetch)]);
    expect(ra.ok).toBe(false);
    expect(rb).toEqual({ ok: true, value: 'v' });
    expect(await a.get('1', 'k', q('c'), bad.fetch)).toEqual({ ok: true, value: 'v' });
    expect(bad.count()).toBe(1);
  });
});

describe('network answers: a frozen node does not hold the healthy ones (hedge)', () => {
  // Every test here runs on fake timers: the hedge is a matter of milliseconds.
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** A fetch that answers only when released (a frozen node: until the node timeout). */
  function held(value: unknown) {
    let release!: (a: Answer<unknown, never>) => void;
    let n = 0;
    const fetch = (): Promise<Answer<unknown, never>> => {
      n++;
      return new Promise((r) => (release = r));
    };
    return { fetch, release: (fail = false) => release(fail ? { ok: false, error: new Error('timeout') } : { ok: true, value }), count: () => n };
  }

  it('behavior: a target waits for a slow fetch in flight HEDGE_FIRST_MS at most, then asks its own node; the others wait for that one (two fetches, not one per target)', async () => {
    const a = new NetworkAnswers(() => 0);
    const frozen = held('from the frozen node');
    const healthy = fetcher('from a healthy node');
    void a.get('1', 'k', q('frozen'), frozen.fetch);
    const b = a.get('1', 'k', q('b'), healthy.fetch);
    const c = a.get('1', 'k', q('c'), healthy.fetch);
    await vi.advanceTimersByTimeAsync(HEDGE_FIRST_MS - 1);
    expect(healthy.count()).toBe(0); // still waiting for the first fetch
    await vi.advanceTimersByTimeAsync(2);
    expect(await b).toEqual({ ok: true, value: 'from a healthy node' });
    expect(await c).toEqual({ ok: true, value: 'from a healthy node' });
    expect(healthy.count()).toBe(1); // one hedge; c found it
    // The frozen node's fetch ends with its node timeout: nothing of it is kept.
    frozen.release(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(await a.get('1', 'k', q('d'), healthy.fetch)).toEqual({ ok: true, value: 'from a healthy node' });
    expect(healthy.count()).toBe(1);
  });

  it('behavior: once a fetch took t ms, a fetch in flight is waited for 2t (at least HEDGE_MIN_MS) before the hedge', async () => {
    const a = new NetworkAnswers(() => 0);
    const first = held('v1');
    const p = a.get('1', 'k', q('a'), first.fetch);
    await vi.advanceTimersByTimeAsync(3_000); // the first fetch takes 3 s: a mainnet validator list on a busy node
    first.release();
    await p;
    const slow = held('v2');
    const hedge = fetcher('v3');
    void a.get('1', 'k', q('a', a.mark()), slow.fetch);
    const b = a.get('1', 'k', q('b', a.mark()), hedge.fetch);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(hedge.count()).toBe(0);
    await vi.advanceTimersByTimeAsync(2);
    expect(await b).toEqual({ ok: true, value: 'v3' });
    expect(HEDGE_MIN_MS).toBeLessThan(HEDGE_FIRST_MS);
    slow.release();
  });

  it('default: a fetch that answers within the delay is shared as before (no second fetch)', async () => {
    const a = new NetworkAnswers(() => 0);
    const one = held('v');
    const other = fetcher('never');
    const p1 = a.get('1', 'k', q('a'), one.fetch);
    const p2 = a.get('1', 'k', q('b'), other.fetch);
    await vi.advanceTimersByTimeAsync(HEDGE_FIRST_MS - 500);
    one.release();
    expect(await p1).toEqual({ ok: true, value: 'v' });
    expect(await p2).toEqual({ ok: true, value: 'v' });
    expect(other.count()).toBe(0);
  });
});
