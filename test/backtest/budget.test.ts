// The false-page budget of the backtest (backtest/src/budget.ts, issue 43): the Poisson upper bound against
// the tabulated one, the verdicts, the healthy exposure of a timeline (figures.ts healthyNodeDays), and that the
// shipped rules are judged by the budget of their own severity.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetLine, budgetRows, overLines, poissonCdf, poissonUpper, verdictOf } from '../../backtest/src/budget.js';
import { healthyNodeDays } from '../../backtest/src/figures.js';
import { loadRules } from '../../backtest/src/rules.js';
import { budgetPerNodeDay, FALSE_PAGE_BUDGET } from '../../src/monitoring/rules/types.js';

const DAY = 86_400_000;

describe('Poisson upper bound', () => {
  it('default: the exact 95 % upper bounds of a Poisson mean (chi-square(0.95, 2k + 2) / 2, the tabulated values)', () => {
    const table: [number, number][] = [[0, 2.9957], [1, 4.7439], [2, 6.2958], [3, 7.7537], [4, 9.1535], [5, 10.513], [10, 16.9622]];
    for (const [k, upper] of table) expect(poissonUpper(k), `k = ${k}`).toBeCloseTo(upper, 3);
  });

  it('behavior: at the bound, seeing k or fewer events has probability 5 %; the bound grows with k', () => {
    for (const k of [0, 1, 7, 40, 300]) expect(poissonCdf(k, poissonUpper(k))).toBeCloseTo(0.05, 6);
    expect(poissonUpper(1)).toBeGreaterThan(poissonUpper(0));
    expect(() => poissonUpper(-1)).toThrow(RangeError);
  });
});

describe('verdicts', () => {
  const budget = 1 / 100;

  it('default: no false page in 300 node-days is within 1 per 100 node-days (the rule of three), in 290 it is unproven', () => {
    expect(verdictOf(0, 300, budget).verdict).toBe('within');
    expect(verdictOf(0, 290, budget)).toMatchObject({ rate: 0, verdict: 'unproven' });
  });

  it('behavior: one false page fails where none would pass; many node-days later it is within again', () => {
    expect(verdictOf(1, 420, budget)).toMatchObject({ rate: 1 / 420, verdict: 'OVER' });
    expect(verdictOf(1, 480, budget).verdict).toBe('within'); // 4.744 / 480 < 0.01
    expect(verdictOf(1, 470, budget).verdict).toBe('OVER');
  });

  it('default: every shipped rule that can page is judged by the budget of its own severity; Watchdog never', () => {
    const rules = loadRules(resolve(import.meta.dirname, '../../alerts'), 15_000);
    const rows = budgetRows(rules, (id) => (id === 'AvalancheTargetDown' ? 2 : 0), 420);
    expect(rows.map((r) => r.id)).not.toContain('Watchdog');
    expect(rows).toHaveLength(rules.length - 1);
    for (const r of rows) expect(r.budget, r.id).toBe(budgetPerNodeDay(r.severity));
    expect(new Set(rows.map((r) => r.severity))).toEqual(new Set(Object.keys(FALSE_PAGE_BUDGET)));
    const down = rows.find((r) => r.id === 'AvalancheTargetDown')!;
    expect(down).toMatchObject({ severity: 'critical', falsePages: 2, verdict: 'OVER' });
    expect(overLines(rows)).toEqual([expect.stringMatching(/^OVER BUDGET: AvalancheTargetDown \(critical\): 2 false pages in 420\.0 healthy node-days, at most 0\.0150 .* above the budget of 0\.0100/)]);
    expect(budgetLine(rows, 420)).toBe(`budget: ${rows.length - 1} rules within, 1 over, 0 unproven (420.0 healthy node-days bound a rule without a false page at 0.0071 (1 per 140 node-days))`);
  });
});

describe('healthy node-days', () => {
  it('default: a week of 10 nodes without faults is 70 node-days', () => {
    expect(healthyNodeDays(10, 7 * DAY, [])).toBe(70);
  });

  it("behavior: a node's fault window leaves that node's time out, an exporter fault every node's; overlaps count once, the part after the end none", () => {
    const h = DAY / 24;
    const windows = [
      { node: 1, fromMs: 2 * h, toMs: 4 * h },
      { node: 1, fromMs: 3 * h, toMs: 5 * h }, // overlaps the one before: 2h-5h on node-1
      { fromMs: 10 * h, toMs: 11 * h }, // the exporter: every node
      { node: 0, fromMs: 23 * h, toMs: 26 * h }, // past the end of the day: 1 hour counts
    ];
    expect(healthyNodeDays(2, DAY, windows)).toBeCloseTo((48 - 3 - 2 * 1 - 1) / 24, 12);
  });
});
