// The virtual-time runner (backtest/src/runner.ts): the same timeline gives the same OpenMetrics
// byte for byte (seeded noise, injected clock, no wall-clock time in the series); the planned
// actions show where they must (a down node, missed scrapes, an exporter restart).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTimeline } from '../../backtest/src/runner.js';
import { parseTimeline } from '../../backtest/src/timeline.js';

const TIMELINE = `description: runner test
seed: 5
duration: 2h
fleet: { nodes: 2, validators: 30, peers: 40 }
noise:
  timeouts: { rate: 0.01 }
events:
  - { at: 20m, node: 1, do: scenario, scenario: down, for: 10m }
  - { at: 50m, do: missed-scrapes, for: 3m }
  - { at: 70m, do: exporter-restart, downtime: 2m }
  - { at: 90m, node: 0, do: upgrade, down: 1m, rebootstrap: 3m }
`;
const KEEP = new Set(['avax_up', 'avax_exporter_build_info', 'avax_chain_bootstrapped', 'avax_collector_success']);
const MIN = 60_000;

describe('runner', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  async function run() {
    const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-run-'));
    dirs.push(dir);
    const t = parseTimeline(TIMELINE, 'runner.yaml');
    const r = await runTimeline({ timeline: t, dir, keep: KEEP, fileWindowMs: 18 * 3_600_000 });
    return { r, t, text: r.files.map((f) => readFileSync(f.path, 'utf8')).join('') };
  }

  it('behavior: two runs of one timeline write the same series byte for byte; the timeline shows in them', async () => {
    const a = await run();
    const b = await run();
    expect(a.text.length).toBeGreaterThan(10_000);
    expect(b.text).toBe(a.text);
    expect(a.r.exporterErrors).toEqual([]);

    const start = a.t.startMs;
    /** value of `series` at minute m, or undefined when no sample was written */
    const at = (series: string, m: number) => {
      const line = a.text.split('\n').find((l) => l.startsWith(series + ' ') && l.endsWith(` ${(start + m * MIN) / 1000}`));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    // 121 cycles a minute apart; 3 scrapes missed, 2 cycles without an exporter
    expect(a.r.cycles).toBe(121 - 2);
    expect(a.r.missedScrapes).toBe(3);
    expect(a.r.requests.timeouts).toBeGreaterThan(0);
    // node-1 down from 20m to 30m
    expect(at('avax_up{target="node-1"}', 19)).toBe(1);
    expect(at('avax_up{target="node-1"}', 20)).toBe(0);
    expect(at('avax_up{target="node-1"}', 29)).toBe(0);
    expect(at('avax_up{target="node-1"}', 31)).toBe(1);
    // no scrape 50m-52m; none while the exporter restarts (70m-71m); a new exporter after
    for (const m of [50, 51, 52, 70, 71]) expect(at('avax_up{target="node-0"}', m), `minute ${m}`).toBeUndefined();
    expect(at('avax_up{target="node-0"}', 72)).toBe(1);
    // the upgrade: down at 90m, bootstrapping from 91m to 94m
    expect(at('avax_up{target="node-0"}', 90)).toBe(0);
    expect(at('avax_chain_bootstrapped{target="node-0",chain="P"}', 92)).toBe(0);
    expect(at('avax_chain_bootstrapped{target="node-0",chain="P"}', 100)).toBe(1);
  }, 120_000);
});

describe('runner: the moments of a node\'s life (issue 43)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('behavior: re-stakes, joins, L1 changes and peer restarts take effect and are counted; an auto-renewed validator is not re-staked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-moments-'));
    dirs.push(dir);
    // node-0 on 1.14.2 (a fixed-end validation), node-1 on 1.15.0 two weeks after Helicon (auto-renewed)
    const t = parseTimeline(
      `description: moments
seed: 8
start: '2026-10-05T00:00:00Z'
duration: 1h
fleet: { nodes: 2, validators: 30, peers: 40, versions: ['1.14.2', '1.15.0'] }
events:
  - { at: 10m, do: restake }
  - { at: 20m, node: 0, do: join, out: 3m }
  - { at: 30m, node: 1, do: l1-change }
  - { at: 40m, node: 0, do: peer-restart, share: 0.5, for: 2m }
`,
      'moments.yaml',
    );
    const r = await runTimeline({ timeline: t, dir, keep: new Set(['avax_validator_start_timestamp_seconds', 'avax_peers']), fileWindowMs: 18 * 3_600_000 });
    expect(r.exporterErrors).toEqual([]);
    expect(r.moments).toMatchObject({ restake: 1, join: 1, 'L1 change': 1, 'peer restart': 1 });
    // node-0's validation starts anew at the re-stake (10m) and at the join (23m): both seen at a cycle
    expect(r.moments['validation renewed']).toBe(2);
    const text = r.files.map((f) => readFileSync(f.path, 'utf8')).join('');
    const starts = new Set(text.split('\n').filter((l) => l.startsWith('avax_validator_start_timestamp_seconds{') && l.includes('target="node-0"') && l.includes('LpoYY')).map((l) => l.split(' ')[1]));
    expect([...starts].map(Number).filter((s) => s >= t.startMs / 1000)).toEqual([t.startMs / 1000 + 600, t.startMs / 1000 + 23 * 60]);
  }, 120_000);
});
