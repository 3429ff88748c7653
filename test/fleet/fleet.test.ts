import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { startServer, type TestServer } from '../helpers/http-server.js';
import { memoryLogger } from '../helpers/log.js';
import { metric, scrape, waitFor } from '../helpers/proc.js';

function fleetConfig(targets: { name: string; url: string; reference?: boolean }[]): Config {
  const yaml = `web: { listenAddress: "127.0.0.1:0" }
collection: { interval: 1s, timeout: 1s }
node: { timeout: 400ms }
collectors:
  chain-height: { interval: 1s }
  info-peers: { interval: 1s }
targets:
${targets.map((t) => `  - { name: ${t.name}, url: "${t.url}", reference: ${t.reference ?? false} }`).join('\n')}
`;
  return loadConfig({ argv: ['--config.file', 'fleet.yaml'], env: {}, readFile: () => yaml }).config;
}

describe('fleet', () => {
  let a: FixtureNode;
  let b: FixtureNode;
  let ref: FixtureNode;
  let hole: TestServer;
  let exporter: Exporter;
  const log = memoryLogger('info');

  beforeAll(async () => {
    [a, b, ref] = await Promise.all([startFixtureNode(), startFixtureNode(), startFixtureNode()]);
    // The reference is 100 P-blocks and 5 C-blocks ahead.
    ref.override.set('platform.getHeight', () => ({ status: 200, body: '{"jsonrpc":"2.0","result":{"height":"23961502"},"id":"__ID__"}' }));
    ref.override.set('eth_blockNumber', () => ({ status: 200, body: `{"jsonrpc":"2.0","result":"0x${(71284401 + 5).toString(16)}","id":"__ID__"}` }));
    // A target that accepts connections and never answers.
    hole = await startServer(() => {});
    exporter = await startExporter({
      config: fleetConfig([
        { name: 'a', url: a.url },
        { name: 'b', url: b.url },
        { name: 'hole', url: hole.url },
        { name: 'ref', url: ref.url, reference: true },
      ]),
      logger: log.logger,
    });
    await waitFor(async () => metric(await scrape(`${exporter.url}/metrics`), 'avax_up', { target: 'b' }) === 1, 10_000);
  });
  afterAll(async () => {
    await exporter?.stop();
    await hole?.close();
    await Promise.all([a, b, ref].map((n) => n?.close()));
  });

  it('behavior: a dead and a hanging target leave the others fresh', async () => {
    await b.stop();
    const first = metric(await scrape(`${exporter.url}/metrics`), 'avax_collector_last_success_timestamp_seconds', { target: 'a', collector: 'chain-height' })!;
    const text = await waitFor(async () => {
      const t = await scrape(`${exporter.url}/metrics`);
      const now = metric(t, 'avax_collector_last_success_timestamp_seconds', { target: 'a', collector: 'chain-height' })!;
      return now >= first + 2 && metric(t, 'avax_up', { target: 'b' }) === 0 ? t : undefined;
    }, 10_000);
    expect(metric(text, 'avax_up', { target: 'a' })).toBe(1);
    expect(metric(text, 'avax_chain_height', { target: 'a', chain: 'P' })).toBe(23961402);
    expect(metric(text, 'avax_up', { target: 'hole' })).toBe(0);
    expect(metric(text, 'avax_rpc_requests_total', { target: 'hole', method: 'platform.getHeight', result: 'timeout' })).toBeGreaterThan(0);
    await b.start();
    await waitFor(async () => metric(await scrape(`${exporter.url}/metrics`), 'avax_up', { target: 'b' }) === 1, 10_000);
  });

  it('behavior: reference targets skip node-specific calls and give the height difference', async () => {
    const paths = ref.requests.map((r) => r.method);
    expect(paths.some((m) => m.startsWith('GET /ext/health'))).toBe(false);
    expect(paths).not.toContain('info.getNodeID');
    expect(paths).not.toContain('info.uptime');
    expect(paths).toContain('platform.getHeight');
    const text = await scrape(`${exporter.url}/metrics`);
    expect(metric(text, 'avax_chain_height_behind_reference', { target: 'a', chain: 'P' })).toBe(100);
    expect(metric(text, 'avax_chain_height_behind_reference', { target: 'a', chain: 'C' })).toBe(5);
    expect(text).not.toMatch(/avax_chain_height_behind_reference\{target="ref"/);
  });

  it('behavior: /probe returns only one target; an unknown name is a 400 and nothing is fetched', async () => {
    const probe = await scrape(`${exporter.url}/probe?target=a`);
    expect(probe).toContain('avax_up{target="a"} 1');
    expect(probe).not.toContain('target="b"');
    const before = a.requests.length + b.requests.length + ref.requests.length;
    for (const t of ['nope', 'http://127.0.0.1:1/', a.url]) {
      const r = await fetch(`${exporter.url}/probe?target=${encodeURIComponent(t)}`);
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('unknown target');
    }
    expect((await fetch(`${exporter.url}/probe`)).status).toBe(400);
    // no request was made on behalf of those probes (cycles may run meanwhile, but never to a new URL)
    expect(a.requests.length + b.requests.length + ref.requests.length).toBeGreaterThanOrEqual(before);
  });

  it('behavior: reload removes a target and its series disappear; an added target appears', async () => {
    const c = await startFixtureNode();
    try {
      await exporter.reload(fleetConfig([{ name: 'a', url: a.url }, { name: 'c', url: c.url }]));
      const text = await waitFor(async () => {
        const t = await scrape(`${exporter.url}/metrics`);
        return metric(t, 'avax_up', { target: 'c' }) === 1 ? t : undefined;
      }, 10_000);
      expect(text).not.toMatch(/target="b"/);
      expect(text).not.toMatch(/target="hole"/);
      expect(text).not.toMatch(/target="ref"/);
      expect(text).not.toContain('avax_chain_height_behind_reference');
      expect(metric(text, 'avax_up', { target: 'a' })).toBe(1);
      expect((await fetch(`${exporter.url}/probe?target=b`)).status).toBe(400);
      expect(log.lines().some((l) => l['event'] === 'config_reloaded')).toBe(true);
    } finally {
      await c.close();
    }
  });
});
