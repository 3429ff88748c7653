// An older release on real nodes: avalanchego v1.13.5 (Fortuna active, Granite and Helicon unknown to it;
// Coreth runs the C-Chain), three validators. Every collector succeeds on every node and every published
// value equals the node's own answer, as on v1.15.0 (helicon-network.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avalanchegoOrSkip } from './avalanchego-binary.js';
import { startTraffic, type Traffic } from './c-chain-traffic.js';
import { startRealnetExporter, type RealnetExporter } from './exporter-run.js';
import { startRealNetwork, type RealNetwork } from './network.js';
import { compareQuietNetwork, waitFreshCycle } from './realnet-steps.js';

const BINARY = avalanchegoOrSkip('v1.13.5', 'test/realnet/older-release.test.ts');
const log = (l: string) => process.env['REALNET_VERBOSE'] && console.log(`[realnet v1.13.5] ${l}`);

describe.skipIf(!BINARY).sequential('a real avalanchego v1.13.5 network', () => {
  let net: RealNetwork;
  let traffic: Traffic;
  let exporter: RealnetExporter;

  beforeAll(async () => {
    net = await startRealNetwork({ binary: BINARY!, nodes: 3, release: 'v1.13', activeUpTo: 'fortuna', log });
    traffic = startTraffic(() => net.nodes.map((n) => n.url));
    exporter = await startRealnetExporter(net);
  }, 400_000);

  afterAll(async () => {
    await traffic?.stop();
    const code = await exporter?.stop();
    await net?.stop();
    if (exporter) expect(code).toBe(0);
  }, 120_000);

  it('every collector succeeds on every node, and every published value equals the node\'s own answer', async () => {
    await waitFreshCycle(exporter, net.nodes.map((n) => n.name), Date.now(), 8 * exporter.intervalSeconds * 1000);
    await compareQuietNetwork(net, exporter, traffic);
    expect(exporter.logLines().filter((l) => Number(l['level']) >= 40), 'no warning or error in the exporter log').toEqual([]);
    expect(traffic.sent.length, `C-Chain transfers sent (errors: ${traffic.errors.slice(-3).join(' | ')})`).toBeGreaterThan(0);
  }, 180_000);
});
