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
    // bootstrapped, its height did not change over the window, and blocks waited the whole window, or it was busy
    // (no completed pause ≥ l1ChainBusyPause within the look-back, seen since the look-back's start, silent for
    // less than the look-back). It fires after 5 minutes of that (for: 5m).
    const W = t.l1ChainStallWindow / 60;
    const L = t.l1ChainLookback / 60;
    let fired = 0;
    for (const test of [...testsOf('l1-chain-stall.rules.test.yaml'), ...testsOf('l1-chain-stuck.rules.test.yaml')]) {
      expect(parseDuration(test.interval)).toBe(60);
      const chains = new Map<string, Record<string, (number | undefined)[]>>();
      for (const s of test.input_series) {
        const metric = s.series.slice(0, s.series.indexOf('{'));
        const key = `${label(s.series, 'target')}/${label(s.series, 'chain')}`;
        if (!label(s.series, 'chain')) continue;
        chains.set(key, { ...chains.get(key), [metric]: expandValues(s.values) });
      }
      const stalled = (c: Record<string, (number | undefined)[]>, chain: string, m: number): boolean => {
        const h = c['avax_node_last_accepted_height']!;
        const ts = c['avax_node_last_accepted_timestamp_seconds']!;
        const proc = c['avax_node_blocks_processing']!;
        if (/^(P|X|C)$/.test(chain) || c['avax_node_bootstrap_finished']![m] !== 1 || m < W || h[m - W] === undefined) return false;
        for (let i = m - W; i <= m; i++) if (h[i] !== h[m]) return false;
        let waiting = true;
        for (let i = m - W; i <= m; i++) if (!(proc[i]! > 0)) waiting = false;
        if (waiting) return true;
        if (m - L < 0 || ts[m - L] === undefined || m * 60 - ts[m]! >= t.l1ChainLookback) return false;
        for (let i = m - L + 1; i <= m; i++) if (ts[i]! - ts[i - 1]! >= t.l1ChainBusyPause) return false;
        return true;
      };
      for (const at of test.alert_rule_test) {
        const m = parseDuration(at.eval_time)! / 60;
        const expected = [...chains].filter(([key, c]) => [0, 1, 2, 3, 4, 5].every((back) => stalled(c, key.split('/')[1]!, m - back))).map(([key]) => key);
        const got = at.exp_alerts.map((a) => `${a.exp_labels['target']}/${a.exp_labels['chain']}`);
        expect(got, `${test.name} at ${at.eval_time}`).toEqual(expected);
        fired += got.length;
      }
    }
    expect(fired).toBe(2);
  });
});
