// Issue 14 (items 1, 4, 5) end to end: the simulated node's scenarios l1-untracked, l1-vm-missing,
// l1-unhealthy, ip-changed and log-level-debug against the real exporter (in process, cycles driven by
// collectOnce), with no subnet configured: the exporter finds the L1 the node validates by itself.
// Each test switches a scenario and runs cycles until the series change (bounded: subnet-chains asks
// one item per run after its first pass), then the last test sees everything recover. Named after
// subnet-chains, the collector most of it is about; node-ip's and admin-logger's scenarios of the same
// issue share its exporter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type ScenarioName, type SimNode } from '@avalanche-exporter/simulated-node';
import { memoryLogger } from '../helpers/log.js';
import { metric } from '../helpers/proc.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const HEALTH_INTERVAL_MS = 50;
/** More cycles than one turn of subnet-chains' items (chains, VMs, 3 statuses, 1 bootstrap, 2 health, 1 membership). */
const MAX_CYCLES = 14;

let sim: SimNode;
let exporter: Exporter;
let l1Chain = '';
const log = memoryLogger('info');

const m = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => metric(text, name, { target: 'a', ...labels });
/** The value of one label of the first line of `name` (with `labels`). */
function labelOf(text: string, name: string, label: string, labels: Record<string, string> = {}): string | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries({ target: 'a', ...labels }).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? new RegExp(`[{,]${label}="([^"]*)"`).exec(line)?.[1] : undefined;
}

async function collect(): Promise<string> {
  await exporter.collectOnce();
  return exporter.current().text.toString('utf8');
}

/** Switches the scenario, waits for the health worker, then runs cycles until `done` holds (at most MAX_CYCLES). */
async function cycle(scenario: ScenarioName, done: (text: string) => boolean): Promise<string> {
  await sim.setScenario(scenario);
  await new Promise((r) => setTimeout(r, HEALTH_INTERVAL_MS + 30));
  let text = '';
  for (let i = 0; i < MAX_CYCLES; i++) {
    text = await collect();
    if (done(text)) return text;
  }
  return text;
}

beforeAll(async () => {
  // v1.14.2 (pinned: the default is 1.15.0): l1-vm-protocol-mismatch names its RPCChainVM protocols (45, the plugin 44).
  sim = await startSimNode({ seed: 14, validators: 60, peers: 80, healthIntervalMs: HEALTH_INTERVAL_MS, version: '1.14.2' });
  const yaml = `collection: { interval: 2s, timeout: 2s }
node: { timeout: 1s }
collectors: {${COLLECTORS.map((c) => ` ${c.name}: { enabled: true, interval: 2s }`).join(',')} }
targets:
  - { name: a, url: "${sim.url}" }
`;
  const { config } = loadConfig({ argv: ['--config.file', 'l1.yaml'], env: {}, readFile: () => yaml });
  exporter = await startExporter({ config, logger: log.logger, listen: false, schedule: false });
  await new Promise((r) => setTimeout(r, HEALTH_INTERVAL_MS + 30));
  await collect(); // node-info learns the own ID; the first full pass of subnet-chains follows
  await collect();
});
afterAll(async () => {
  await exporter?.stop();
  await sim?.close();
});

