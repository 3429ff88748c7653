// Issue 16: the supported avalanchego versions (README "Tested against": v1.13.5 and v1.14.2). The same
// scenarios run against a simulated node of each version (src/sim/versions.ts has every difference a
// real v1.13.5 node showed): healthy, bootstrapping, down and the ACP vote. Two simulated nodes per
// version, so that the node's own ACP vote is seen from the other one (a fleet of one version).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { SIM_VERSIONS, startSimNode, type ScenarioName, type SimNode } from '../../src/sim/server.js';
import { memoryLogger } from '../helpers/log.js';
import { metric } from '../helpers/proc.js';

const HEALTH_INTERVAL_MS = 50;

describe.each([...SIM_VERSIONS])('avalanchego v%s (simulated) against the exporter', (version) => {
  let sim: SimNode;
  let exporter: Exporter;
  const m = (text: string, name: string, labels: Record<string, string> = {}, target = 'a') => metric(text, name, { target, ...labels });
  const v113 = version.startsWith('1.13.');

  async function cycle(scenario?: ScenarioName, node?: number): Promise<string> {
    if (scenario) await sim.setScenario(scenario, node);
    await new Promise((r) => setTimeout(r, HEALTH_INTERVAL_MS + 30));
    await exporter.collectOnce();
    return exporter.current().text.toString('utf8');
  }

  /** Healthy: every collector of both targets succeeds, with this version's answers. */
  async function expectHealthy(): Promise<string> {
    await sim.setScenario('healthy');
    await cycle();
    const text = await cycle();
    for (const t of ['a', 'b']) {
      expect(m(text, 'avax_up', {}, t), t).toBe(1);
      for (const c of COLLECTORS.filter((x) => x.enabled)) expect(m(text, 'avax_collector_success', { collector: c.name }, t), `${t} ${c.name}`).toBe(1);
    }
    expect(text).toMatch(new RegExp(`^avax_node_info\\{target="a",[^}]*version="avalanchego/${version.replace(/\./g, '\\.')}"`, 'm'));
    expect(m(text, 'avax_node_healthy')).toBe(1);
    expect(m(text, 'avax_chain_bootstrapped', { chain: 'P' })).toBe(1);
    if (v113) {
      // no futureupgrade check before v1.14.1: absent, neither healthy nor failing
      expect(m(text, 'avax_health_check_healthy', { check: 'futureupgrade' })).toBeUndefined();
      expect(m(text, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBeUndefined();
      expect(m(text, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'granite' })).toBe(Number.POSITIVE_INFINITY);
      expect(m(text, 'avax_node_vm_info', { vm: 'evm', version: 'v0.15.4' })).toBe(1);
      // ACP-176 is still listed, with a stake majority, but Fortuna activated it: not an open vote
      const w = (k: string) => m(text, `avax_acp_${k}_weight`, { acp: '176' })!;
      expect(w('support') / (w('support') + w('object') + w('abstain'))).toBeGreaterThan(0.5);
      expect(m(text, 'avax_acp_activated', { acp: '176' })).toBe(1);
    } else {
      expect(m(text, 'avax_health_check_healthy', { check: 'futureupgrade' })).toBe(1);
      expect(m(text, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(Number.POSITIVE_INFINITY);
      expect(text).not.toMatch(/^avax_acp_(support_weight|activated)\{/m); // {"acps":{}}
    }
    return text;
  }

  beforeAll(async () => {
    sim = await startSimNode({ seed: 16, nodes: 2, validators: 150, peers: 200, healthIntervalMs: HEALTH_INTERVAL_MS, version });
    const own = sim.nodeId(0);
    const yaml = `collection: { interval: 2s, timeout: 2s }
node: { timeout: 1s }
collectors: {${COLLECTORS.map((c) => ` ${c.name}: { interval: 2s }`).join(',')} }
targets:
  - { name: a, url: "${sim.nodeUrl(0)}", expectActive: true }
  - { name: b, url: "${sim.nodeUrl(1)}", validatorNodeIds: ["${own}"] }
`;
    const { config } = loadConfig({ argv: ['--config.file', 'versions.yaml'], env: {}, readFile: () => yaml });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, listen: false, schedule: false });
    await exporter.collectOnce(); // warm-up
  });
  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  it('healthy: every collector succeeds with this version\'s answers', async () => {
    await expectHealthy();
  });

  it('bootstrapping: P not bootstrapped, not ready; then recovers', async () => {
    const text = await cycle('bootstrapping', 0);
    expect(m(text, 'avax_chain_bootstrapped', { chain: 'P' })).toBe(0);
    expect(m(text, 'avax_node_ready')).toBe(0);
    expect(m(text, 'avax_up')).toBe(1);
    await expectHealthy();
  });

  it('down: avax_up 0 and no node-derived series; then recovers', async () => {
    const text = await cycle('down', 0);
    expect(m(text, 'avax_up')).toBe(0);
    expect(text).not.toMatch(/^avax_(node_info|acp_activated|chain_height)\{target="a"/m);
    await expectHealthy();
  });

  it('acp-vote: the open ACPs are not activated, the node\'s own vote is seen through b', async () => {
    await sim.setScenario('acp-vote', 1);
    await cycle('acp-vote', 0);
    const text = await cycle();
    expect(m(text, 'avax_acp_activated', { acp: '247' })).toBe(0);
    expect(m(text, 'avax_acp_node_vote', { acp: '247', vote: 'support' })).toBe(1);
    // (the simulator's acp-vote models a release whose CurrentACPs are {236, 247}: 176 is not listed there)
    await expectHealthy();
  });
});
