import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { NODE_SIGNALS } from '../../src/collectors/node-metrics-signals.js';
import { result } from '../fixtures/load.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { documentedFamilies } from '../helpers/metrics-doc.js';
import { CLI, ensureBuilt, freePort, metric, scrape, startCli, waitFor, type Proc } from '../helpers/proc.js';

/**
 * Documented families (docs/metrics.md) this setup cannot produce: one fixture node, one target,
 * the fixtures recorded from avalanchego v1.14.2. Each with the reason; everything else must appear.
 */
/** The L1 of platform.getBlockchains/default.json: its chain's info, status and VM show. */
const CLI_L1 = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';
const NOT_IN_THIS_SETUP: Record<string, string> = {
  avax_chain_height_behind_reference: 'needs a second target with reference: true (test/golden has one)',
  avax_acp_support_weight: 'no ACP is open on v1.14.2 (info.acps answers {"acps":{}}; test/golden opens two)',
  avax_acp_object_weight: 'no ACP is open on v1.14.2',
  avax_acp_abstain_weight: 'no ACP is open on v1.14.2',
  avax_acp_node_vote: 'needs an open ACP and a second target that has the node as a peer',
  avax_acp_activated: 'only for an ACP info.acps lists (none on v1.14.2; test/golden has both versions)',
  avax_node_log_level: 'admin-logger is opt-in (--collector.admin-logger; test/golden turns it on)',
  avax_validator_last_reward_avax: 'only after a watched validation ended while the exporter ran (test/golden and test/scenarios/rewards-economics end one)',
  avax_validator_last_reward_timestamp_seconds: 'only after a watched validation ended while the exporter ran',
  avax_validator_last_potential_reward_avax: 'only after a watched validation ended while the exporter ran',
  avax_chain_vm_rpc_protocol_version: "only for a chain whose VM plugin speaks another RPCChainVM protocol (test/scenarios/subnet-chains.test.ts, scenario l1-vm-protocol-mismatch)",
  avax_chain_bootstrap_target_height: 'only while a chain bootstraps and another target of the same network answers (test/scenarios/bootstrap-target.test.ts)',
  // The fixture node's C-Chain runs Coreth (v1.14.2); test/golden/metrics-real-v1.15.0.txt has a real SAE node's.
  ...Object.fromEntries(NODE_SIGNALS.filter((s) => s.cchainVm === 'sae').map((s) => [s.name, 'only on a node whose C-Chain runs SAE (avalanchego v1.15.0+ after Helicon)'])),
  avax_cchain_execution_lag_blocks: 'only on a node whose C-Chain runs SAE (avalanchego v1.15.0+ after Helicon)',
  // The fixture node's own validation has a fixed end (v1.14.2); test/real-node/helicon-rewards.test.ts replays a real
  // auto-renewed validator and test/scenarios/helicon-rewards.test.ts a simulated one.
  avax_validator_auto_compound_reward_ratio: 'only for an auto-renewed validator (ACP-236, avalanchego v1.15.0+ after Helicon)',
  avax_validator_authority_threshold: 'only for an auto-renewed validator (ACP-236)',
  avax_validator_authority_addresses: 'only for an auto-renewed validator (ACP-236)',
  avax_validator_last_reward_restaked_avax: 'only once a cycle of a watched auto-renewed validator ended while the exporter ran',
};

