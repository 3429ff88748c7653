// The backtest's alert state machine against promtool's own alert engine (Prometheus 2.42 rules
// code): seeded on/off patterns of several series, rules with `for` and `keep_firing_for` (no
// shipped rule uses keep_firing_for, and vmalert 1.79 cannot replay it, so it is proven here), and
// the set of firing alerts compared at every evaluation.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { onPath } from '../../backtest/src/programs.js';
import { Stream } from '../../backtest/src/random.js';
import { alertEpisodes, labelKey, toRuns } from '../../backtest/src/state-machine.js';

const PROMTOOL = onPath('promtool');
const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const STEP = 15_000;
const STEPS = 48;

/** A seeded pattern of on (1) and off (0) with runs of 1 to 6 evaluations. */
function pattern(s: Stream): number[] {
  const out: number[] = [];
  let on = s.next() < 0.5;
  while (out.length < STEPS) {
    const len = 1 + Math.floor(s.next() * 6);
    for (let i = 0; i < len && out.length < STEPS; i++) out.push(on ? 1 : 0);
    on = !on;
  }
  return out;
}

describe.skipIf(!PROMTOOL && !CI)('state machine = promtool test rules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-sm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases = [
    { forS: 30, keepS: 45 },
    { forS: 0, keepS: 30 },
    { forS: 60, keepS: 0 },
    { forS: 15, keepS: 15 },
  ];
  for (const [n, c] of cases.entries()) {
    it(`behavior: for ${c.forS}s, keep_firing_for ${c.keepS}s: the same alerts fire at each of ${STEPS} evaluations`, () => {
      expect(PROMTOOL, 'promtool must be on PATH under CI').toBeDefined();
      const s = new Stream(4242, n);
      const patterns = ['a', 'b', 'c', 'd'].map((t) => ({ t, values: pattern(s) }));
      const rule = { alert: 'A', expr: 'x == 1', ...(c.forS ? { for: `${c.forS}s` } : {}), ...(c.keepS ? { keep_firing_for: `${c.keepS}s` } : {}) };
      writeFileSync(join(dir, `r${n}.yaml`), stringify({ groups: [{ name: 'g', rules: [rule] }] }));
      const series = patterns.map((p) => {
        const labels = { alertname: 'A', t: p.t };
        return { labels, key: labelKey(labels), runs: toRuns(p.values.flatMap((v, k) => (v === 1 ? [k] : []))) };
      });
      const episodes = alertEpisodes(series, { forMs: c.forS * 1000, keepFiringForMs: c.keepS * 1000 }, { startMs: 0, stepMs: STEP, steps: STEPS });
      const firingAt = (k: number) =>
        episodes
          .filter((e) => e.firedAtMs !== undefined && e.firedAtMs <= k * STEP && (e.endAtMs === undefined || k * STEP < e.endAtMs))
          .map((e) => ({ exp_labels: { t: e.labels['t'] } }))
          .sort((x, y) => (x.exp_labels.t < y.exp_labels.t ? -1 : 1));
      // the patterns must exercise the rule: something fires, something resolves
      expect(episodes.some((e) => e.firedAtMs !== undefined)).toBe(true);
      expect(episodes.some((e) => e.endAtMs !== undefined && e.firedAtMs !== undefined)).toBe(true);
      const test = {
        rule_files: [join(dir, `r${n}.yaml`)],
        evaluation_interval: '15s',
        tests: [
          {
            interval: '15s',
            input_series: patterns.map((p) => ({ series: `x{t="${p.t}"}`, values: p.values.join(' ') })),
            alert_rule_test: Array.from({ length: STEPS }, (_, k) => ({ eval_time: `${(k * STEP) / 1000}s`, alertname: 'A', exp_alerts: firingAt(k) })),
          },
        ],
      };
      writeFileSync(join(dir, `t${n}.yaml`), stringify(test));
      const out = spawnSync(PROMTOOL!, ['test', 'rules', join(dir, `t${n}.yaml`)], { encoding: 'utf8', timeout: 60_000 });
      expect(out.stdout + out.stderr).toContain('SUCCESS');
      expect(out.status).toBe(0);
    });
  }
});
