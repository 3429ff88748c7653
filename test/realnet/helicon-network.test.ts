// A real avalanchego v1.15.0 network with Helicon active (as mainnet runs since 2026-09-22): five validators
// on loopback (network.ts), C-Chain transfers every 2 s (c-chain-traffic.ts), and the exporter as users run
// it, one target per node, each watching all five IDs (exporter-run.ts). What the exporter publishes is
// compared with what each node answers (node-truth.ts). A real Prometheus loads the shipped rules and a real
// Alertmanager the shipped example, both ten times faster (alerting.ts), and watch it all along: a healthy
// network pages nothing; then real faults on node5, judged like the backtest's (faults.ts): stopped, frozen
// (SIGSTOP) past the node timeout, restarted quickly, cut off from its peers. Each pages what the runbook says
// within its deadline, with at most two notifications, and the exporter recovers every collector after each.
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
import { describeFault, isLate, isPaged, isStorm, judgeFault, summaryLine, type FaultResult, type FaultSpec } from './faults.js';
import { startRealNetwork, type RealNetwork, type RealNode } from './network.js';
import { rpc } from './node-rpc.js';
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
const NODE_TIMEOUT_S = 4;

describe.skipIf(!BINARY).sequential('a real avalanchego v1.15.0 network with Helicon active', () => {
  let net: RealNetwork;
  let traffic: Traffic;
  let exporter: RealnetExporter;
  let alerting: Alerting | undefined;
  let alertingSince = 0;
  let healthyFalsePages = 0;
  const results: FaultResult[] = [];
  const cycleMs = () => exporter.intervalSeconds * 1000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    net = await startRealNetwork({ binary: BINARY!, nodes: 5, release: 'v1.15', activeUpTo: 'helicon', log });
    traffic = startTraffic(() => net.nodes.filter((n) => n.running()).map((n) => n.url));
    exporter = await startRealnetExporter(net, { nodeTimeout: `${NODE_TIMEOUT_S}s` });
    if (ALERTS) {
      alerting = await startAlerting(exporter.address);
      alertingSince = Date.now();
    }
  }, 400_000);

  afterAll(async () => {
    if (alerting) {
      for (const r of results) console.log(`[realnet] ${describeFault(r)}`);
      console.log(`[realnet] ${summaryLine(results, { minutes: HEALTHY_MS / 60_000, falsePages: healthyFalsePages })}`);
      log(`every alert Prometheus had pending or firing:\n${alerting.describe() || '(none)'}`);
    }
    await alerting?.stop();
    await traffic?.stop();
    const code = await exporter?.stop();
    await net?.stop();
    // The exporter stopped cleanly (exit 0 on SIGTERM): it did not crash at any point of the run.
    if (exporter) expect(code).toBe(0);
  }, 120_000);

  /** The node is back: every collector of its target fresh within two cycles of its readiness, values equal again. */
  async function recovered(n: RealNode): Promise<void> {
    await net.waitReady(180_000);
    const readyAt = Date.now();
    await waitFreshCycle(exporter, [n.name], readyAt, 2 * cycleMs() + 5_000);
    log(`${n.name} back, every collector fresh after ${((Date.now() - readyAt) / 1000).toFixed(1)} s`);
    await compareQuietNetwork(net, exporter, traffic);
  }

  /** Judges a fault that started at `startMs` now, after the alerts it set off had time to resolve. */
  async function judge(spec: FaultSpec, startMs: number): Promise<FaultResult> {
    if (!alerting) return { name: spec.name, startMs, endMs: Date.now(), pages: [], falsePages: [], notifications: 0, messages: [] };
    const r = judgeFault(spec, alerting, startMs, Date.now(), { cycleSeconds: exporter.intervalSeconds, nodeTimeoutSeconds: NODE_TIMEOUT_S });
    results.push(r);
    log(describeFault(r));
    expect(isPaged(r), describeFault(r)).toBe(true);
    expect(isLate(r), describeFault(r)).toBe(false);
    expect(r.falsePages, describeFault(r)).toEqual([]);
    expect(isStorm(r), describeFault(r)).toBe(false);
    return r;
  }

  /** Waits (bounded) until the given alerts fired, for the fault's log; a miss is judge()'s to report. */
  async function untilFired(startMs: number, names: readonly string[], timeoutMs: number): Promise<void> {
    if (!alerting) return;
    await waitFor(() => names.every((n) => alerting!.firedBetween(startMs).some((a) => a.name === n)) || undefined, timeoutMs, 1_000).catch(() => undefined);
  }

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
    await sleep(Math.max(0, until - Date.now()));
    const fired = alerting!.firedBetween(from, until).map((a) => `${a.name} ${JSON.stringify(a.labels)}`);
    healthyFalsePages = fired.length;
    expect(fired, `pages of a healthy network between ${new Date(from).toISOString()} and ${new Date(until).toISOString()}`).toEqual([]);
  }, HEALTHY_MS + 180_000);

  it('a stopped validator: avax_up 0 within one cycle, its series leave, its peers see it disconnected, it pages; started again, every collector back within two cycles', async () => {
    const n5 = net.nodes[4]!;
    const others = net.nodes.slice(0, 4);
    const stoppedAt = Date.now();
    await n5.stop();
    const down = await waitFor(async () => {
      const p = await exporter.scrape();
      return value(p, 'avax_up', { target: n5.name }) === 0 ? p : undefined;
    }, cycleMs() + NODE_TIMEOUT_S * 1000 + 3_000, 250);
    log(`node5 down seen after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
    expect(nodeSeriesOf(down, n5.name), 'no node-derived series of a node that does not answer').toEqual([]);
    // Every other node's own view of node5's validation: disconnected (avalanchego drops the peer at once).
    await waitFor(async () => {
      const p = await exporter.scrape();
      return others.every((o) => value(p, 'avax_validator_connected', { target: o.name, node_id: n5.nodeId }) === 0) || undefined;
    }, 3 * cycleMs() + 10_000, 500);
    const during = await exporter.scrape();
    for (const o of others) expect(notFreshCollectors(during, o.name), `${o.name} while node5 is down`).toEqual([]);
    // Down for 15 minutes at the rules' time: the node's own page and its validator's.
    await untilFired(stoppedAt, ['AvalancheTargetDown', 'AvalancheValidatorFewVantagesConnected'], 120_000);
    await sleep(Math.max(0, stoppedAt + 90_000 - Date.now()));
    await n5.start();
    await recovered(n5);
    await judge(
      {
        name: 'stopped validator',
        pages: [
          { alert: 'AvalancheTargetDown', labels: { target: n5.name } },
          { alert: 'AvalancheValidatorFewVantagesConnected', labels: { node_id: n5.nodeId } },
        ],
        // Each vantage's own view; muted by FewVantagesConnected (examples/alertmanager.yml), which keeps firing
        // (keep_firing_for) while the last vantages see the node back: a CI run once got node1's as a third
        // notification when FewVantagesConnected resolved a cycle before node1's view did.
        mayAlsoFire: [{ alert: 'AvalancheValidatorDisconnected', labels: { node_id: n5.nodeId } }],
      },
      stoppedAt,
    );
  }, 480_000);

  it('a frozen validator (SIGSTOP past the node timeout): no crash, no stale value, the healthy targets undisturbed, it pages, the same recovery', async () => {
    const n5 = net.nodes[4]!;
    const others = net.nodes.slice(0, 4);
    await sleep(30_000); // the previous fault's alerts resolved: this one's notifications are its own
    n5.freeze();
    const frozenAt = Date.now();
    try {
      const down = await waitFor(async () => {
        const p = await exporter.scrape();
        return value(p, 'avax_up', { target: n5.name }) === 0 ? p : undefined;
      }, 2 * cycleMs() + NODE_TIMEOUT_S * 1000 + 3_000, 250);
      log(`node5 frozen, down seen after ${((Date.now() - frozenAt) / 1000).toFixed(1)} s`);
      expect(nodeSeriesOf(down, n5.name)).toEqual([]);
      // The healthy targets keep every collector, within their cycle: a network answer in flight at the frozen
      // node is hedged (scheduler/network-answers.ts), not waited for until the node timeout.
      for (let i = 0; i < 3; i++) {
        await sleep(cycleMs());
        const during = await exporter.scrape();
        for (const o of others) {
          expect([...collectorStates(during, o.name)].filter(([, ok]) => ok !== 1), `${o.name} while node5 is frozen`).toEqual([]);
          const slowest = Math.max(...[...collectorStates(during, o.name).keys()].map((c) => value(during, 'avax_collector_duration_seconds', { target: o.name, collector: c }) ?? 0));
          expect(slowest, `${o.name}'s slowest collector while node5 is frozen, seconds`).toBeLessThan(NODE_TIMEOUT_S);
        }
      }
      expect(value(await exporter.scrape(), 'avax_up', { target: n5.name })).toBe(0);
      expect(exporter.proc.child.exitCode).toBeNull();
      await untilFired(frozenAt, ['AvalancheTargetDown'], 90_000);
      await sleep(Math.max(0, frozenAt + 90_000 - Date.now()));
    } finally {
      n5.resume();
    }
    await recovered(n5);
    await judge(
      {
        name: 'frozen validator',
        pages: [{ alert: 'AvalancheTargetDown', labels: { target: n5.name } }],
        // Its peers call it disconnected only when their pings time out (30-50 s), so these may or may not come.
        // Meanwhile a fifth of their polls fail, repeated at once, with node5 still counted as connected: 30-50 s of
        // real time are five to eight minutes at the rules' time here, and their AvalanchePollFailureRatioHigh may
        // fire; at the shipped durations it does not (alerts/tests/node-internals.rules.test.yaml, "a validator of
        // five frozen").
        mayAlsoFire: [
          { alert: 'AvalancheValidatorFewVantagesConnected', labels: { node_id: n5.nodeId } },
          { alert: 'AvalancheValidatorDisconnected', labels: { node_id: n5.nodeId } },
          { alert: 'AvalanchePollFailureRatioHigh' },
        ],
      },
      frozenAt,
    );
  }, 480_000);

  it('a quick restart pages nothing', async () => {
    const n5 = net.nodes[4]!;
    await sleep(30_000);
    const at = Date.now();
    await n5.stop();
    await n5.start();
    await recovered(n5);
    // Long enough for any `for:` that started to have ended (the longest before a page: 90 s at this scale).
    await sleep(Math.max(0, at + 100_000 - Date.now()));
    await judge({ name: 'quick restart', pages: [], mayAlsoFire: [] }, at);
  }, 360_000);

  it('a validator cut off from its peers (restarted on a port nobody knows): it pages, its peers see it gone; back, every collector recovers', async () => {
    const n5 = net.nodes[4]!;
    await sleep(30_000);
    const at = Date.now();
    await n5.stop();
    await n5.start({ isolated: true });
    await untilFired(at, ['AvalanchePeersLow', 'AvalancheValidatorFewVantagesConnected'], 150_000);
    await sleep(Math.max(0, at + 120_000 - Date.now()));
    const during = await exporter.scrape();
    log(`node5 cut off: info.uptime says ${await rpc(n5.url, '/ext/info', 'info.uptime').then((r) => JSON.stringify(r), (e: unknown) => String(e))}; its collectors: ${JSON.stringify([...collectorStates(during, n5.name)].filter(([, ok]) => ok !== 1))}`);
    for (const n of net.nodes) {
      const h = await fetch(`${n.url}/ext/health`).then((r) => r.json() as Promise<{ checks: Record<string, { error?: string }> }>, () => ({ checks: {} }));
      const failing = Object.entries(h.checks).filter(([, c]) => c.error).map(([k, c]) => `${k}: ${c.error}`);
      if (failing.length) log(`${n.name} failing checks while node5 is cut off: ${failing.join('; ').slice(0, 400)}`);
    }
    expect(value(during, 'avax_up', { target: n5.name }), 'its API answers: not a target down').toBe(1);
    expect(value(during, 'avax_peers', { target: n5.name })).toBe(0);
    await n5.stop();
    await n5.start();
    await recovered(n5);
    await judge(
      {
        name: 'validator cut off from its peers',
        stormReason:
          'a validator restarted cut off from its network is several faults of that node at once, each worth its own message: ' +
          'it cannot bootstrap (AvalancheChainNotBootstrapped, critical), the stake it is connected to is low (AvalancheConnectedStakeLow, ' +
          'critical), it has no peers, its health checks fail one after another, and it came back on another IP:port; criticals are groups ' +
          'of their own (examples/alertmanager.yml) so that none waits behind the warnings',
        pages: [
          { alert: 'AvalanchePeersLow', labels: { target: n5.name } },
          { alert: 'AvalancheValidatorFewVantagesConnected', labels: { node_id: n5.nodeId } },
        ],
        mayAlsoFire: [
          { alert: 'AvalancheValidatorDisconnected', labels: { node_id: n5.nodeId } },
          { alert: 'AvalancheConnectedStakeLow', labels: { target: n5.name } },
          { alert: 'AvalancheChainNotBootstrapped', labels: { target: n5.name } },
          { alert: 'AvalancheNodeUnhealthy', labels: { target: n5.name } },
          { alert: 'AvalancheHealthCheckFailing', labels: { target: n5.name } },
          // Restarted on another staking port: its IP:port did change (avax_node_info ip), and the rule says so.
          { alert: 'AvalancheValidatorIpChanged', labels: { target: n5.name } },
        ],
      },
      at,
    );
    expect(traffic.sent.length, `C-Chain transfers sent (errors: ${traffic.errors.slice(-3).join(' | ')})`).toBeGreaterThan(10);
  }, 480_000);
});
