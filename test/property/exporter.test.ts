/**
 * The whole exporter (real node client, runner, exposition, HTTP server) against a node whose
 * every answer is generated: mutated results, JSON-RPC errors with nasty messages, garbage bodies,
 * the plain-text error statuses. Every cycle ends, /metrics always parses, promtool accepts a
 * sample of them, and the exporter recovers once the node answers normally again.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import { mutatedAnswer, nastyString } from '../helpers/answer-mutations.js';
import { find } from '../helpers/exposition-parser.js';
import { COLLECTOR_NAMES, matrixArgv, scrapeParsed, TARGET } from '../helpers/fault-matrix.js';
import { startFaultNode, type FaultHandler, type FaultNode, type RequestInfo } from '../helpers/fault-node.js';
import { promtoolCheck } from '../helpers/promtool.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { memoryLogger } from '../helpers/log.js';

const NUM_RUNS = 40;

const FIXTURE_OF: Record<string, string> = {
  'GET /ext/health': 'health.health',
  'GET /ext/health/readiness': 'health.readiness',
  'GET /ext/health/liveness': 'health.liveness',
};
const METHODS = [
  'info.getNodeID', 'info.getNodeVersion', 'info.getNetworkID', 'info.getNetworkName', 'info.isBootstrapped', 'info.peers', 'info.uptime',
  'info.upgrades', 'platform.getCurrentValidators', 'platform.getHeight', 'platform.getTimestamp', 'avm.getHeight', 'eth_blockNumber',
  'index.getLastAccepted', ...Object.keys(FIXTURE_OF),
];

type Wire = { status: number; body: (req: RequestInfo) => string; type: string };

const wireOf = (method: string): fc.Arbitrary<Wire> => {
  const fixture = FIXTURE_OF[method] ?? method;
  const get = method.startsWith('GET ');
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(mutatedAnswer(fixture), fc.constantFrom(200, 503)).map(([result, status]) => ({
        status: get ? status : 200,
        type: 'application/json',
        body: (req: RequestInfo) => (get ? JSON.stringify(result) : JSON.stringify({ jsonrpc: '2.0', result, id: req.id })),
      })),
    },
    {
      weight: 1,
      arbitrary: nastyString.map((message) => ({
        status: 200,
        type: 'application/json',
        body: (req: RequestInfo) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: req.id }),
      })),
    },
    { weight: 1, arbitrary: fc.tuple(nastyString, fc.constantFrom(200, 500)).map(([text, status]) => ({ status, type: 'application/json', body: () => text })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<[number, string]>(
        [404, '404 page not found\n'],
        [405, 'rpc: POST method required, received GET'],
        [415, 'rpc: unrecognized Content-Type: text/plain'],
        [403, 'invalid host specified\n'],
        [503, 'API call rejected because chain is not done bootstrapping\n'],
      ).map(([status, text]) => ({ status, type: 'text/plain; charset=utf-8', body: () => text })),
    },
  );
};

const answers = fc.record(Object.fromEntries(METHODS.map((m) => [m, wireOf(m)])) as Record<string, fc.Arbitrary<Wire>>);

describe('property: the exporter against a node that answers anything', () => {
  let fixture: FixtureNode;
  let node: FaultNode;
  let exp: Exporter;
  beforeAll(async () => {
    fixture = await startFixtureNode();
    node = await startFaultNode(fixture.url);
    const { config } = loadConfig({ argv: matrixArgv(node.url, ['--collector.info-peers.per-peer']), env: {} });
    exp = await startExporter({ config, logger: memoryLogger('silent').logger, schedule: false });
  });
  afterAll(async () => {
    await exp?.stop();
    await node?.close();
    await fixture?.close();
  });

  it('every cycle ends, /metrics always parses (promtool on a sample), and good answers bring every collector back', async () => {
    let run = 0;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(answers, async (a) => {
        const handler: FaultHandler = (req, res) => {
          const w = a[req.method];
          if (!w) return void res.writeHead(404).end('404 page not found\n');
          res.writeHead(w.status, { 'content-type': w.type });
          res.end(w.body(req));
        };
        node.setFault(() => true, handler);
        await exp.collectOnce();
        const p = await scrapeParsed(exp.url);
        expect(find(p, 'avax_collector_success', { target: TARGET }).map((s) => s.labels['collector']).sort()).toEqual([...COLLECTOR_NAMES].sort());
        if (run++ % 10 === 0) {
          expect(promtoolCheck(p.text)).toMatch(/ok|skipped/);
          checked++;
        }
      }),
      { numRuns: NUM_RUNS },
    );
    expect(checked).toBeGreaterThanOrEqual(4);
    node.clearFault();
    await exp.collectOnce();
    const p = await scrapeParsed(exp.url);
    expect(find(p, 'avax_collector_success', { target: TARGET }).filter((s) => s.value !== 1)).toEqual([]);
    expect(promtoolCheck(p.text)).toMatch(/ok|skipped/);
  });
});
