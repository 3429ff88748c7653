// A real avalanchego v1.15.0 network with Helicon active (as mainnet runs since 2026-09-22): five validators
// on loopback (network.ts), C-Chain transfers every 2 s (c-chain-traffic.ts), and the exporter as users run
// it, one target per node, each watching all five IDs (exporter-run.ts). What the exporter publishes is
// compared with what each node answers (node-truth.ts); then one node is stopped and started again, and
// frozen (SIGSTOP) past the node timeout and resumed.
//
// Needs the avalanchego v1.15.0 binary (avalanchego-binary.ts: AVALANCHEGO_PATH or the cache `.ci/run`
// fills). Without it the file is skipped with a loud line; under CI it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { value } from '../helpers/exposition-parser.js';
import { waitFor } from '../helpers/proc.js';
import { avalanchegoOrSkip } from './avalanchego-binary.js';
import { startTraffic, type Traffic } from './c-chain-traffic.js';
import { startRealnetExporter, type RealnetExporter } from './exporter-run.js';
import { startRealNetwork, type RealNetwork } from './network.js';
import { collectorStates, compareQuietNetwork, nodeSeriesOf, notFreshCollectors, waitFreshCycle } from './realnet-steps.js';

const BINARY = avalanchegoOrSkip('v1.15.0', 'test/realnet/helicon-network.test.ts');
const log = (l: string) => process.env['REALNET_VERBOSE'] && console.log(`[realnet] ${l}`);

describe.skipIf(!BINARY).sequential('a real avalanchego v1.15.0 network with Helicon active', () => {
  let net: RealNetwork;
  let traffic: Traffic;
  let exporter: RealnetExporter;
  const cycleMs = () => exporter.intervalSeconds * 1000;

  beforeAll(async () => {
    net = await startRealNetwork({ binary: BINARY!, nodes: 5, release: 'v1.15', activeUpTo: 'helicon', log });
    traffic = startTraffic(() => net.nodes.filter((n) => n.running()).map((n) => n.url));
    exporter = await startRealnetExporter(net);
  }, 400_000);

  afterAll(async () => {
    await traffic?.stop();
    const code = await exporter?.stop();
    await net?.stop();
    // The exporter stopped cleanly (exit 0 on SIGTERM): it did not crash at any point of the run.
    if (exporter) expect(code).toBe(0);
  }, 120_000);

  it('every collector succeeds on every node, and every published value equals the node\'s own answer', async () => {
    await waitFreshCycle(exporter, net.nodes.map((n) => n.name), Date.now(), 8 * cycleMs());
    await compareQuietNetwork(net, exporter, traffic);
    const warnings = exporter.logLines().filter((l) => Number(l['level']) >= 40);
    expect(warnings, 'no warning or error in the exporter log on a healthy network').toEqual([]);
  }, 180_000);

  it('a stopped node: avax_up 0 within one cycle, its series leave, its peers see it disconnected; started again, every collector back within two cycles', async () => {
    const n5 = net.nodes[4]!;
    const others = net.nodes.slice(0, 4);
    const stoppedAt = Date.now();
    await n5.stop();
    const down = await waitFor(async () => {
      const p = await exporter.scrape();
      return value(p, 'avax_up', { target: n5.name }) === 0 ? p : undefined;
    }, cycleMs() + 10_000, 250);
    log(`node5 down seen after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
    expect(nodeSeriesOf(down, n5.name), 'no node-derived series of a node that does not answer').toEqual([]);
    // Every other node's own view of node5's validation: disconnected (avalanchego drops the peer at once).
    await waitFor(async () => {
      const p = await exporter.scrape();
      return others.every((o) => value(p, 'avax_validator_connected', { target: o.name, node_id: n5.nodeId }) === 0) || undefined;
    }, 3 * cycleMs() + 10_000, 500);
    // The others keep every collector.
    const during = await exporter.scrape();
    for (const o of others) expect(notFreshCollectors(during, o.name), `${o.name} while node5 is down`).toEqual([]);

    n5.start();
    await net.waitReady(180_000);
    const readyAt = Date.now();
    await waitFreshCycle(exporter, [n5.name], readyAt, 2 * cycleMs() + 5_000);
    log(`node5 back, every collector fresh after ${((Date.now() - readyAt) / 1000).toFixed(1)} s`);
    await compareQuietNetwork(net, exporter, traffic);
  }, 360_000);

  it('a frozen node (SIGSTOP past the node timeout): no crash, no stale value, the healthy targets undisturbed, the same recovery', async () => {
    const n5 = net.nodes[4]!;
    const others = net.nodes.slice(0, 4);
    n5.freeze();
    const frozenAt = Date.now();
    try {
      const down = await waitFor(async () => {
        const p = await exporter.scrape();
        return value(p, 'avax_up', { target: n5.name }) === 0 ? p : undefined;
      }, 2 * cycleMs() + 10_000, 250);
      log(`node5 frozen, down seen after ${((Date.now() - frozenAt) / 1000).toFixed(1)} s`);
      expect(nodeSeriesOf(down, n5.name)).toEqual([]);
      // Stay frozen for two more cycles: the healthy targets' collectors keep succeeding meanwhile.
      await new Promise((r) => setTimeout(r, 2 * cycleMs()));
      const during = await exporter.scrape();
      for (const o of others) expect([...collectorStates(during, o.name)].filter(([, ok]) => ok !== 1), `${o.name} while node5 is frozen`).toEqual([]);
      expect(value(during, 'avax_up', { target: n5.name })).toBe(0);
      expect(exporter.proc.child.exitCode).toBeNull();
    } finally {
      n5.resume();
    }
    await net.waitReady(180_000);
    const readyAt = Date.now();
    await waitFreshCycle(exporter, [n5.name], readyAt, 2 * cycleMs() + 5_000);
    await compareQuietNetwork(net, exporter, traffic);
    expect(traffic.sent.length, `C-Chain transfers sent (errors: ${traffic.errors.slice(-3).join(' | ')})`).toBeGreaterThan(10);
  }, 360_000);
});
