import { describe, expect, it } from 'vitest';
import { defineCollector, type Collector, type CollectorContext, type CollectorName } from '../../src/collectors/define.js';
import { targetSamples } from '../../src/metrics/target-samples.js';
import { HttpError } from '../../src/node-client/errors.js';
import type { ResolvedTarget } from '../../src/config/targets.js';
import { NodeClient } from '../../src/node-client/client.js';
import { rpcCall } from '../../src/node-client/call.js';
import { TargetRunner } from '../../src/scheduler/target-runner.js';
import { memoryLogger } from '../helpers/log.js';

type Out = { samples: { name: string; labels: Record<string, string>; value: number }[]; errors: Error[] };
const mk = (name: string, collect: (ctx: CollectorContext) => Promise<Out>, every = 15, reads: CollectorName[] = []): Collector =>
  defineCollector({
    name,
    description: name,
    needs: '',
    interval: every,
    nodeSpecific: name === 'health',
    metrics: [],
    calls: [],
    reads,
    collect: collect as never,
  });

const target = (names: string[], reference = false, intervals: Record<string, number> = {}): ResolvedTarget => ({
  spec: { name: 'n1', reference, validatorNodeIds: [], subnets: [], chains: [] },
  url: 'http://user:s3cretpass@127.0.0.1:1/prefix-token-abcdef?apikey=qwerty123',
  headers: { Authorization: 'Bearer topsecret-token' },
  collectors: names.map((n) => ({ name: n as never, enabled: true, intervalSeconds: intervals[n] ?? 15 })),
});

function runner(collectors: Collector[], t: ResolvedTarget, timeout = 1, phaseOffset?: number) {
  const log = memoryLogger();
  const r = new TargetRunner(t, {
    phaseOffset,
    collectors,
    options: new Map(),
    baseIntervalSeconds: 15,
    collectorTimeoutSeconds: timeout,
    client: (t, onRequest) => new NodeClient({ url: t.url, headers: { ...t.headers }, timeoutMs: 1000, maxResponseBytes: 1024, connections: 1, onRequest }),
    logger: log.logger,
    now: () => 1_700_000_000_000,
  });
  return { r, log, samples: () => targetSamples(r.snapshot(), [], 1_700_000_000), status: () => r.snapshot() };
}

