// Prometheus' alert state machine as the backtest applies it (backtest/src/state-machine.ts):
// pending → firing after `for`, dropped when pending and the series goes, resolved at the first
// evaluation without it, `keep_firing_for` bridging gaps; flaps.
import { describe, expect, it } from 'vitest';
import { alertEpisodes, episodesOf, flaps, labelKey, toRuns, type ActiveSeries } from '../../backtest/src/state-machine.js';

const grid = { startMs: 1_000_000, stepMs: 15_000, steps: 100 };
const at = (k: number) => grid.startMs + k * grid.stepMs;
const series = (runs: [number, number][], labels = { alertname: 'A', target: 't' }): ActiveSeries => ({ labels, key: labelKey(labels), runs });

describe('state machine', () => {
  it('default: fires at the first evaluation at least `for` after it became pending, resolves at the first evaluation without the series', () => {
    const [e] = episodesOf(series([[10, 40]]), { forMs: 60_000, keepFiringForMs: 0 }, grid);
    expect(e).toMatchObject({ activeAtMs: at(10), firedAtMs: at(14), endAtMs: at(41), firingEvals: 27 });
  });

  it('behavior: `for` that is not a multiple of the interval rounds up to the next evaluation', () => {
    const [e] = episodesOf(series([[0, 20]]), { forMs: 20_000, keepFiringForMs: 0 }, grid);
    expect(e!.firedAtMs).toBe(at(2));
  });

  it('behavior: without `for` it fires at the first evaluation', () => {
    const [e] = episodesOf(series([[5, 5]]), { forMs: 0, keepFiringForMs: 0 }, grid);
    expect(e).toMatchObject({ activeAtMs: at(5), firedAtMs: at(5), endAtMs: at(6), firingEvals: 1 });
  });

  it('behavior: a pending alert whose series goes is dropped; the next run starts pending again', () => {
    const eps = episodesOf(series([[0, 3], [5, 30]]), { forMs: 60_000, keepFiringForMs: 0 }, grid);
    expect(eps.map((e) => [e.activeAtMs, e.firedAtMs, e.endAtMs])).toEqual([
      [at(0), undefined, at(4)],
      [at(5), at(9), at(31)],
    ]);
  });

  it('behavior: the run must last `for` exactly: one evaluation short never fires', () => {
    expect(episodesOf(series([[0, 3]]), { forMs: 60_000, keepFiringForMs: 0 }, grid)[0]!.firedAtMs).toBeUndefined();
    expect(episodesOf(series([[0, 4]]), { forMs: 60_000, keepFiringForMs: 0 }, grid)[0]!.firedAtMs).toBe(at(4));
  });

  it('behavior: keep_firing_for bridges a gap shorter than it and delays the resolution', () => {
    const keep = { forMs: 0, keepFiringForMs: 45_000 };
    // missing at 3 evaluations (0, 15 and 30 s after the first of them: < 45 s), back at the 4th: one episode
    expect(episodesOf(series([[0, 9], [13, 20]]), keep, grid)).toEqual([expect.objectContaining({ firedAtMs: at(0), endAtMs: at(24), firingEvals: 24 })]);
    // missing at 4 evaluations: resolved at the 4th (45 s after the first without it), then fires again
    const two = episodesOf(series([[0, 9], [14, 20]]), keep, grid);
    expect(two.map((e) => [e.firedAtMs, e.endAtMs])).toEqual([
      [at(0), at(13)],
      [at(14), at(24)],
    ]);
  });

  it('behavior: an alert still active at the last evaluation has no end', () => {
    const [e] = episodesOf(series([[90, 99]]), { forMs: 30_000, keepFiringForMs: 0 }, grid);
    expect(e).toMatchObject({ firedAtMs: at(92), endAtMs: undefined, firingEvals: 8 });
  });

  it('default: episodes of several label sets come sorted by activeAt', () => {
    const a = series([[20, 30]], { alertname: 'A', target: 'a' });
    const b = series([[10, 30]], { alertname: 'A', target: 'b' });
    expect(alertEpisodes([a, b], { forMs: 0, keepFiringForMs: 0 }, grid).map((e) => e.labels['target'])).toEqual(['b', 'a']);
  });

  it('behavior: a flap is a firing episode that fires again within the window after it resolved', () => {
    const eps = episodesOf(series([[0, 10], [20, 30], [99, 99]]), { forMs: 0, keepFiringForMs: 0 }, grid);
    const f = flaps(eps, 10 * 15_000);
    expect(f.map((x) => [x.first.firedAtMs, x.again.firedAtMs])).toEqual([[at(0), at(20)]]);
    // pending-only episodes never count
    expect(flaps(episodesOf(series([[0, 1], [3, 4]]), { forMs: 60_000, keepFiringForMs: 0 }, grid), 3_600_000)).toEqual([]);
  });

  it('default: toRuns groups consecutive evaluations and refuses unordered input', () => {
    expect(toRuns([1, 2, 3, 7, 9, 10])).toEqual([[1, 3], [7, 7], [9, 10]]);
    expect(() => toRuns([3, 1])).toThrow(/not ascending/);
  });

  it('default: label keys do not depend on the order of the labels', () => {
    expect(labelKey({ a: '1', b: '2' })).toBe(labelKey({ b: '2', a: '1' }));
    expect(labelKey({ a: '1' })).not.toBe(labelKey({ a: '2' }));
  });
});
