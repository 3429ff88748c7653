// Staleness in the backtest (issue 43 point 3): promtool's OpenMetrics backfill writes no staleness marker,
// so with Prometheus' default 5-minute lookback a series whose scrapes stop stayed visible for 5 minutes and
// AvalancheExporterAbsent fired 9m15s after the exporter stopped (deadline 6m30s). A live Prometheus marks
// every series of the last scrape stale at the next scrape that lacks it (a failed scrape too). The backtest's
// Prometheus runs with a lookback of one scrape interval less 1 ms, and the promtool cross-check writes
// `stale` where a series stopped: both must make a series gone at the first scrape slot without it, exactly
// where promtool's own engine, given the marker, has it gone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenMetricsWriter } from '../../backtest/src/openmetrics.js';
import { need, onPath, runProgram } from '../../backtest/src/programs.js';
import { backfill, startPrometheus, stalenessLookbackMs } from '../../backtest/src/prometheus.js';
import { seriesValues } from '../../backtest/src/promtool-check.js';

const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const MISSING = ['promtool', 'prometheus'].filter((p) => !onPath(p));
const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5);

describe('staleness markers in the promtool cross-check', () => {
  const at = (...mins: number[]) => ({ metric: { __name__: 'x' }, values: mins.map((m) => ({ t: T0 + m * MIN, v: 1 })) });

  it('default: the first scrape slot without a sample after one with it is `stale`, the others `_`', () => {
    expect(seriesValues(at(0, 1, 2, 5, 6), T0, MIN, 9)).toBe('1 1 1 stale _ 1 1 stale _');
    // a series that starts late has no marker before its first sample; one that runs to the end has none after
    expect(seriesValues(at(2, 3), T0, MIN, 4)).toBe('_ _ 1 1');
  });

  it('behavior: a one-scrape gap is one marker (the series is back at the next scrape)', () => {
    expect(seriesValues(at(0, 2, 4), T0, MIN, 5)).toBe('1 stale 1 stale 1');
  });

  it('default: the lookback is one scrape interval less 1 ms', () => {
    expect(stalenessLookbackMs(MIN)).toBe(59_999);
    expect(stalenessLookbackMs(30_000)).toBe(29_999);
  });
});

describe.skipIf(MISSING.length > 0 && !CI)('staleness: the backtest Prometheus = promtool with staleness markers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-stale-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('behavior: a series that stops after the scrape at 10m is absent from the 11m evaluation on, and absent() for 2m fires at 13m in both', async () => {
    expect(MISSING, 'promtool and prometheus must be on PATH under CI').toEqual([]);
    // `gone` is scraped at 0..10 min, `kept` at 0..20 min, one scrape a minute
    const w = new OpenMetricsWriter(join(dir, 'om'), 18 * 3_600_000, 'stale');
    for (let m = 0; m <= 20; m++) w.scrape(T0 + m * MIN, m <= 10 ? ['gone 1', 'kept 1'] : ['kept 1']);
    await backfill(w.close(), join(dir, 'tsdb'));
    const prom = await startPrometheus(join(dir, 'tsdb'), join(dir, 'prom'), 15_000, MIN);
    let absentAt: number[];
    try {
      const r = await prom.queryRange('absent(gone)', T0, T0 + 20 * MIN, 15_000);
      absentAt = (r[0]?.values ?? []).map((p) => (p.t - T0) / 1000);
      // the default 5-minute lookback would have kept it until 15m (closed window: absent from 15m15s)
      const kept = await prom.queryRange('kept', T0, T0 + 20 * MIN, 15_000);
      expect(kept[0]!.values).toHaveLength(81);
    } finally {
      await prom.stop();
    }
    expect(absentAt[0]).toBe(11 * 60);
    expect(absentAt).toHaveLength((20 - 11) * 4 + 1);

    // promtool's engine, given the marker seriesValues writes, has `gone` absent at 11m too: an absent() rule
    // with for 2m is pending at 11m and fires at 13m, not before
    writeFileSync(join(dir, 'r.yaml'), 'groups:\n- name: g\n  rules:\n  - alert: Gone\n    expr: absent(gone)\n    for: 2m\n');
    const values = seriesValues({ metric: { __name__: 'gone' }, values: Array.from({ length: 11 }, (_, m) => ({ t: T0 + m * MIN, v: 1 })) }, T0, MIN, 21);
    expect(values.split(' ').slice(9, 13)).toEqual(['1', '1', 'stale', '_']);
    const test = [
      'rule_files: [r.yaml]',
      'evaluation_interval: 15s',
      'tests:',
      '- interval: 1m',
      '  input_series:',
      `  - { series: gone, values: "${values}" }`,
      '  alert_rule_test:',
      '  - { eval_time: 12m45s, alertname: Gone, exp_alerts: [] }',
      '  - { eval_time: 13m, alertname: Gone, exp_alerts: [{ exp_labels: {} }] }',
    ].join('\n');
    writeFileSync(join(dir, 't.yaml'), test);
    const out = await runProgram(need('promtool', 'the staleness test'), ['test', 'rules', 't.yaml'], { cwd: dir, timeoutMs: 60_000 });
    expect(out.stdout + out.stderr).toContain('SUCCESS');
    // and the backtest's evaluations: absent from 11m, so pending at 11m and firing at 11m + 2m = 13m
    expect(absentAt[0]! + 120).toBe(13 * 60);
  }, 120_000);
});
