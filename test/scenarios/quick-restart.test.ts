// Issue 23 items 2 and 3, against the simulated node: a node that restarts quickly between two cycles
// (here with its L1's VM plugin gone) is seen as restarted, and every collector runs again in the next
// cycle, so chain status, VM installed and subnet health are right at once instead of after the
// collectors' own intervals; subnet health, absent while the checks have not run, never reads 0 for a
// healthy node that just started. Collectors keep their default ratios to the base cycle (2 s here:
// subnet-chains every 8 s), so "not due in this cycle" is exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { find, parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { memoryLogger } from '../helpers/log.js';

const T = 'sim';

describe('a quick restart of the node between two cycles (issue 23)', () => {
  let sim: SimNode;
  let exporter: Exporter;
  const log = memoryLogger('info');
  let clock = Date.UTC(2026, 10, 24, 12);
  const cycle = async (): Promise<ParsedExposition> => {
    clock += 2000;
    await exporter.collectOnce();
    return parseExposition(exporter.current().text.toString('utf8'));
  };
  const l1 = () => ({ target: T, subnet: sim.l1SubnetId });
  const chainOf = (p: ParsedExposition) => find(p, 'avax_chain_info', l1())[0]!.labels['blockchain_id']!;

  beforeAll(async () => {
    sim = await startSimNode({ seed: 5, validators: 120, peers: 150, healthIntervalMs: 30_000, now: () => clock });
    // No --node.subnet: the L1 is found by itself (its chain runs on the node).
    const { config } = loadConfig({
      argv: ['--node.url', sim.url, '--node.name', T, '--collection.interval', '2s', '--collection.timeout', '2s', '--node.timeout', '1s',
        // health every cycle (its default 15 s is every default cycle); the others keep their ratio.
        '--collector.health.interval', '2s', '--collector.subnet-chains.interval', '8s', '--collector.node-metrics.interval', '8s', '--collector.node-info.interval', '8s'],
      env: {},
    });
    exporter = await startExporter({ config, logger: log.logger, now: () => clock, listen: false, schedule: false });
  });
  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  it('behavior: with no flag, the L1 the node validates shows its validator, chain and health', async () => {
    let p = await cycle();
    p = await cycle(); // the second cycle sees the L1 found in the first
    const chain = chainOf(p);
    expect(value(p, 'avax_chain_status', { target: T, blockchain_id: chain, status: 'Validating' })).toBe(1);
    expect(value(p, 'avax_chain_vm_installed', { target: T, blockchain_id: chain })).toBe(1);
    expect(value(p, 'avax_subnet_healthy', l1())).toBe(1);
    expect(value(p, 'avax_subnet_node_is_validator', l1())).toBe(1);
    expect(value(p, 'avax_validator_active', { ...l1(), node_id: sim.nodeId() })).toBe(1);
    expect(value(p, 'avax_l1_validator_balance_avax', { ...l1(), node_id: sim.nodeId() })).toBeGreaterThan(0);
    expect(value(p, 'avax_subnet_validators', l1())).toBeGreaterThan(0);
    // The L1 chain's internal series, from the node's own /ext/metrics, with no --node.chain.
    expect(find(p, 'avax_node_last_accepted_height', { target: T, chain }).length).toBe(1);
  });

  it('behavior: restarted between two cycles with the VM gone → seen in the next cycle, every collector refreshed', async () => {
    const before = await cycle();
    const chain = chainOf(before);
    const restartsLogged = () => log.lines().filter((l) => l['event'] === 'node_restarted').length;
    expect(restartsLogged()).toBe(0);
    // ~3 s restart between two cycles: the VM plugin removed, checks "not yet run" for 30 s.
    await sim.setScenario('l1-vm-missing');
    await sim.restart(0, { healthFirstRunMs: 30_000 });
    // A real restart takes seconds: the exporter's keep-alive connections see the node close them
    // before the next cycle (a request on a connection the node closed that very moment is a
    // failure of that cycle, rightly: the node was down).
    await new Promise((r) => setTimeout(r, 50));
    const p = await cycle();
    expect(restartsLogged()).toBe(1);
    expect(value(p, 'avax_up', { target: T })).toBe(1);
    // subnet-chains (every 8 s, not due in this cycle) ran again at once.
    expect(value(p, 'avax_chain_status', { target: T, blockchain_id: chain, status: 'Created' })).toBe(1);
    expect(value(p, 'avax_chain_vm_installed', { target: T, blockchain_id: chain })).toBe(0);
    // The checks have not run since the restart: subnet health unknown (absent), never a false 0.
    expect(find(p, 'avax_subnet_healthy', l1())).toEqual([]);
    // After the node's first health run the L1's chain check fails (its VM could not be built).
    clock += 30_000;
    const later = await cycle();
    expect(value(later, 'avax_subnet_healthy', l1())).toBe(0);
    expect(restartsLogged()).toBe(1);
  });

  it('behavior: the plugin back and a restart → right again at once', async () => {
    await sim.setScenario('healthy');
    await sim.restart(0, { healthFirstRunMs: 0 });
    await new Promise((r) => setTimeout(r, 50));
    const p = await cycle();
    const chain = chainOf(p);
    expect(value(p, 'avax_chain_status', { target: T, blockchain_id: chain, status: 'Validating' })).toBe(1);
    expect(value(p, 'avax_chain_vm_installed', { target: T, blockchain_id: chain })).toBe(1);
    expect(value(p, 'avax_subnet_healthy', l1())).toBe(1);
  });
});
