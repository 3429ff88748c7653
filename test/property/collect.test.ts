/**
 * Every collector's collect() and the target runner on generated node answers: mutated fixtures,
 * each error of the node client's family (with the messages collectors tolerate), and throws of
 * non-Error values. collect() returns errors instead of throwing; the runner never throws; the
 * exposition always parses.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALLS, COLLECTORS } from '../../src/collectors/index.js';
import { defaultOptions, type CollectorContext } from '../../src/collectors/define.js';
import type { TargetSpec } from '../../src/target.js';
import { targetSamples } from '../../src/metrics/target-samples.js';
import { Exposition, TargetSegment } from '../../src/metrics/exposition.js';
import { HttpError, InvalidResponseError, NetworkError, RpcError, TimeoutError, type CallTransport } from '../../src/node-client/index.js';
import type { ResolvedTarget } from '../../src/config/targets.js';
import { TargetRunner } from '../../src/scheduler/target-runner.js';
import { fakeClient, FIXTURE_NOW_MS, makeCtx } from '../collectors/fake.js';
import { fixtureOfCall } from '../fixtures/load.js';
import { cb58Id } from '../helpers/fixture-node.js';
import { mutatedAnswer, nastyString, renderRoundTrip } from '../helpers/answer-mutations.js';
import { parseExposition } from '../helpers/exposition-parser.js';
import { COLLECTOR_NAMES } from '../helpers/fault-matrix.js';
import { memoryLogger } from '../helpers/log.js';

const NUM_RUNS = 200;

/** Every call the collectors declare, with the fixture folder its answers are mutated from. */
const RPC_METHODS = [...new Set(CALLS.filter(({ call }) => call.kind === 'rpc').map(({ call }) => fixtureOfCall(call)!))];
const HEALTH_PATHS: Record<string, string> = Object.fromEntries(CALLS.flatMap(({ call }) => (call.kind === 'health' ? [[call.path, fixtureOfCall(call)!]] : [])));

/** A failed call as the node client reports it (a fresh error per call), or a throw of a non-Error. */
const failure: fc.Arbitrary<(method: string) => unknown> = fc.constantFrom(
  (m: string) => new RpcError(m, -32000, 'problem'),
  (m: string) => new RpcError(m, -32000, "couldn't get node uptime: node is not a validator"),
  (m: string) => new RpcError(m, -32000, 'no containers have been accepted'),
  (m: string) => new RpcError(m, -32000, `rpc: can't find method "${m}"`),
  (m: string) => new HttpError(m, 404, '404 page not found\n'),
  (m: string) => new HttpError(m, 503, 'API call rejected because chain is not done bootstrapping\n'),
  (m: string) => new TimeoutError(m, 300),
  (m: string) => new NetworkError(m, 'ECONNREFUSED'),
  (m: string) => new InvalidResponseError(m, 'body is not JSON'),
  () => 'a string thrown',
  () => undefined,
);

type Answer = { kind: 'answer'; value: unknown } | { kind: 'fail'; make: (method: string) => unknown };

const answerOf = (method: string): fc.Arbitrary<Answer> =>
  fc.oneof(
    { weight: 4, arbitrary: mutatedAnswer(method).map((value): Answer => ({ kind: 'answer', value })) },
    { weight: 1, arbitrary: failure.map((make): Answer => ({ kind: 'fail', make })) },
  );

interface Answers {
  rpc: Record<string, Answer>;
  health: Record<string, [Answer, number]>;
  /** GET /ext/metrics: a text body (lines of the test nodes' body, cut, with another value, or random) or a failure. */
  metrics: { kind: 'text'; value: string } | { kind: 'fail'; make: (method: string) => unknown };
}

const METRICS_LINES = readFileSync(fileURLToPath(new URL('../fixtures/ext-metrics/default.txt', import.meta.url)), 'utf8').split('\n');
const metricsLine = fc.oneof(
  fc.constantFrom(...METRICS_LINES),
  fc.tuple(fc.constantFrom(...METRICS_LINES), fc.nat()).map(([l, n]) => l.slice(0, n % (l.length + 1))),
  fc.tuple(fc.constantFrom(...METRICS_LINES), fc.string({ maxLength: 8 })).map(([l, x]) => l.replace(/ \S+$/, ` ${x}`)),
  fc.string({ maxLength: 30 }),
);
const metricsAnswer: fc.Arbitrary<Answers['metrics']> = fc.oneof(
  { weight: 4, arbitrary: fc.array(metricsLine, { maxLength: 40 }).map((ls) => ({ kind: 'text' as const, value: ls.join('\n') })) },
  { weight: 1, arbitrary: failure.map((make) => ({ kind: 'fail' as const, make })) },
);

const answers: fc.Arbitrary<Answers> = fc.record({
  rpc: fc.record(Object.fromEntries(RPC_METHODS.map((m) => [m, answerOf(m)])) as Record<string, fc.Arbitrary<Answer>>),
  health: fc.record(Object.fromEntries(Object.entries(HEALTH_PATHS).map(([path, m]) => [path, fc.tuple(answerOf(m), fc.constantFrom(200, 503))])) as Record<string, fc.Arbitrary<[Answer, number]>>),
  metrics: metricsAnswer,
});

