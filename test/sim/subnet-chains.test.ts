// Issue 14 in the simulated node: platform.getBlockchains/getBlockchainStatus, info.getVMs/getNodeIP,
// the subnet's tagged health, the Admin API, and the scenarios that change them: what subnet-chains
// (and node-ip, admin-logger) read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimNode } from '@avalanche-exporter/simulated-node';
import { raw, result, rpc, startReadySim, waitFor } from './helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
let sim: SimNode;

beforeAll(async () => {
  // v1.14.2 (pinned: the default is 1.15.0): the protocol numbers of l1-vm-protocol-mismatch's error are its own.
  sim = await startReadySim({ seed: 14, validators: 40, peers: 50, healthIntervalMs: 50, version: '1.14.2' });
});
afterAll(async () => {
  await sim?.close();
});

async function l1Chain(): Promise<{ id: string; name: string; subnetID: string; vmID: string }> {
  const { blockchains } = await result(sim.url, '/ext/bc/P', 'platform.getBlockchains');
  return blockchains.find((c: { subnetID: string }) => c.subnetID === sim.l1SubnetId);
}
/** Waits until the health worker has run in the current scenario (bounded). */
async function tagged(subnet: string, want: boolean): Promise<any> {
  let last: any;
  await waitFor(async () => {
    last = (await rpc(sim.url, '/ext/health', 'health.health', { tags: [subnet] })).json.result;
    return last.healthy === want;
  });
  return last;
}