describe('avalanche-exporter against a node that answers like avalanchego', () => {
  let node: FixtureNode;
  let proc: Proc;
  let base = '';
  beforeAll(async () => {
    ensureBuilt();
    node = await startFixtureNode();
    // One failing check, so that the failing-since series exists too.
    node.override.set('GET /ext/health', () => ({ status: 503, body: JSON.stringify(result('health.health', 'unhealthy')) }));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const nodeUrl = node.url.replace('http://', 'http://operator:hunter2secret@');
    proc = startCli([
      '--node.url', nodeUrl, '--node.header', 'X-Api-Key: key-abcdef-123456', '--web.listen-address', `127.0.0.1:${port}`,
      '--collection.interval', '2s', '--collection.timeout', '2s', '--node.timeout', '1500ms', '--collector.chain-height.interval', '2s',
      '--collector.info-peers.per-peer', '--node.subnet', CLI_L1,
    ]);
    await waitFor(async () => metric(await scrape(`${base}/metrics`), 'avax_up') === 1, 15_000);
  });
  afterAll(async () => {
    await proc?.stop('SIGKILL');
    await node?.close();
  });

  it('default: exposes every documented metric family (docs/metrics.md) this setup can produce', async () => {
    // Every collector's first run has finished and succeeded (bounded wait: a loaded CI machine is slow).
    const text = await waitFor(async () => {
      const t = await scrape(`${base}/metrics`);
      const ok = t.split('\n').filter((l) => l.startsWith('avax_collector_success{'));
      return ok.length === COLLECTORS.filter((c) => c.enabled).length && ok.every((l) => l.endsWith(' 1')) ? t : undefined;
    }, 20_000);
    const present = (f: string) => new RegExp(`^${f}(_bucket|_sum|_count)?\\{`, 'm').test(text);
    const families = [...documentedFamilies().keys()];
    expect(families.filter((f) => !present(f) && !(f in NOT_IN_THIS_SETUP))).toEqual([]);
    // The exceptions stay honest: documented, and really absent here.
    expect(Object.keys(NOT_IN_THIS_SETUP).filter((f) => !families.includes(f) || present(f))).toEqual([]);
    expect(metric(text, 'avax_chain_height', { chain: 'P' })).toBe(23961402);
    expect(metric(text, 'avax_uptime_weighted_average_ratio')).toBe(0.993417);
    expect(metric(text, 'avax_validator_stake_avax', { subnet: '11111111111111111111111111111111LpoYY' })).toBe(2000);
    expect(text).toContain('process_cpu_user_seconds_total');
    // The whole default output, process metrics included, passes the Prometheus lint.
    if (spawnSync('promtool', ['--version']).status === 0 || process.env['CI']) {
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(lint.stdout + lint.stderr).toBe('');
      expect(lint.status).toBe(0);
    }
    expect(metric(text, 'avax_node_healthy')).toBe(0);
    // health.health/unhealthy.json: its `bootstrapped` check (all the readiness endpoint runs) fails too.
    expect(metric(text, 'avax_node_ready')).toBe(0);
    expect(metric(text, 'avax_node_live')).toBe(1);
  });

  it('behavior: node down → avax_up 0 while still serving; node back → recovers by itself', async () => {
    await node.stop();
    const down = await waitFor(async () => {
      const t = await scrape(`${base}/metrics`);
      return metric(t, 'avax_up') === 0 ? t : undefined;
    }, 15_000);
    expect(metric(down, 'avax_collector_success', { collector: 'chain-height' })).toBe(0);
    expect(metric(down, 'avax_chain_height', { chain: 'P' })).toBeUndefined(); // no stale value
    expect(metric(down, 'avax_rpc_requests_total', { method: 'platform.getHeight', result: 'network_error' })).toBeGreaterThan(0);
    await node.start();
    await waitFor(async () => metric(await scrape(`${base}/metrics`), 'avax_up') === 1, 15_000);
    expect(metric(await scrape(`${base}/metrics`), 'avax_chain_height', { chain: 'P' })).toBe(23961402);
  });

  it('behavior: gzip, HEAD, landing page, /healthz, 404, 405, content type', async () => {
    const gz = await fetch(`${base}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toContain('avax_up'); // fetch decompresses
    const plain = await fetch(`${base}/metrics`);
    expect(plain.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await fetch(`${base}/metrics`, { method: 'HEAD' })).status).toBe(200);
    const landing = await (await fetch(`${base}/`)).text();
    expect(landing).toContain('avalanche-exporter');
    expect(landing).toContain('chain-height');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('error: credentials never appear in logs, labels or the landing page', async () => {
    const everything = proc.stdout() + proc.stderr() + (await scrape(`${base}/metrics`)) + (await scrape(`${base}/`));
    for (const secret of ['hunter2secret', 'operator:', 'key-abcdef-123456']) expect(everything).not.toContain(secret);
    // logs are pino JSON, one object per line
    for (const line of proc.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('behavior: SIGTERM stops cleanly with exit code 0', async () => {
    const port = await freePort();
    const p = startCli(['--node.url', node.url, '--web.listen-address', `127.0.0.1:${port}`]);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 10_000);
    expect(await p.stop('SIGTERM')).toBe(0);
    expect(p.stdout()).toContain('"event":"shutdown"');
  });
});

describe('check-config and invalid configuration', () => {
  it('error: an invalid value exits 2 naming the field; check-config validates without starting', () => {
    ensureBuilt();
    const bad = spawnSync(process.execPath, [CLI, '--node.url', 'ftp://x'], { encoding: 'utf8', timeout: 10_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('targets[0].url (--node.url): expected an http or https URL');
    const ok = spawnSync(process.execPath, [CLI, 'check-config', '--node.url', 'http://u:p4ssw0rd@127.0.0.1:9650'], { encoding: 'utf8', timeout: 10_000 });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('configuration OK');
    expect(ok.stdout).not.toContain('p4ssw0rd');
    const missing = spawnSync(process.execPath, [CLI, 'check-config', '--config.file', '/nonexistent.yaml'], { encoding: 'utf8', timeout: 10_000 });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read the file (ENOENT)');
  });
});