describe('subnet-chains (and node-ip, admin-logger) scenarios against the exporter, no subnet configured (issue 14)', () => {
  it('healthy: the L1 chain watched without configuration, Validating with its VM (P, X and C are the other collectors\'); IP label; Admin API off is a normal state', async () => {
    const text = await cycle('healthy', (t) => labelOf(t, 'avax_chain_info', 'blockchain_id', { subnet: sim.l1SubnetId }) !== undefined);
    l1Chain = labelOf(text, 'avax_chain_info', 'blockchain_id', { subnet: sim.l1SubnetId }) ?? '';
    expect(l1Chain).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/);
    expect(text.split('\n').filter((l) => l.startsWith('avax_chain_info{')).map((l) => /name="([^"]*)"/.exec(l)?.[1]).sort()).toEqual(['sim-l1']);
    for (const name of ['sim-l1']) {
      const id = labelOf(text, 'avax_chain_info', 'blockchain_id', { name })!;
      expect(m(text, 'avax_chain_status', { blockchain_id: id, status: 'Validating' }), name).toBe(1);
      expect(m(text, 'avax_chain_vm_installed', { blockchain_id: id }), name).toBe(1);
    }
    expect(m(text, 'avax_subnet_healthy', { subnet: sim.l1SubnetId })).toBe(1);
    expect(m(text, 'avax_subnet_healthy', { subnet: PRIMARY })).toBe(1);
    // No VM protocol mismatch: 0 for every chain, no plugin protocol series (a normal node never pages).
    expect(m(text, 'avax_chain_vm_protocol_mismatch', { chain: l1Chain })).toBe(0);
    expect(text).not.toContain('avax_chain_vm_rpc_protocol_version{');
    expect(m(text, 'avax_subnet_node_is_validator', { subnet: sim.l1SubnetId })).toBe(1);
    expect(m(text, 'avax_subnet_node_is_validator', { subnet: PRIMARY })).toBe(1);
    expect(m(text, 'avax_chain_bootstrapped', { chain: l1Chain })).toBe(1);
    expect(labelOf(text, 'avax_node_info', 'ip')).toMatch(/^198\.51\.100\.\d+:9651$/);
    expect(text).not.toMatch(/^avax_node_log_level\{/m);
    for (const c of COLLECTORS) expect(m(text, 'avax_collector_success', { collector: c.name }), c.name).toBe(1);
    expect(m(text, 'avax_rpc_requests_total', { method: 'admin.getLoggerLevel', result: 'normal_state' })).toBeGreaterThan(0);
  });

  it('l1-untracked: the L1 stays watched; its chain is Created and not bootstrapped while the node is still in its validator set', async () => {
    const text = await cycle('l1-untracked', (t) => m(t, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Created' }) === 1 && m(t, 'avax_chain_bootstrapped', { chain: l1Chain }) === 0);
    expect(m(text, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Created' })).toBe(1);
    expect(m(text, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Validating' })).toBeUndefined();
    expect(m(text, 'avax_chain_bootstrapped', { chain: l1Chain })).toBe(0);
    expect(m(text, 'avax_subnet_node_is_validator', { subnet: sim.l1SubnetId })).toBe(1);
    expect(m(text, 'avax_collector_success', { collector: 'subnet-chains' })).toBe(1);
    expect(m(text, 'avax_rpc_requests_total', { method: 'info.isBootstrapped', result: 'normal_state' })).toBeGreaterThan(0);
  });

  it('l1-vm-missing: the VM is not installed and the subnet is unhealthy', async () => {
    const text = await cycle('l1-vm-missing', (t) => m(t, 'avax_chain_vm_installed', { blockchain_id: l1Chain }) === 0 && m(t, 'avax_subnet_healthy', { subnet: sim.l1SubnetId }) === 0);
    expect(m(text, 'avax_chain_vm_installed', { blockchain_id: l1Chain })).toBe(0);
    expect(m(text, 'avax_subnet_healthy', { subnet: sim.l1SubnetId })).toBe(0);
    expect(m(text, 'avax_health_check_healthy', { check: l1Chain })).toBe(0);
    // The primary network's tagged report holds its own chains and the node-wide checks, not the L1 chain's.
    expect(m(text, 'avax_subnet_healthy', { subnet: PRIMARY })).toBe(1);
  });

  it('l1-vm-protocol-mismatch: the VM is installed, the chain did not build: mismatch 1 with the plugin\'s protocol, the node\'s beside it', async () => {
    const text = await cycle('l1-vm-protocol-mismatch', (t) => m(t, 'avax_chain_vm_protocol_mismatch', { chain: l1Chain }) === 1 && m(t, 'avax_chain_vm_installed', { blockchain_id: l1Chain }) === 1);
    expect(m(text, 'avax_chain_vm_protocol_mismatch', { chain: l1Chain })).toBe(1);
    expect(m(text, 'avax_chain_vm_rpc_protocol_version', { chain: l1Chain })).toBe(44);
    expect(m(text, 'avax_node_rpc_protocol_version')).toBe(45);
    expect(m(text, 'avax_chain_vm_installed', { blockchain_id: l1Chain })).toBe(1);
    expect(m(text, 'avax_chain_vm_protocol_mismatch', { chain: 'C' })).toBe(0);
  });

  it('l1-unhealthy: the subnet health fails while the chain keeps Validating', async () => {
    const text = await cycle('l1-unhealthy', (t) =>
       m(t, 'avax_subnet_healthy', { subnet: sim.l1SubnetId }) === 0 && m(t, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Validating' }) === 1 && m(t, 'avax_chain_vm_installed', { blockchain_id: l1Chain }) === 1,
    );
    expect(m(text, 'avax_subnet_healthy', { subnet: sim.l1SubnetId })).toBe(0);
    expect(m(text, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Validating' })).toBe(1);
    expect(m(text, 'avax_chain_vm_installed', { blockchain_id: l1Chain })).toBe(1);
  });

  it('ip-changed: the ip label of avax_node_info follows the advertised address', async () => {
    const text = await cycle('ip-changed', (t) => /^203\./.test(labelOf(t, 'avax_node_info', 'ip') ?? ''));
    expect(labelOf(text, 'avax_node_info', 'ip')).toMatch(/^203\.0\.113\.\d+:9651$/);
    expect(text.split('\n').filter((l) => l.startsWith('avax_node_info{'))).toHaveLength(1);
  });

  it('log-level-debug: the Admin API answers and the C logger shows DEBUG', async () => {
    const text = await cycle('log-level-debug', (t) => m(t, 'avax_node_log_level', { logger: 'C' }) !== undefined);
    expect(m(text, 'avax_node_log_level', { logger: 'C', level: 'DEBUG' })).toBe(1);
    expect(m(text, 'avax_node_log_level', { logger: 'main', level: 'INFO' })).toBe(1);
    expect(m(text, 'avax_collector_success', { collector: 'admin-logger' })).toBe(1);
  });

  it('healthy again: every series recovers; one log line per subnet found, none per cycle', async () => {
    const text = await cycle('healthy', (t) =>
       m(t, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Validating' }) === 1 && m(t, 'avax_chain_vm_installed', { blockchain_id: l1Chain }) === 1 && m(t, 'avax_subnet_healthy', { subnet: sim.l1SubnetId }) === 1 && m(t, 'avax_chain_bootstrapped', { chain: l1Chain }) === 1 && /^198\./.test(labelOf(t, 'avax_node_info', 'ip') ?? ''),
    );
    expect(m(text, 'avax_chain_status', { blockchain_id: l1Chain, status: 'Validating' })).toBe(1);
    expect(m(text, 'avax_chain_vm_installed', { blockchain_id: l1Chain })).toBe(1);
    expect(m(text, 'avax_subnet_healthy', { subnet: sim.l1SubnetId })).toBe(1);
    expect(m(text, 'avax_chain_bootstrapped', { chain: l1Chain })).toBe(1);
    expect(labelOf(text, 'avax_node_info', 'ip')).toMatch(/^198\.51\.100\.\d+:9651$/);
    expect(text).not.toMatch(/^avax_node_log_level\{/m);
    const found = log.lines().filter((l) => l['collector'] === 'subnet-chains' && String(l['msg']).startsWith('watching the chains'));
    expect(found.map((l) => l['subnet']).sort()).toEqual([PRIMARY, sim.l1SubnetId].sort());
  });
});
