// The runner notices a node that restarted between two cycles and runs every collector again at once
// (issue 23 item 3): a new process mark (node-info's version, node-metrics' process start time), a
// report saying the process has just started (health: every check not yet run), and the transport's
// hint that the node closed every connection, which makes the collectors that identify the process
// run at once.
import { describe, expect, it } from 'vitest';
import type { ResolvedTarget } from '../../src/config/targets.js';
import { defineCollector, type Collector } from '../../src/collectors/define.js';
import { TargetRunner, type RunnerClient } from '../../src/scheduler/target-runner.js';
import { memoryLogger } from '../helpers/log.js';

interface Marks {
  process?: string;
  started?: boolean;
}

/** A collector that counts its runs; `marks` is what its value says about the node. */
function counting(name: string, interval: number, marks?: () => Marks) {
  let runs = 0;
  const c = defineCollector({
    name,
    description: name,
    needs: '',
    interval,
    metrics: [],
    calls: [],
    collect: async () => {
      runs++;
      return { value: marks ? { marks: marks() } : {}, samples: [], errors: [] };
    },
    ...(marks ? { identifies: (v: { marks: Marks }) => v.marks } : {}),
  } as never) as Collector;
  return { c, runs: () => runs };
}

function setup(collectors: Collector[], client: Partial<RunnerClient> = {}) {
  const target: ResolvedTarget = {
    spec: { name: 'n', reference: false, validatorNodeIds: [], subnets: [], chains: [] },
    url: 'http://127.0.0.1:1',
    headers: {},
    collectors: collectors.map((c) => ({ name: c.name, enabled: true, intervalSeconds: c.interval })),
  };
  const log = memoryLogger('info');
  const full: RunnerClient = {
    rpc: async () => undefined as never,
    healthGet: async () => undefined as never,
    textGet: async () => {},
    close: async () => {},
    ...client,
  };
  const r = new TargetRunner(target, { collectors, options: new Map(), baseIntervalSeconds: 15, collectorTimeoutSeconds: 1, client: () => full, logger: log.logger });
  const restarts = () => log.lines().filter((l) => l['event'] === 'node_restarted').length;
  return { r, restarts };
}

describe('target runner: a node restarted between two cycles', () => {
  it('behavior: a new process mark runs every collector in that cycle; the same mark does not', async () => {
    let version = 'v1';
    const id = counting('node-info', 15, () => ({ process: version }));
    const slow = counting('info-upgrades', 300);
    const { r, restarts } = setup([id.c, slow.c]);
    await r.runCycle(); // start-up: both
    await r.runCycle();
    await r.runCycle();
    expect(slow.runs()).toBe(1);
    version = 'v2';
    await r.runCycle();
    expect(slow.runs()).toBe(2);
    expect(restarts()).toBe(1);
    await r.runCycle();
    expect(slow.runs()).toBe(2);
    expect(restarts()).toBe(1);
  });

  it('behavior: "just started" turning true is a restart; staying true (the checks have not run yet) is not another one', async () => {
    let started = false;
    const health = counting('health', 15, () => ({ started }));
    const slow = counting('info-acps', 300);
    const { r, restarts } = setup([health.c, slow.c]);
    await r.runCycle();
    started = true;
    await r.runCycle();
    expect(slow.runs()).toBe(2);
    await r.runCycle();
    expect(slow.runs()).toBe(2);
    started = false;
    await r.runCycle();
    expect(restarts()).toBe(1);
  });

  it('behavior: the first mark seen (start-up) is no restart', async () => {
    const id = counting('node-info', 15, () => ({ process: 'v1', started: true }));
    const slow = counting('info-acps', 300);
    const { r, restarts } = setup([id.c, slow.c]);
    await r.runCycle();
    await r.runCycle();
    expect(restarts()).toBe(0);
    expect(slow.runs()).toBe(1);
  });

  it('behavior: the node closed every connection → the collectors that identify its process run at once', async () => {
    let start = '1000';
    let hint = false;
    const metrics = counting('node-metrics', 60, () => ({ process: start }));
    const slow = counting('info-acps', 300);
    const { r, restarts } = setup([metrics.c, slow.c], { takeRestartHint: () => hint });
    const next = async (h: boolean) => {
      hint = h;
      await r.runCycle();
    };
    await next(true); // start-up (the hint is not asked at start-up)
    expect(metrics.runs()).toBe(1);
    // A hint: node-metrics runs although not due; the same start time: no restart.
    await next(true);
    expect(metrics.runs()).toBe(2);
    expect(restarts()).toBe(0);
    start = '2000';
    await next(false); // no hint: not due, not run
    expect(metrics.runs()).toBe(2);
    await next(true); // hint: runs, sees the new start time; every collector runs again (it too)
    expect(metrics.runs()).toBe(4);
    expect(restarts()).toBe(1);
    expect(slow.runs()).toBe(2);
  });
});
