// Comparing vmalert's firing evaluations with the backtest's (backtest/src/vmalert.ts compareFiring): every
// difference is a disagreement, except the one that is vmalert's own: an alert sent back to pending at one of
// vmalert -replay's request boundaries (it does not carry state across its requests of REPLAY_POINTS evaluations).
import { describe, expect, it } from 'vitest';
import { compareFiring, REPLAY_POINTS } from '../../backtest/src/vmalert.js';

const STEP = 15_000;
const grid = { startMs: 1_000_000, stepMs: STEP, steps: 3 * REPLAY_POINTS };
const boundary = grid.startMs + REPLAY_POINTS * STEP;
const run = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i * STEP);

describe('compareFiring', () => {
  const firing = run(boundary - 100 * STEP, 300);
  // vmalert: firing until the boundary, pending for 20 evaluations after it (for: 5m), firing again
  const vmalert = firing.filter((t) => t <= boundary || t >= boundary + 20 * STEP);

  it('default: identical firing evaluations agree', () => {
    const c = compareFiring(new Map([['a', firing]]), new Map([['a', firing]]), 0, grid);
    expect(c.mismatches).toEqual([]);
    expect(c.requestBoundaryRestarts).toEqual([]);
    expect(c.evaluations).toBe(300);
  });

  it('behavior: a restart of for at a request boundary is vmalert\'s, listed apart', () => {
    const c = compareFiring(new Map([['a', vmalert]]), new Map([['a', firing]]), 0, grid);
    expect(c.mismatches).toEqual([]);
    expect(c.requestBoundaryRestarts).toEqual([{ key: 'a', onlyVmalert: 0, onlyBacktest: 19, first: boundary + STEP }]);
  });

  it('error: the same gap anywhere else, a gap that is not one run, or evaluations vmalert has alone are disagreements', () => {
    const elsewhere = firing.filter((t) => t <= boundary - 50 * STEP || t >= boundary - 30 * STEP);
    expect(compareFiring(new Map([['a', elsewhere]]), new Map([['a', firing]]), 0, grid).mismatches).toHaveLength(1);
    const broken = vmalert.concat([boundary + 10 * STEP]).sort((x, y) => x - y);
    expect(compareFiring(new Map([['a', broken]]), new Map([['a', firing]]), 0, grid).mismatches).toHaveLength(1);
    const extra = [...firing, boundary + 400 * STEP];
    const c = compareFiring(new Map([['a', extra]]), new Map([['a', firing]]), 0, grid);
    expect(c.mismatches).toEqual([{ key: 'a', onlyVmalert: 1, onlyBacktest: 0, first: boundary + 400 * STEP }]);
    // without the grid nothing is explained
    expect(compareFiring(new Map([['a', vmalert]]), new Map([['a', firing]]), 0).mismatches).toHaveLength(1);
  });
});