const get = (samples: { name: string; labels: Record<string, string>; value: number }[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).map((s) => s.value);

describe('target runner', () => {
  it('behavior: a fleet\'s targets take turns for a slow collector (phaseOffset: their place in the list), each at its own interval', async () => {
    // A 60 s collector (4 base cycles) on four targets with offsets 0..3: after start-up each runs it
    // every 4th cycle, and no two of them in the same cycle.
    const ticksOf = async (offset: number): Promise<number[]> => {
      const ran: number[] = [];
      let tick = 0;
      const slow = mk('node-metrics', async () => {
        ran.push(tick);
        return { samples: [], errors: [] };
      }, 60);
      const { r } = runner([slow], target(['node-metrics'], false, { 'node-metrics': 60 }), 1, offset);
      for (tick = 0; tick < 16; tick++) await r.runCycle();
      return ran;
    };
    const runs = await Promise.all([0, 1, 2, 3].map(ticksOf));
    for (const ran of runs) {
      expect(ran[0]).toBe(0); // start-up runs every collector
      expect(ran.slice(1).every((t, i, a) => i === 0 || t - a[i - 1]! === 4)).toBe(true);
      expect(ran.length).toBe(4); // tick 0 and one phased run in each of ticks 4-7, 8-11, 12-15
    }
    const later = runs.map((ran) => ran[1]! % 4);
    expect(new Set(later).size).toBe(4);
  });

  it('behavior: one failing collector leaves the others intact', async () => {
    let fail = false;
    const good = mk('node-info', async () => ({ samples: [{ name: 'avax_peers', labels: {}, value: 7 }], errors: [] }));
    const flaky = mk('info-peers', async () => (fail ? { samples: [], errors: [new HttpError('info.peers', 500, 'boom')] } : { samples: [{ name: 'avax_peers_silent', labels: {}, value: 2 }], errors: [] }));
    const throws = mk('chain-height', async () => {
      throw new Error('bug in collector');
    });
    const { r, log, samples, status } = runner([good, flaky, throws], target(['node-info', 'info-peers', 'chain-height']));
    await r.runCycle();
    let s = samples();
    expect(get(s, 'avax_collector_success', { collector: 'node-info' })).toEqual([1]);
    expect(get(s, 'avax_collector_success', { collector: 'info-peers' })).toEqual([1]);
    expect(get(s, 'avax_collector_success', { collector: 'chain-height' })).toEqual([0]);
    expect(get(s, 'avax_peers_silent')).toEqual([2]);
    fail = true;
    await r.runCycle();
    s = samples();
    expect(get(s, 'avax_collector_success', { collector: 'info-peers' })).toEqual([0]);
    expect(get(s, 'avax_peers_silent')).toEqual([]); // no value from a bad answer
    expect(get(s, 'avax_peers', { target: 'n1' })).toEqual([7]);
    expect(get(s, 'avax_collector_last_success_timestamp_seconds', { collector: 'info-peers' })).toEqual([1_700_000_000]);
    await r.runCycle();
    // one log line per state change: info-peers failed once even though it failed twice
    const failures = log.lines().filter((l) => l['event'] === 'collector_failed' && l['collector'] === 'info-peers');
    expect(failures).toHaveLength(1);
    expect(failures[0]!['err']).toContain('HTTP 500');
    fail = false;
    await r.runCycle();
    expect(log.lines().filter((l) => l['event'] === 'collector_recovered' && l['collector'] === 'info-peers')).toHaveLength(1);
    await r.close();
  });

  it('behavior: a collector that ignores its deadline is cut off and the cycle ends', async () => {
    const hang = mk('health', () => new Promise(() => {}));
    const ok = mk('node-info', async () => ({ samples: [], errors: [] }));
    const { r, samples, status } = runner([hang, ok], target(['health', 'node-info']), 0.05);
    const t0 = Date.now();
    await r.runCycle();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(get(samples(), 'avax_collector_success', { collector: 'health' })).toEqual([0]);
    expect(status().collectors.find((c) => c.name === 'health')!.errors[0]).toContain('did not finish');
    await r.close();
  });

  it('behavior: collectors run on their own interval, node-specific ones are skipped for reference targets', async () => {
    let runs = 0;
    const slow = mk('platform-validators-full', async () => {
      runs++;
      return { samples: [], errors: [] };
    });
    const health = mk('health', async () => ({ samples: [], errors: [] }));
    const { r, samples, status } = runner([slow, health], target(['platform-validators-full', 'health'], true, { 'platform-validators-full': 60 }));
    for (let i = 0; i < 5; i++) await r.runCycle();
    expect(runs).toBe(2); // ticks 0 and 4
    expect(status().collectors.find((c) => c.name === 'health')!.enabled).toBe(false);
    await r.close();
  });

  it('error: credentials of the URL and headers never reach logs or status', async () => {
    const leaky = mk('node-info', async () => ({
      samples: [],
      errors: [new Error('failed for http://user:s3cretpass@127.0.0.1:1/prefix-token-abcdef?apikey=qwerty123 with Bearer topsecret-token')],
    }));
    const { r, log, samples, status } = runner([leaky], target(['node-info']));
    await r.runCycle();
    const text = log.raw() + JSON.stringify(status());
    for (const secret of ['s3cretpass', 'topsecret-token', 'qwerty123', 'prefix-token-abcdef']) expect(text).not.toContain(secret);
    expect(text).toContain('<redacted>');
    await r.close();
  });

  it('behavior: avax_up follows whether the node gave any valid answer in the cycle', async () => {
    const version = rpcCall({ method: 'info.getNodeVersion', endpoint: '/ext/info', result: (await import('zod')).z.unknown() });
    const c = { ...mk('node-info', async (ctx) => {
      await ctx.call(version, undefined);
      return { samples: [], errors: [] };
    }), calls: [version] };
    const { r, samples, status } = runner([c], target(['node-info']));
    await r.runCycle(); // port 1 refuses: no valid answer
    expect(get(samples(), 'avax_up')).toEqual([0]);
    expect(get(samples(), 'avax_rpc_requests_total', { method: 'info.getNodeVersion', result: 'network_error' })).toEqual([1]);
    expect(get(samples(), 'avax_rpc_requests_total', { method: 'info.getNodeVersion', result: 'ok' })).toEqual([0]);
    await r.close();
  });

  it('behavior: avax_collection_skipped_ticks_total is 0 from the first cycle and counts the ticks the scheduler skipped, published with the cycle that ran over', async () => {
    const c = mk('node-info', async () => ({ samples: [], errors: [] }));
    const { r, samples } = runner([c], target(['node-info']));
    await r.runCycle();
    expect(get(samples(), 'avax_collection_skipped_ticks_total', { target: 'n1' })).toEqual([0]);
    r.noteSkippedTick();
    r.noteSkippedTick();
    await r.runCycle();
    expect(get(samples(), 'avax_collection_skipped_ticks_total', { target: 'n1' })).toEqual([2]);
    await r.close();
  });

  it('behavior: a collector declaring `after` runs once the collectors it reads have finished, in the same cycle', async () => {
    const order: string[] = [];
    const provider = mk('platform-validators-full', async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('provider');
      return { samples: [], errors: [] };
    });
    const reader = mk('info-peers', async () => (order.push('reader'), { samples: [], errors: [] }), 15, ['platform-validators-full']);
    const other = mk('health', async () => (order.push('other'), { samples: [], errors: [] }));
    const { r, samples, status } = runner([reader, provider, other], target(['info-peers', 'platform-validators-full', 'health']));
    await r.runCycle();
    expect(order.indexOf('reader')).toBeGreaterThan(order.indexOf('provider'));
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('provider')); // not held back
    await r.close();
  });

  it('behavior: `readsLatest` waits only while there is no value yet (start-up), then reads the value of the last finished run without waiting', async () => {
    let n = 0;
    const provider = defineCollector({
      name: 'node-ip',
      description: '',
      needs: '',
      interval: 15,
      metrics: [],
      calls: [],
      collect: async () => {
        await new Promise((r) => setTimeout(r, 20));
        n++;
        return { value: { ip: `10.0.0.${n}:9651` }, samples: [], errors: [] };
      },
    });
    const seen: (string | undefined)[] = [];
    const reader = defineCollector({
      name: 'node-info',
      description: '',
      needs: '',
      interval: 15,
      metrics: [],
      calls: [],
      readsLatest: ['node-ip'],
      collect: async (ctx) => {
        await new Promise((r) => setTimeout(r, 60)); // finishes after the provider, and still sees its previous value
        seen.push(ctx.read('node-ip')?.ip);
        return { samples: [], errors: [] };
      },
    });
    const { r } = runner([reader as Collector, provider as Collector], target(['node-info', 'node-ip']));
    for (let i = 0; i < 3; i++) await r.runCycle();
    // Start-up: no value yet, so the reader ran after the provider (issue 23 item 7: the ip label from
    // the first scrape); then it runs beside it and sees the previous cycle's value.
    expect(seen).toEqual(['10.0.0.1:9651', '10.0.0.1:9651', '10.0.0.2:9651']);
    await r.close();
  });

  it('behavior: a cycle that made no request (nothing to ask) leaves avax_up as it was', async () => {
    const idle = mk('platform-validators', async () => ({ samples: [], errors: [] }));
    const { r, samples, status } = runner([idle], target(['platform-validators']));
    await r.runCycle();
    expect(get(samples(), 'avax_up')).toEqual([]);
    await r.close();
  });
});
