// A real avalanchego v1.15.0 network with Helicon active (as mainnet runs since 2026-09-22): five validators
// on loopback (network.ts), C-Chain transfers every 2 s (c-chain-traffic.ts), and the exporter as users run
// it, one target per node, each watching all five IDs (exporter-run.ts). What the exporter publishes is
// compared with what each node answers (node-truth.ts); then one node is stopped and started again, and
// frozen (SIGSTOP) past the node timeout and resumed. A real Prometheus loads the shipped rules (ten times
// faster: alerting.ts) and scrapes the exporter all along: the healthy network pages nothing, the stopped
// node pages AvalancheTargetDown.
//
// Needs the avalanchego v1.15.0 binary (avalanchego-binary.ts: AVALANCHEGO_PATH or the cache `.ci/run`
// fills) and, for the alerts, prometheus and prometheus-alertmanager on PATH. Without them the file (or its
// alert checks) is skipped with a loud line; under CI it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { value } from '../helpers/exposition-parser.js';
import { waitFor } from '../helpers/proc.js';
import { ALERTMANAGER, PROMETHEUS, startAlerting, type Alerting } from './alerting.js';
import { avalanchegoOrSkip, CI } from './avalanchego-binary.js';
import { startTraffic, type Traffic } from './c-chain-traffic.js';
import { startRealnetExporter, type RealnetExporter } from './exporter-run.js';
import { startRealNetwork, type RealNetwork } from './network.js';
import { collectorStates, compareQuietNetwork, nodeSeriesOf, notFreshCollectors, waitFreshCycle } from './realnet-steps.js';

const BINARY = avalanchegoOrSkip('v1.15.0', 'test/realnet/helicon-network.test.ts');
const log = (l: string) => process.env['REALNET_VERBOSE'] && console.log(`[realnet] ${l}`);
const ALERTS = Boolean(PROMETHEUS && ALERTMANAGER);
if (BINARY && !ALERTS) {
  const msg = 'test/realnet/helicon-network.test.ts: prometheus and prometheus-alertmanager are not on PATH (apt-get install prometheus prometheus-alertmanager)';
  if (CI) throw new Error(`${msg}; under CI this is a failure`);
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING the alert checks of ${msg}\n${'!'.repeat(78)}\n`);
}
/** How long the healthy network is watched for pages, after Prometheus has a minute of data. */
const HEALTHY_MS = Number(process.env['REALNET_HEALTHY_MINUTES'] ?? 5) * 60_000;

describe.skipIf(!BINARY).sequential('a real avalanchego v1.15.0 network with Helicon active', () => {
  let net: RealNetwork;
  let traffic: Traffic;
  let exporter: RealnetExporter;
  let alerting: Alerting | undefined;
  let alertingSince = 0;
  const cycleMs = () => exporter.intervalSeconds * 1000;

  beforeAll(async () => {
    net = await startRealNetwork({ binary: BINARY!, nodes: 5, release: 'v1.15', activeUpTo: 'helicon', log });
    traffic = startTraffic(() => net.nodes.filter((n) => n.running()).map((n) => n.url));
    exporter = await startRealnetExporter(net);
    if (ALERTS) {
      alerting = await startAlerting(exporter.address);
      alertingSince = Date.now();
    }
  }, 400_000);

  afterAll(async () => {
    if (alerting) console.log(`[realnet] every alert Prometheus had pending or firing:\n${alerting.describe() || '(none)'}`);
    await alerting?.stop();
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

  it.skipIf(!ALERTS)('a healthy network pages nothing', async () => {
    // The first minute of Prometheus' data is left out: a window of `[60s]` over less data than that is not
    // what Prometheus sees in production, where the rules run over hours of history.
    const from = alertingSince + 60_000;
    const until = from + HEALTHY_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
    expect(alerting!.firedBetween(from, until).map((a) => `${a.name} ${JSON.stringify(a.labels)}`), `pages of a healthy network between ${new Date(from).toISOString()} and ${new Date(until).toISOString()}`).toEqual([]);
  }, HEALTHY_MS + 180_000);

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
    if (alerting) {
      // It pages: AvalancheTargetDown, after its `for:` (shortened) and Prometheus' next evaluation.
      await waitFor(() => alerting!.firedBetween(stoppedAt).find((a) => a.name === 'AvalancheTargetDown' && a.labels['target'] === n5.name), 120_000, 1_000).catch((e: unknown) => {
        throw new Error(`AvalancheTargetDown did not fire for ${n5.name}: ${String(e)}\n${alerting!.describe(stoppedAt)}`);
      });
      log(`pages while node5 is down:\n${alerting.firedBetween(stoppedAt).map((a) => `  ${a.name} ${JSON.stringify(a.labels)}`).join('\n')}`);
    }

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
