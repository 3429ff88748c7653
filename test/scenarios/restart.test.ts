// Real-node semantics over time (issue 11), against the simulated node: the node going away and
// coming back (a restart), health checks that have not run yet, an empty index, and a non-validator
// without sybil protection. Collectors keep their spread schedule here (unlike exporter.test.ts,
// where every collector runs every cycle), so that "not due in this cycle" is exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../src/main.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startSimNode, type ScenarioName, type SimNode } from '@avalanche-exporter/simulated-node';
import { find, parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { memoryLogger } from '../helpers/log.js';
import { RUNNER_METRICS } from '../../src/metrics/descriptors.js';

const T = 'sim';
/** Families that stay for a target that does not answer (the stale-value rule). */
/** The runner's own families (status, request counters, skipped ticks, build info): all a down node leaves. */
const EXPORTER_FAMILIES = new RegExp(`^(${RUNNER_METRICS.map((d) => d.name).join('|')})$`);

async function setup(simOpts: Parameters<typeof startSimNode>[0]): Promise<{ sim: SimNode; exporter: Exporter; cycle: (s?: ScenarioName) => Promise<ParsedExposition> }> {
  const sim = await startSimNode({ seed: 11, validators: 150, peers: 200, healthIntervalMs: 50, ...simOpts });
  // Base cycle 2 s; the long collectors keep their ratio to it (5 min → 10 cycles), as the defaults spread them.
  const { config } = loadConfig({
    argv: [
      '--node.url', sim.url, '--node.name', T, '--collection.interval', '2s', '--collection.timeout', '2s', '--node.timeout', '1s',
      '--collector.platform-validators-full.interval', '20s', '--collector.info-upgrades.interval', '20s', '--collector.info-acps.interval', '20s',
      '--collector.node-info.interval', '8s', '--collector.info-uptime.interval', '8s', '--collector.platform-validator-fee.interval', '8s',
      '--collector.health.interval', '4s', '--collector.info-is-bootstrapped.interval', '4s', '--collector.index-last-accepted.interval', '4s',
      // Issue 14: subnet-chains every 60 s (8 s here); the opt-in admin-logger on, every 5 min (20 s here).
      '--collector.subnet-chains.interval', '8s', '--collector.admin-logger', '--collector.admin-logger.interval', '20s',
    ],
    env: {},
  });
  const exporter = await startExporter({ config, logger: memoryLogger('silent').logger, listen: false, schedule: false });
  const cycle = async (s?: ScenarioName) => {
    if (s) await sim.setScenario(s);
    await exporter.collectOnce();
    return parseExposition(exporter.current().text.toString('utf8'));
  };
  return { sim, exporter, cycle };
}

const PRIMARY = '11111111111111111111111111111111LpoYY';
const success = (p: ParsedExposition, c: string) => value(p, 'avax_collector_success', { target: T, collector: c });

describe('restart and shutdown of the node (simulated, spread schedule)', () => {
  let sim: SimNode;
  let exporter: Exporter;
  let cycle: (s?: ScenarioName) => Promise<ParsedExposition>;
  beforeAll(async () => {
    // A long first health run after a restart (a real node: one health period, 30 s).
    ({ sim, exporter, cycle } = await setup({ healthFirstRunMs: 5 }));
  });
  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  it('behavior: the node goes away → only exporter series; it comes back → every collector runs at once, checks pending until their first run', async () => {
    await new Promise((r) => setTimeout(r, 100)); // the first health run (5 ms) and one 50 ms period
    let p = await cycle(); // start-up: every collector
    for (const c of COLLECTORS) expect(success(p, c.name), c.name).toBe(1);
    p = await cycle(); // a normal cycle: the 2 s collectors only
    expect(value(p, 'avax_subnet_validators', { target: T, subnet: PRIMARY })).toBeGreaterThan(0);

    p = await cycle('down');
    expect(value(p, 'avax_up', { target: T })).toBe(0);
    expect([...p.families.keys()].filter((n) => !EXPORTER_FAMILIES.test(n) && find(p, n, { target: T }).length > 0)).toEqual([]);
    for (const c of COLLECTORS) expect(success(p, c.name), c.name).toBe(0);

    // Back, as after a restart: the node's checks have not run yet for a long while.
    await sim.setScenario('healthy');
    await sim.restart(0, { healthFirstRunMs: 600_000 });
    p = await cycle();
    expect(value(p, 'avax_up', { target: T })).toBe(1);
    for (const c of COLLECTORS) expect(success(p, c.name), c.name).toBe(1);
    expect(value(p, 'avax_subnet_validators', { target: T, subnet: PRIMARY })).toBe(150); // the 20 s collector ran in the recovery cycle
    expect(find(p, 'avax_network_upgrade_timestamp_seconds', { target: T }).length).toBeGreaterThan(10);
    // The node's own verdict is unhealthy (503); every check is pending, none failing.
    expect(value(p, 'avax_node_healthy', { target: T })).toBe(0);
    const pending = find(p, 'avax_health_check_pending', { target: T });
    expect(pending.length).toBeGreaterThan(5);
    expect(pending.every((s) => s.value === 1)).toBe(true);
    expect(find(p, 'avax_health_check_healthy', { target: T })).toEqual([]);
    expect(value(p, 'avax_chain_bootstrapped', { target: T, chain: 'P' })).toBe(1);

    // The checks run: healthy again, nothing pending. The health collector (every 2 cycles) runs on
    // its phase, at least a full interval after its recovery run: within 3 cycles.
    await sim.restart(0, { healthFirstRunMs: 5 });
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 3 && find(p, 'avax_health_check_pending', { target: T }).some((s) => s.value === 1); i++) p = await cycle();
    expect(value(p, 'avax_node_healthy', { target: T })).toBe(1);
    expect(find(p, 'avax_health_check_pending', { target: T }).every((s) => s.value === 0)).toBe(true);
    expect(find(p, 'avax_health_check_healthy', { target: T }).every((s) => s.value === 1)).toBe(true);
  });

  it('behavior: an empty index is a normal state (available 0, success 1, counted as normal_state)', async () => {
    let p = await cycle('index-empty');
    // index-last-accepted runs every 2 cycles, on the phase its last run (the restart above) gave it.
    for (let i = 0; i < 3 && value(p, 'avax_index_available', { target: T, chain: 'P', kind: 'block' }) !== 0; i++) p = await cycle();
    expect(success(p, 'index-last-accepted')).toBe(1);
    for (const chain of ['P', 'C', 'X']) expect(value(p, 'avax_index_available', { target: T, chain, kind: 'block' })).toBe(0);
    const normal = find(p, 'avax_rpc_requests_total', { target: T, method: 'index.getLastAccepted', result: 'normal_state' })[0]!.value;
    expect(normal).toBeGreaterThanOrEqual(3);
    expect(value(p, 'avax_rpc_requests_total', { target: T, method: 'index.getLastAccepted', result: 'rpc_error' })).toBe(0);
    await cycle('healthy');
    p = await cycle();
    expect(value(p, 'avax_index_available', { target: T, chain: 'P', kind: 'block' })).toBe(1);
  });
});

describe('a non-validator on a network without sybil protection (local, test networks)', () => {
  let sim: SimNode;
  let exporter: Exporter;
  let cycle: (s?: ScenarioName) => Promise<ParsedExposition>;
  beforeAll(async () => {
    ({ sim, exporter, cycle } = await setup({ sybilProtection: false, scenario: 'not-a-validator' }));
  });
  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  it('behavior: info.uptime answers "… start time not found": no uptime series, no failure, normal_state', async () => {
    const p = await cycle();
    expect(success(p, 'info-uptime')).toBe(1);
    expect(find(p, 'avax_uptime_weighted_average_ratio', { target: T })).toEqual([]);
    expect(value(p, 'avax_rpc_requests_total', { target: T, method: 'info.uptime', result: 'normal_state' })).toBe(1);
    expect(value(p, 'avax_rpc_requests_total', { target: T, method: 'info.uptime', result: 'rpc_error' })).toBe(0);
  });
});
