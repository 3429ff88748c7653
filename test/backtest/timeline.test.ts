// The timeline format and its loader (backtest/src/timeline.ts): defaults, YAML and JSON, and errors
// that name the file and the path of the bad value; the plan drawn from a timeline (plan.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSpanMs, planTimeline } from '../../backtest/src/plan.js';
import { DEFAULT_START_MS, faultsOf, parseTimeline, TimelineError } from '../../backtest/src/timeline.js';

const LIBRARY = resolve(import.meta.dirname, '../../backtest/timelines');
const README = resolve(import.meta.dirname, '../../backtest/README.md');
const MIN = 60_000;

const minimal = `description: test
seed: 3
duration: 2h
fleet: { nodes: 2 }
`;

function problems(text: string, file = 't.yaml'): string[] {
  try {
    parseTimeline(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(TimelineError);
    expect((e as Error).message).toContain(file);
    return [...(e as TimelineError).problems];
  }
  throw new Error('expected a TimelineError');
}

describe('timeline loader', () => {
  it('default: a minimal timeline gets its defaults and its file name', () => {
    const t = parseTimeline(minimal, 'dir/my-fleet.yaml');
    expect(t).toMatchObject({ name: 'my-fleet', startMs: DEFAULT_START_MS, duration: 2 * 3_600_000, seed: 3, events: [], noise: {} });
    expect(t.fleet).toEqual({ nodes: 2, validators: 60, peers: 80, vantages: 0, watchL1: true, reference: false, adminLogger: false });
  });

  it('default: JSON works like YAML', () => {
    const t = parseTimeline(JSON.stringify({ description: 'x', seed: 1, duration: '90m', fleet: { nodes: 1 }, events: [{ at: '10m', node: 0, do: 'scenario', scenario: 'down', for: '5m' }] }), 'x.json');
    expect(t.events[0]).toMatchObject({ at: 10 * MIN, for: 5 * MIN, scenario: 'down' });
  });

  it('behavior: a bad duration names its path and shows the value', () => {
    expect(problems(minimal + 'events:\n  - { at: 15 min, do: scenario, scenario: down }\n')).toEqual([
      'events[0].at: expected an offset from the start like 90s, 15m, 2h30m or 7d, got "15 min"',
    ]);
  });

  it('behavior: an unknown scenario lists the valid ones', () => {
    const [p] = problems(minimal + 'events:\n  - { at: 1h, do: scenario, scenario: donw }\n');
    expect(p).toMatch(/^events\[0\]\.scenario: unknown scenario "donw"; valid: healthy, bootstrapping, /);
  });

  it('behavior: an event after the end, a node out of the fleet and a node on an exporter event are refused together', () => {
    const text = minimal + 'events:\n  - { at: 3h, do: scenario, scenario: down }\n  - { at: 1h, node: 2, do: restart }\n  - { at: 1h, node: 0, do: exporter-restart, downtime: 10s }\n';
    expect(problems(text)).toEqual([
      'events[0].at: 10800s is after the end of the timeline (7200s)',
      'events[1].node: 2 is not in a fleet of 2 (0 to 1)',
      'events[2].node: exporter-restart concerns the exporter, not a node',
    ]);
  });

  it('behavior: unknown keys, a missing `for` and a bad rate are refused', () => {
    const p = problems(minimal.replace('seed: 3', 'seed: 3\ncolour: red') + 'events:\n  - { at: 1h, do: exporter-down }\n  - { at: 1h, node: 0, do: timeouts, rate: 2, for: 5m }\n');
    expect(p.some((x) => x.includes('colour'))).toBe(true);
    expect(p.some((x) => x.startsWith('events[0].for'))).toBe(true);
    expect(p.some((x) => x.startsWith('events[1].rate'))).toBe(true);
  });

  it('behavior: not YAML at all', () => {
    expect(problems('a: [1, 2\n')[0]).toMatch(/^not YAML: /);
  });

  it('default: faults are the events with expectations', () => {
    const t = parseTimeline(minimal + 'events:\n  - { at: 1h, node: 0, do: restart }\n  - { at: 1h, node: 1, do: scenario, scenario: down, for: 10m, expect: [{ alert: AvalancheTargetDown }] }\n', 't.yaml');
    expect(faultsOf(t).map((f) => f.index)).toEqual([1]);
    expect(t.events[1]!.expect![0]).toEqual({ alert: 'AvalancheTargetDown', labels: {} });
  });

  it('default: the timeline of backtest/README.md ("A timeline of your own") loads, with each kind of event and noise', () => {
    const text = readFileSync(README, 'utf8');
    const section = text.slice(text.indexOf('## A timeline of your own'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const t = parseTimeline(yaml, 'readme.yaml');
    expect(new Set(t.events.map((e) => e.do))).toEqual(new Set(['scenario', 'upgrade', 'exporter-down', 'exporter-restart', 'timeouts', 'missed-scrapes', 'restart', 'restake', 'join', 'l1-change', 'peer-restart']));
    expect(Object.keys(t.noise).sort()).toEqual(['exporterRestarts', 'joins', 'l1Changes', 'missedScrapes', 'peerRestarts', 'restakes', 'restarts', 'slow', 'timeouts', 'upgrades']);
    expect(faultsOf(t)).toHaveLength(1);
  });

  it('default: every shipped timeline loads; the library has the healthy weeks and one fault timeline per alert file', () => {
    const files = readdirSync(LIBRARY).filter((f) => f.endsWith('.yaml'));
    const timelines = files.map((f) => parseTimeline(readFileSync(join(LIBRARY, f), 'utf8'), f));
    const healthy = timelines.filter((t) => t.name.startsWith('healthy-'));
    expect(healthy.reduce((n, t) => n + (t.fleet.nodes * t.duration) / (7 * 86_400_000), 0)).toBeGreaterThanOrEqual(40);
    expect(healthy.every((t) => t.fleet.nodes >= 10 && faultsOf(t).length === 0)).toBe(true);
    // Helicon-era weeks among them (issue 43): 1.15.0 nodes after its activation on mainnet, auto-renewed validators
    const helicon = healthy.filter((t) => t.fleet.versions?.every((v) => v === '1.15.0') && t.fleet.versions.length === t.fleet.nodes && t.startMs >= Date.UTC(2026, 8, 23));
    expect(helicon.reduce((n, t) => n + (t.fleet.nodes * t.duration) / (7 * 86_400_000), 0)).toBeGreaterThanOrEqual(20);
    // every healthy week has each moment in which monitors cry wolf as noise with a rate (no re-stake of an auto-renewed validator)
    for (const t of healthy) expect(Object.keys(t.noise), t.name).toEqual(expect.arrayContaining(['joins', 'l1Changes', 'peerRestarts', 'exporterRestarts', ...(helicon.includes(t) ? [] : ['restakes'])]));
    for (const t of timelines.filter((x) => x.name.startsWith('alert-'))) expect(faultsOf(t).length, t.name).toBeGreaterThan(0);
  });
});

describe('plan', () => {
  const noisy = parseTimeline(
    `description: noisy
seed: 9
duration: 14d
fleet: { nodes: 4 }
noise:
  upgrades: { every: 3d, down: [30s, 2m], rebootstrap: [2m, 8m] }
  slow: { every: 2d, for: [15s, 1m] }
  exporterRestarts: { every: 2d, downtime: [5s, 30s] }
events:
  - { at: 5d, node: 2, do: scenario, scenario: down, for: 1h, expect: [{ alert: AvalancheTargetDown }] }
`,
    'noisy.yaml',
  );

  it('default: the same timeline gives the same plan; another seed another one', () => {
    expect(planTimeline(noisy)).toEqual(planTimeline(noisy));
    expect(planTimeline({ ...noisy, seed: 10 }).actions).not.toEqual(planTimeline(noisy).actions);
  });

  it('default: actions are sorted; noise keeps clear of the fault on its node and never overlaps itself', () => {
    const p = planTimeline(noisy);
    expect(p.actions.map((a) => a.atMs)).toEqual([...p.actions.map((a) => a.atMs)].sort((a, b) => a - b));
    expect(p.noise.length).toBeGreaterThan(10);
    const fault = { from: 5 * 86_400_000 - 30 * MIN, to: 5 * 86_400_000 + 60 * MIN + 60 * MIN };
    for (const n of p.noise.filter((x) => x.node === 2)) expect(n.endMs <= fault.from || n.startMs >= fault.to, JSON.stringify(n)).toBe(true);
    for (const node of [undefined, 0, 1, 2, 3]) {
      const mine = p.noise.filter((x) => x.node === node);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.startMs).toBeGreaterThanOrEqual(mine[i - 1]!.endMs);
    }
  });

  it('behavior: the moments of a node\'s life (issue 43) are drawn apart: the noise drawn before them does not move', () => {
    const more = { ...noisy, noise: { ...noisy.noise, restakes: { every: 5 * 86_400_000 }, joins: { every: 7 * 86_400_000, out: [2 * MIN, 8 * MIN] as const }, l1Changes: { every: 3 * 86_400_000 }, peerRestarts: { every: 2 * 86_400_000, share: [0.1, 0.3] as const, for: [30_000, 3 * MIN] as const } } };
    const p = planTimeline(more);
    const old = new Set(['upgrade', 'slow', 'exporter restart']);
    expect(p.noise.filter((n) => old.has(n.cause))).toEqual(planTimeline(noisy).noise);
    expect(new Set(p.noise.map((n) => n.cause))).toEqual(new Set([...old, 'restake', 'join', 'L1 change', 'peer restart']));
    // a join: out of the set, then a validator again with a new registration, at the end of its spell
    const join = p.noise.find((n) => n.cause === 'join')!;
    const steps = p.actions.filter((a) => a.cause === 'join' && 'node' in a.action && a.action.node === join.node && a.atMs >= join.startMs && a.atMs <= join.endMs);
    expect(steps.map((a) => [a.atMs - join.startMs, a.action.kind === 'scenario' ? a.action.scenario : a.action.kind])).toEqual([[0, 'not-a-validator'], [join.endMs - join.startMs, 'healthy'], [join.endMs - join.startMs, 'join']]);
    expect(join.endMs - join.startMs).toBeGreaterThanOrEqual(2 * MIN);
    const restart = p.actions.find((a) => a.action.kind === 'peer-restart')!.action as { share: number; forMs: number };
    expect(restart.share).toBeGreaterThanOrEqual(0.1);
    expect(restart.share).toBeLessThanOrEqual(0.3);
  });

  it('behavior: a scenario without `for` is never switched back: it lasts until the end (its alerts stay its own)', () => {
    const t = parseTimeline(`${minimal}events:\n  - { at: 30m, node: 1, do: scenario, scenario: validator-expiring }\n  - { at: 1h, node: 0, do: scenario, scenario: slow, for: 10m }\n`, 'span.yaml');
    expect(t.events.map((e) => eventSpanMs(e, t.duration))).toEqual([90 * MIN, 10 * MIN]);
  });

  it('default: an upgrade is down, then bootstrapping, then healthy', () => {
    const p = planTimeline(noisy);
    const up = p.noise.find((n) => n.cause === 'upgrade')!;
    const steps = p.actions.filter((a) => a.cause === 'upgrade' && a.atMs >= up.startMs && a.atMs <= up.endMs && 'node' in a.action && a.action.node === up.node);
    expect(steps.map((a) => (a.action.kind === 'scenario' ? a.action.scenario : a.action.kind))).toEqual(['down', 'bootstrapping', 'healthy']);
  });
});
