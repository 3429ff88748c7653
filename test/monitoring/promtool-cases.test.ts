// The promtool cases of a threshold's alert are written for its default (alerts/tests/ are YAML and
// cannot read settings.ts): these checks fail when a default moves and the cases no longer straddle it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseDuration } from '../../src/monitoring/duration.js';
import { DEFAULT_SETTINGS } from '../../src/monitoring/settings.js';
import { ROOT } from '../helpers/proc.js';

interface PromtoolTest {
  name: string;
  interval: string;
  input_series: { series: string; values: string }[];
  alert_rule_test: { eval_time: string; alertname: string; exp_alerts: { exp_labels: Record<string, string> }[] }[];
}
const testsOf = (file: string): PromtoolTest[] => (YAML.parse(readFileSync(join(ROOT, 'alerts', 'tests', file), 'utf8')) as { tests: PromtoolTest[] }).tests;

/** promtool's series notation ('0+1x3 5x2 _x1 7') → one value per interval, undefined for `_`. */
function expandValues(notation: string): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  for (const tok of notation.trim().split(/\s+/)) {
    const m = /^(_|-?[\d.e+]+?)(?:([+-][\d.]+)?x(\d+))?$/.exec(tok);
    if (!m) throw new Error(`cannot read ${tok}`);
    const n = m[3] === undefined ? 0 : Number(m[3]);
    for (let i = 0; i <= n; i++) out.push(m[1] === '_' ? undefined : Number(m[1]) + i * Number(m[2] ?? 0));
  }
  return out;
}

const label = (series: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(series)?.[1];

describe('promtool cases against the defaults they are written for', () => {
  const t = DEFAULT_SETTINGS.thresholds;

  it('behavior: the series notation reader', () => {
    expect(expandValues('0+1x3 5x2 _x1 7 -2')).toEqual([0, 1, 2, 3, 5, 5, 5, undefined, undefined, 7, -2]);
  });

  it('default: AvalancheValidationEndedWithoutReward fires for an end within thresholds.rewardMissedWindow and not for one just beyond it', () => {
    const test = testsOf('validator.rules.test.yaml').find((x) => x.name === 'AvalancheValidationEndedWithoutReward')!;
    const last = test.alert_rule_test.at(-1)!;
    const at = parseDuration(last.eval_time)!;
    const firing = new Set(last.exp_alerts.map((a) => a.exp_labels['node_id']));
    const ages = test.input_series
      .filter((s) => s.series.startsWith('avax_validator_last_reward_timestamp_seconds{'))
      .map((s) => ({ node: label(s.series, 'node_id')!, age: at - expandValues(s.values)[0]! }));
    for (const a of ages.filter((x) => firing.has(x.node))) expect(a.age, a.node).toBeLessThan(t.rewardMissedWindow);
    const beyond = ages.filter((x) => x.age >= t.rewardMissedWindow);
    expect(beyond.length).toBeGreaterThan(0);
    // A boundary case: beyond the default window by less than an hour.
    expect(Math.min(...beyond.map((x) => x.age - t.rewardMissedWindow))).toBeLessThan(3600);
    for (const b of beyond) expect(firing.has(b.node), b.node).toBe(false);
  });

  it('default: AvalancheL1ChainStalled fires in its cases exactly where its definition with the default thresholds says so', () => {
    // The rule's definition, on the cases' per-minute samples: at minute m, a chain is stalled when it is an L1,
    // bootstrapped, its height did not change over the window, and blocks waited the whole window, or its own health
    // check (check = the chain) fails at m, or another target's height of the same chain changed in the window. Never
    // its past pace (issue 43). It fires after 5 minutes of that (for: 5m).
    const W = t.l1ChainStallWindow / 60;
    let fired = 0;
    for (const test of [...testsOf('l1-chain-stall.rules.test.yaml'), ...testsOf('l1-chain-stuck.rules.test.yaml')]) {
      expect(parseDuration(test.interval)).toBe(60);
      const chains = new Map<string, Record<string, (number | undefined)[]>>();
      for (const s of test.input_series) {
        const metric = s.series.slice(0, s.series.indexOf('{'));
        const chain = label(s.series, 'chain') ?? (metric === 'avax_health_check_healthy' ? label(s.series, 'check') : undefined);
        if (!chain) continue;
        const key = `${label(s.series, 'target')}/${chain}`;
        chains.set(key, { ...chains.get(key), [metric]: expandValues(s.values) });
      }
      const constant = (h: (number | undefined)[], m: number) => h[m - W] !== undefined && h.slice(m - W, m + 1).every((x) => x === h[m]);
      const stalled = (key: string, m: number): boolean => {
        const c = chains.get(key)!;
        const chain = key.split('/')[1]!;
        const h = c['avax_node_last_accepted_height']!;
        if (/^(P|X|C)$/.test(chain) || c['avax_node_bootstrap_finished']![m] !== 1 || m < W || !constant(h, m)) return false;
        if (c['avax_node_blocks_processing']!.slice(m - W, m + 1).every((p) => p! > 0)) return true;
        if (c['avax_health_check_healthy']?.[m] === 0) return true;
        return [...chains].some(([k, o]) => k !== key && k.endsWith(`/${chain}`) && o['avax_node_last_accepted_height']![m - W] !== undefined && !constant(o['avax_node_last_accepted_height']!, m));
      };
      for (const at of test.alert_rule_test) {
        const m = parseDuration(at.eval_time)! / 60;
        const expected = [...chains.keys()].filter((key) => [0, 1, 2, 3, 4, 5].every((back) => stalled(key, m - back))).sort();
        const got = at.exp_alerts.map((a) => `${a.exp_labels['target']}/${a.exp_labels['chain']}`).sort();
        expect(got, `${test.name} at ${at.eval_time}`).toEqual(expected);
        fired += got.length;
      }
    }
    // Each way of firing is among the cases: the blocks waiting (stuck), the failing check (quorum, idle), another target (shared).
    expect(fired).toBe(9);
  });
});