/** What the collectors are told about the target: the chain and subnet lists come from the config. */
const targetSpec: fc.Arbitrary<Partial<TargetSpec>> = fc.record({
  reference: fc.boolean(),
  validatorNodeIds: fc.constantFrom([], ['NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv'], ['NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv', 'NodeID-4TCw4jwq7jJAXH7yPbWZyXEoa6R2KbP8a']),
  subnets: fc.constantFrom([], [cb58Id('property-l1')]),
  chains: fc.constantFrom([], ['2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'], ['P', 'mychain']),
});

/** The node of one generated set of answers (a failure is made fresh per call, as the client reports it). */
function client(a: Answers): CallTransport {
  const answer = (x: Answer, method: string) => () => {
    if (x.kind === 'answer') return x.value;
    throw x.make(method);
  };
  const m = a.metrics;
  return fakeClient(
    Object.fromEntries(Object.entries(a.rpc).map(([method, x]) => [method, answer(x, method)])),
    Object.fromEntries(Object.entries(a.health).map(([path, [x, status]]) => [path, () => ({ status, body: answer(x, `GET ${path}`)() })])),
    { '/ext/metrics': m.kind === 'fail' ? () => { throw m.make('GET /ext/metrics'); } : m.value },
    { pieces: 1 + Math.floor((m.kind === 'text' ? m.value.length : 0) / 97) },
  ).client;
}

describe('property: collect() returns errors instead of throwing, and its samples always render', () => {
  it.each(COLLECTORS.map((c) => [c.name, c] as const))('%s', async (name, collector) => {
    await fc.assert(
      fc.asyncProperty(answers, targetSpec, fc.boolean(), fc.constantFrom(undefined, '', 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv'), async (a, spec, perPeer, nodeId) => {
        const { ctx } = makeCtx(collector, client(a), {
          target: spec,
          options: { ...defaultOptions(collector.options), ...(collector.name === 'info-peers' ? { perPeer } : {}) },
          values: nodeId === undefined ? {} : { 'node-info': { nodeId } },
        });
        const res = await (collector.collect(ctx as CollectorContext) as Promise<{ samples: unknown[]; errors: unknown[] }>).catch((err: unknown) => {
          throw new Error(`${name}: collect() threw ${String(err)}`);
        });
        for (const e of res.errors) expect(e).toBeInstanceOf(Error);
        renderRoundTrip(res.samples as never);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('property: the target runner never throws on any answers, and /metrics always parses', () => {
  it('all collectors, several cycles with changing answers', async () => {
    const logger = memoryLogger('silent').logger;
    const spec = { name: 'prop', reference: false, validatorNodeIds: [], subnets: [cb58Id('property-l1')], chains: [] };
    const target: ResolvedTarget = {
      spec,
      url: 'http://127.0.0.1:1',
      headers: {},
      collectors: COLLECTOR_NAMES.map((n) => ({ name: n as never, enabled: true, intervalSeconds: 15 })),
    };
    const runner = new TargetRunner(target, {
      collectors: COLLECTORS,
      options: new Map(COLLECTORS.map((c) => [c.name, { ...defaultOptions(c.options), ...(c.name === 'info-peers' ? { perPeer: true } : {}) }])),
      baseIntervalSeconds: 15,
      collectorTimeoutSeconds: 1,
      // Every cycle's requests go to the client generated for it.
      client: () => ({
        rpc: (...a) => current!.rpc(...a),
        healthGet: (...a) => current!.healthGet(...a),
        textGet: (...a) => current!.textGet(...a),
        close: async () => {},
      }),
      logger,
      now: () => FIXTURE_NOW_MS,
    });
    let current: CallTransport | undefined;
    const exposition = new Exposition();
    try {
      await fc.assert(
        fc.asyncProperty(answers, async (a) => {
          current = client(a);
          await runner.runCycle();
          exposition.setTarget('prop', new TargetSegment(targetSamples(runner.snapshot(), [], FIXTURE_NOW_MS / 1000)));
          const p = parseExposition(Buffer.from(exposition.assemble().text).toString('utf8'));
          const success = p.samples.filter((s) => s.name === 'avax_collector_success');
          expect(success.map((s) => s.labels['collector']).sort()).toEqual([...COLLECTOR_NAMES].sort());
        }),
        { numRuns: 100 },
      );
    } finally {
      current = undefined;
    }
  });

  it('label values from answers (versions, check names, VM names) with quotes, backslashes and newlines survive collect() and rendering', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(nastyString, { minLength: 1, maxLength: 4 }), async (names) => {
        const version = { version: names[0], databaseVersion: 'v1.4.5', gitCommit: names.at(-1), rpcProtocolVersion: '45', vmVersions: Object.fromEntries(names.map((n) => [n, n])) };
        const report = { checks: Object.fromEntries(names.map((n) => [n, { timestamp: '2026-05-14T09:21:30Z', duration: 1000 }])), healthy: true };
        const c = fakeClient(
          { 'info.getNodeID': { nodeID: 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv' }, 'info.getNodeVersion': version, 'info.getNetworkID': { networkID: '1' }, 'info.getNetworkName': { networkName: names[0] } },
          { '/ext/health': { status: 200, body: report }, '/ext/health/readiness': { status: 200, body: report }, '/ext/health/liveness': { status: 200, body: report } },
        ).client;
        for (const name of ['node-info', 'health']) {
          const collector = COLLECTORS.find((x) => x.name === name)!;
          const { ctx } = makeCtx(collector, c, { options: defaultOptions(collector.options) });
          const res = await collector.collect(ctx);
          expect(res.errors).toEqual([]);
          renderRoundTrip(res.samples);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