describe('healthy: chains, VMs, IP, tagged health, Admin API off', () => {
  it('getBlockchains lists X, C and the L1 chain (not P); each is Validating; every VM is installed', async () => {
    await sim.setScenario('healthy');
    const { blockchains } = await result(sim.url, '/ext/bc/P', 'platform.getBlockchains');
    expect(blockchains.map((c: { name: string }) => c.name)).toEqual(['X-Chain', 'C-Chain', 'sim-l1']);
    expect(blockchains[0]).toEqual({ id: X, name: 'X-Chain', subnetID: PRIMARY, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq' });
    const vms = (await result(sim.url, '/ext/info', 'info.getVMs')).vms;
    for (const c of blockchains) {
      expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: c.id })).toEqual({ status: 'Validating' });
      expect(Object.keys(vms)).toContain(c.vmID);
    }
    const l1 = await l1Chain();
    expect(await result(sim.url, '/ext/info', 'info.isBootstrapped', { chain: l1.id })).toEqual({ isBootstrapped: true });
  });
  it('health.health with the L1 tag: its chain check plus the application checks', async () => {
    const l1 = await l1Chain();
    const r = await tagged(sim.l1SubnetId, true);
    expect(Object.keys(r.checks)).toContain(l1.id);
    expect(Object.keys(r.checks)).not.toContain('C');
    const get = await raw(`${sim.url}/ext/health?tag=${sim.l1SubnetId}`);
    expect(Object.keys(JSON.parse(get.body).checks)).toContain(l1.id);
  });
  it('getNodeIP gives ip:port; /ext/admin is a plain-text 404', async () => {
    expect((await result(sim.url, '/ext/info', 'info.getNodeIP')).ip).toMatch(/^198\.51\.100\.\d+:9651$/);
    const r = await raw(`${sim.url}/ext/admin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.getLoggerLevel","params":{}}' });
    expect(r.status).toBe(404);
    expect(r.body).toBe('404 page not found\n');
  });
});

describe('issue 14 scenarios', () => {
  it('l1-untracked: status Created, no chain check, isBootstrapped unknown chain, still an L1 validator', async () => {
    const l1 = await l1Chain();
    await sim.setScenario('l1-untracked');
    expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: l1.id })).toEqual({ status: 'Created' });
    expect((await rpc(sim.url, '/ext/info', 'info.isBootstrapped', { chain: l1.id })).json.error.message).toBe(`there is no chain with alias/ID '${l1.id}'`);
    const r = await tagged(sim.l1SubnetId, true);
    expect(Object.keys(r.checks)).not.toContain(l1.id);
    const set = await result(sim.url, '/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed', subnetID: sim.l1SubnetId });
    expect(Object.keys(set)).toContain(sim.nodeId());
  });
  it('l1-vm-missing: VM absent from getVMs, status Created, the chain check fails and the subnet is unhealthy', async () => {
    const l1 = await l1Chain();
    await sim.setScenario('l1-vm-missing');
    expect(Object.keys((await result(sim.url, '/ext/info', 'info.getVMs')).vms)).not.toContain(l1.vmID);
    expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: l1.id })).toEqual({ status: 'Created' });
    const r = await tagged(sim.l1SubnetId, false);
    expect(r.checks[l1.id].error).toBe(`failed to create chain on subnet ${sim.l1SubnetId}: error while getting vmFactory: "${l1.vmID}" was not registered as a vm`);
    expect(r.checks[l1.id]).not.toHaveProperty('message');
    // The primary network's chains are unaffected.
    expect((await rpc(sim.url, '/ext/health', 'health.health', { tags: [PRIMARY] })).json.result.checks.C.error).toBeUndefined();
  });
  it('l1-vm-protocol-mismatch: VM still in getVMs, status Created, the chain check fails with the handshake error naming both protocols', async () => {
    const l1 = await l1Chain();
    await sim.setScenario('l1-vm-protocol-mismatch');
    expect(Object.keys((await result(sim.url, '/ext/info', 'info.getVMs')).vms)).toContain(l1.vmID);
    expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: l1.id })).toEqual({ status: 'Created' });
    expect((await rpc(sim.url, '/ext/info', 'info.isBootstrapped', { chain: l1.id })).json.error.message).toBe(`there is no chain with alias/ID '${l1.id}'`);
    const r = await tagged(sim.l1SubnetId, false);
    expect(r.checks[l1.id].error).toMatch(
      new RegExp(`^failed to create chain on subnet ${sim.l1SubnetId}: error while creating vm: handshake failed: RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin\\. AvalancheGo version v1\\.14\\.2 implements RPCChainVM protocol version 45\\. The VM located at \\S+/${l1.vmID} implements RPCChainVM protocol version 44\\. Please make sure`),
    );
    expect(r.checks[l1.id]).not.toHaveProperty('message');
  });
  it('l1-unhealthy: the L1 chain check fails (not connected to enough stake), status stays Validating', async () => {
    const l1 = await l1Chain();
    await sim.setScenario('l1-unhealthy');
    const r = await tagged(sim.l1SubnetId, false);
    expect(r.checks[l1.id].error).toMatch(/^not connected to enough stake/);
    expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: l1.id })).toEqual({ status: 'Validating' });
  });
  it('ip-changed: another address, same port; back to the first one when healthy', async () => {
    await sim.setScenario('healthy');
    const before = (await result(sim.url, '/ext/info', 'info.getNodeIP')).ip;
    await sim.setScenario('ip-changed');
    const after = (await result(sim.url, '/ext/info', 'info.getNodeIP')).ip;
    expect(after).toMatch(/^203\.0\.113\.\d+:9651$/);
    expect(after).not.toBe(before);
    await sim.setScenario('healthy');
    expect((await result(sim.url, '/ext/info', 'info.getNodeIP')).ip).toBe(before);
  });
  it('log-level-debug: the Admin API answers; the C logger writes DEBUG', async () => {
    await sim.setScenario('log-level-debug');
    const r = await result(sim.url, '/ext/admin', 'admin.getLoggerLevel', {});
    expect(r.loggerLevels.C).toEqual({ logLevel: 'DEBUG', displayLevel: 'INFO' });
    expect(r.loggerLevels.main.logLevel).toBe('INFO');
    expect((await result(sim.url, '/ext/admin', 'admin.getLoggerLevel', { loggerName: 'main' })).loggerLevels).toEqual({ main: { logLevel: 'INFO', displayLevel: 'INFO' } });
    await sim.setScenario('healthy');
  });
});
