// The simulator against the traps of docs/avalanchego-wire.md §1-7 (transport, JSON-RPC
// envelope, number encodings, health, index).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { HealthChecker } from '@avalanche-exporter/simulated-node';
import { NodeModel } from '@avalanche-exporter/simulated-node';
import { cb58Valid, nodeIdValid, post, raw, result, rpc, startReadySim } from './helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);

let sim: SimNode;
let clock = T0;

beforeAll(async () => {
  // The wire answers of a v1.14.2 node (pinned: the default is 1.15.0, whose differences versions.test.ts and
  // helicon-sae.test.ts hold).
  sim = await startReadySim({ seed: 7, validators: 300, peers: 340, healthIntervalMs: 60_000, now: () => clock, version: '1.14.2' });
});
afterAll(async () => {
  await sim?.close();
});

describe('transport', () => {
  it('415 without a Content-Type, text without trailing newline', async () => {
    const r = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}', null);
    expect(r.status).toBe(415);
    expect(r.body).toBe('rpc: unrecognized Content-Type: ');
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('415 with text/plain (what fetch sends for a string body)', async () => {
    const r = await post(sim.url + '/ext/bc/P', '{}', 'text/plain;charset=UTF-8');
    expect(r.status).toBe(415);
    expect(r.body).toBe('rpc: unrecognized Content-Type: text/plain');
  });

  it('accepts application/json with parameters after ;', async () => {
    const r = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}', 'application/json; charset=utf-8');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result).toEqual({ networkID: '1' });
  });

  it('405 on GET to a JSON-RPC endpoint', async () => {
    const r = await raw(sim.url + '/ext/info');
    expect(r.status).toBe(405);
    expect(r.body).toBe('rpc: POST method required, received GET');
  });

  it('404 text for unknown paths, admin, trailing slash', async () => {
    for (const p of ['/ext/admin', '/ext/nope', '/ext/info/', '/', '/ext/index/P/tx', '/ext/bc/C']) {
      const r = await post(sim.url + p, '{"jsonrpc":"2.0","id":1,"method":"admin.alias"}');
      expect(r.status, p).toBe(404);
      expect(r.body).toBe('404 page not found\n');
    }
  });

  it('403 for a DNS Host other than localhost; IP literals, localhost and empty Host pass', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
    const port = new URL(sim.url).port;
    const evil = await raw(sim.url + '/ext/info', { method: 'POST', headers: { Host: 'evil.example', 'Content-Type': 'application/json' }, body });
    expect(evil.status).toBe(403);
    expect(evil.body).toBe('invalid host specified\n');
    expect(evil.headers['node-id']).toBe(sim.nodeId());
    const docker = await raw(sim.url + '/ext/info', { method: 'POST', headers: { Host: `avalanchego:${port}`, 'Content-Type': 'application/json' }, body });
    expect(docker.status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, '10.1.2.3', `[::1]:${port}`, '']) {
      const ok = await raw(sim.url + '/ext/info', { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json' }, body });
      expect(ok.status, host).toBe(200);
    }
  });

  it('every response carries Node-Id', async () => {
    const rs = await Promise.all([raw(sim.url + '/ext/info'), raw(sim.url + '/nope'), raw(sim.url + '/ext/health'), rpc(sim.url, '/ext/info', 'info.getNodeID')]);
    for (const r of rs) expect(r.headers['node-id']).toBe(sim.nodeId());
    expect(nodeIdValid(sim.nodeId())).toBe(true);
  });
});

describe('JSON-RPC envelope', () => {
  it('success: key order, content type, trailing newline, raw id echo', async () => {
    const r = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0","id": 1.50 ,"method":"info.getNetworkName","params":{}}');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.body).toBe('{"jsonrpc":"2.0","result":{"networkName":"mainnet"},"id":1.50}\n');
    const s = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0","id":"a<b","method":"info.getNetworkID"}');
    expect(s.body).toBe('{"jsonrpc":"2.0","result":{"networkID":"1"},"id":"a\\u003cb"}\n');
  });

  it('-32000 texts for unknown method/service, uppercase, ill-formed', async () => {
    const cases: Array<[string, string, string]> = [
      ['/ext/info', 'info.getFoo', 'rpc: can\'t find method "info.GetFoo"'],
      ['/ext/info', 'platform.getHeight', 'rpc: can\'t find service "platform.GetHeight"'],
      ['/ext/bc/P', 'info.getNodeID', 'rpc: can\'t find service "info.GetNodeID"'],
      ['/ext/info', 'info.GetNodeID', 'method must start with a non-uppercase letter'],
      ['/ext/info', 'getNodeID', 'rpc: service/method request ill-formed: "getNodeID"'],
      ['/ext/bc/P', 'platform.getPendingValidators', 'rpc: can\'t find method "platform.GetPendingValidators"'],
    ];
    for (const [path, method, message] of cases) {
      const r = await rpc(sim.url, path, method);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: 1 });
      expect(r.body.indexOf('"error"')).toBeLessThan(r.body.indexOf('"id"'));
    }
  });

  it('-32600 when jsonrpc is missing or not 2.0, with the request echoed in data', async () => {
    const r = await post(sim.url + '/ext/info', '{"jsonrpc":"1.0","id":7,"method":"info.getNodeID"}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'jsonrpc must be 2.0', data: { jsonrpc: '1.0', method: 'info.getNodeID', params: null, id: 7 } },
      id: 7,
    });
    const missing = await post(sim.url + '/ext/info', '{"id":8,"method":"info.getNodeID"}');
    expect(JSON.parse(missing.body).error.code).toBe(-32600);
  });

  it('-32700 for a batch and for malformed JSON, id null', async () => {
    const batch = await post(sim.url + '/ext/info', '[{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}]');
    expect(batch.status).toBe(200);
    const b = JSON.parse(batch.body);
    expect(b.error.code).toBe(-32700);
    expect(b.id).toBeNull();
    expect(b.error.data).toEqual({ jsonrpc: '', method: '', params: null, id: null });
    const bad = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0",');
    expect(JSON.parse(bad.body).error).toEqual({ code: -32700, message: 'unexpected EOF', data: { jsonrpc: '', method: '', params: null, id: null } });
    const bad2 = await post(sim.url + '/ext/info', 'hello');
    expect(JSON.parse(bad2.body).error.message).toBe("invalid character 'h' looking for beginning of value");
  });

  it('very deep nesting is a parse error, not a crash', async () => {
    const r = await post(sim.url + '/ext/info', '['.repeat(20000));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).error).toMatchObject({ code: -32700, message: 'exceeded max depth' });
  });

  it('no id or id null: HTTP 200 with an empty body', async () => {
    for (const body of ['{"jsonrpc":"2.0","method":"info.getNodeID"}', '{"jsonrpc":"2.0","id":null,"method":"info.getNodeID"}', '{"jsonrpc":"2.0","method":"info.getFoo"}']) {
      const r = await post(sim.url + '/ext/info', body);
      expect(r.status).toBe(200);
      expect(r.body).toBe('');
    }
  });

  it('params may be omitted, {} or a one-element array; bad params give the unmarshal error', async () => {
    const a = await rpc(sim.url, '/ext/info', 'info.isBootstrapped', [{ chain: 'P' }]);
    expect(a.json.result).toEqual({ isBootstrapped: true });
    const b = await rpc(sim.url, '/ext/info', 'info.isBootstrapped', { chain: 5 });
    expect(b.json.error.message).toMatch(/^couldn't unmarshal an argument/);
    const c = await rpc(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: ['NodeID-bogus'] });
    expect(c.json.error.code).toBe(-32000);
  });
});

describe('info', () => {
  it('getNodeID with nodePOP', async () => {
    const r = await result(sim.url, '/ext/info', 'info.getNodeID');
    expect(r.nodeID).toBe(sim.nodeId());
    expect(r.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(r.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
  });

  it('getNodeVersion', async () => {
    const r = await result(sim.url, '/ext/info', 'info.getNodeVersion');
    expect(r).toMatchObject({ version: 'avalanchego/1.14.2', databaseVersion: 'v1.4.5', rpcProtocolVersion: '45' });
    expect(Object.keys(r.vmVersions)).toEqual(['avm', 'evm', 'platform']);
  });

  it('isBootstrapped errors', async () => {
    expect((await rpc(sim.url, '/ext/info', 'info.isBootstrapped', { chain: 'Q' })).json.error.message).toBe("there is no chain with alias/ID 'Q'");
    expect((await rpc(sim.url, '/ext/info', 'info.isBootstrapped', {})).json.error.message).toBe("argument 'chain' not given");
    for (const c of ['P', 'X', 'C']) expect(await result(sim.url, '/ext/info', 'info.isBootstrapped', { chain: c })).toEqual({ isBootstrapped: true });
  });

  it('peers: numPeers string, fields in order, versions mixed, filter', async () => {
    const r = await result(sim.url, '/ext/info', 'info.peers');
    expect(typeof r.numPeers).toBe('string');
    expect(Number(r.numPeers)).toBe(r.peers.length);
    expect(r.peers.length).toBeGreaterThan(300);
    expect(Object.keys(r.peers[0])).toEqual([
      'ip', 'publicIP', 'nodeID', 'version', 'upgradeTime', 'lastSent', 'lastReceived', 'observedUptime', 'trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched',
    ]);
    const p = r.peers[0];
    expect(typeof p.upgradeTime).toBe('number');
    expect(p.observedUptime).toMatch(/^\d{1,3}$/);
    expect(p.lastReceived).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const versions = new Set(r.peers.map((x: any) => x.version));
    expect(versions.has('avalanchego/1.14.2')).toBe(true);
    expect(versions.size).toBeGreaterThan(1);
    for (const x of r.peers) if (x.version === 'avalanchego/1.14.0') expect(x.upgradeTime).toBe(0);
    // every peer tracks the primary network, listed first (a set sorted by JSON bytes)
    for (const x of r.peers) {
      expect(x.trackedSubnets[0]).toBe('11111111111111111111111111111111LpoYY');
      expect(x.trackedSubnets).toEqual([...x.trackedSubnets].sort((a: string, b: string) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)));
    }
    expect(r.peers.some((x: any) => x.trackedSubnets.length > 1)).toBe(true);
    const ids = [r.peers[3].nodeID, r.peers[9].nodeID, 'NodeID-111111111111111111116DBWJs'];
    const f = await result(sim.url, '/ext/info', 'info.peers', { nodeIDs: ids });
    expect(f.numPeers).toBe('2');
  });

  it('uptime as 4-decimal strings', async () => {
    const r = await result(sim.url, '/ext/info', 'info.uptime');
    expect(r.rewardingStakePercentage).toMatch(/^\d{1,3}\.\d{4}$/);
    expect(r.weightedAveragePercentage).toMatch(/^\d{1,3}\.\d{4}$/);
    expect(Number(r.weightedAveragePercentage)).toBeGreaterThan(90);
  });

  it('upgrades, acps, getVMs, getTxFee, getBlockchainID', async () => {
    const u = await result(sim.url, '/ext/info', 'info.upgrades');
    expect(u.graniteTime).toBe('2025-11-19T16:00:00Z');
    expect(u.graniteEpochDuration).toBe(300000000000);
    expect(u.heliconTime).toBe('9999-12-01T00:00:00Z');
    expect(await result(sim.url, '/ext/info', 'info.acps')).toEqual({ acps: {} });
    const vms = await result(sim.url, '/ext/info', 'info.getVMs');
    // The built-in VMs and the L1 chain's plugin (no alias).
    expect(Object.values(vms.vms).sort()).toEqual([[], ['avm'], ['evm'], ['platform']]);
    expect(Object.keys(vms.vms)).toEqual(Object.keys(vms.vms).sort());
    expect(Object.keys(await result(sim.url, '/ext/info', 'info.getTxFee'))).toHaveLength(9);
    expect((await result(sim.url, '/ext/info', 'info.getBlockchainID', { alias: 'X' })).blockchainID).toBe('2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM');
  });
});

describe('platform', () => {
  it('heights and timestamps', async () => {
    expect((await result(sim.url, '/ext/bc/P', 'platform.getHeight')).height).toMatch(/^\d+$/);
    expect((await result(sim.url, '/ext/P', 'platform.getHeight')).height).toMatch(/^\d+$/);
    expect((await result(sim.url, '/ext/bc/' + PRIMARY, 'platform.getProposedHeight')).height).toMatch(/^\d+$/);
    expect((await result(sim.url, '/ext/platform', 'platform.getTimestamp')).timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await result(sim.url, '/ext/bc/platform', 'platform.getValidatorFeeState')).toMatchObject({ excess: 0, price: 512 });
    const s = await result(sim.url, '/ext/bc/P', 'platform.getCurrentSupply');
    expect(s.supply).toMatch(/^\d+$/);
    expect(s.height).toMatch(/^\d+$/);
    expect(await result(sim.url, '/ext/bc/P', 'platform.getMinStake')).toEqual({ minValidatorStake: '2000000000000', minDelegatorStake: '25000000000' });
    expect((await rpc(sim.url, '/ext/bc/P', 'platform.getMinStake', { subnetID: sim.l1SubnetId })).json.error.message).toBe(
      `failed fetching subnet transformation for ${sim.l1SubnetId}: not found`,
    );
  });

  it('getCurrentValidators: primary shape, delegators only for one nodeID, unknown dropped', async () => {
    const all = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators');
    expect(all.validators).toHaveLength(300);
    const own = all.validators.find((v: any) => v.nodeID === sim.nodeId());
    expect(Object.keys(own)).toEqual([
      'txID', 'startTime', 'endTime', 'weight', 'nodeID', 'validationRewardOwner', 'delegationRewardOwner', 'potentialReward', 'accruedDelegateeReward',
      'delegationFee', 'uptime', 'connected', 'signer', 'delegatorCount', 'delegatorWeight',
    ]);
    expect(Object.keys(own.signer)).toEqual(['publicKey', 'proofOfPossession']);
    expect(own.delegationFee).toMatch(/^\d+\.\d{4}$/);
    expect(own.uptime).toMatch(/^\d+\.\d{4}$/);
    expect(own.connected).toBe(true);
    expect(cb58Valid(own.txID, 32)).toBe(true);
    const endDays = (Number(own.endTime) * 1000 - clock) / 86_400_000;
    expect(endDays).toBeGreaterThan(20);
    expect(endDays).toBeLessThan(201);
    expect(own.validationRewardOwner.addresses[0]).toMatch(/^P-avax1[02-9ac-hj-np-z]{38}$/);
    for (let i = 1; i < all.validators.length; i++) expect(Number(all.validators[i].endTime)).toBeGreaterThanOrEqual(Number(all.validators[i - 1].endTime));

    const one = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId(), 'NodeID-111111111111111111116DBWJs'] });
    expect(one.validators).toHaveLength(1);
    expect('delegators' in one.validators[0]).toBe(false);
    const single = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] });
    expect(Array.isArray(single.validators[0].delegators)).toBe(true);
    expect(single.validators[0].delegators.length).toBe(Number(single.validators[0].delegatorCount));
  });

  it('getCurrentValidators for the L1: L1 shape, own positive balance, an inactive validator', async () => {
    const r = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId });
    expect(cb58Valid(sim.l1SubnetId, 32)).toBe(true);
    for (const v of r.validators) {
      expect(Object.keys(v)).toEqual(['nodeID', 'weight', 'startTime', 'validationID', 'publicKey', 'remainingBalanceOwner', 'deactivationOwner', 'minNonce', 'balance']);
      expect(v.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    }
    const own = r.validators.find((v: any) => v.nodeID === sim.nodeId());
    expect(BigInt(own.balance)).toBeGreaterThan(0n);
    expect(r.validators.some((v: any) => v.balance === '0')).toBe(true);
  });

  it('getBlockchainStatus and getTxStatus', async () => {
    expect(await result(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: 'X' })).toEqual({ status: 'Validating' });
    expect((await rpc(sim.url, '/ext/bc/P', 'platform.getBlockchainStatus', {})).json.error.message).toBe("argument 'blockchainID' not given");
    const v = (await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] })).validators[0];
    expect(await result(sim.url, '/ext/bc/P', 'platform.getTxStatus', { txID: v.txID })).toEqual({ status: 'Committed' });
  });
});

describe('X, C and index', () => {
  it('avm.getHeight, eth_blockNumber, eth_chainId', async () => {
    expect((await result(sim.url, '/ext/bc/X', 'avm.getHeight')).height).toMatch(/^\d+$/);
    const bn = await rpc(sim.url, '/ext/bc/C/rpc', 'eth_blockNumber', []);
    expect(bn.body).toMatch(/^\{"jsonrpc":"2.0","id":1,"result":"0x[0-9a-f]+"\}\n$/);
    expect((await rpc(sim.url, '/ext/bc/C/rpc', 'eth_chainId', [])).json.result).toBe('0xa86a');
    expect((await rpc(sim.url, '/ext/bc/C/rpc', 'eth_foo', [])).json.error.code).toBe(-32601);
  });

  it('index.getLastAccepted: CB58 id, checksummed bytes, string index', async () => {
    for (const chain of ['P', 'C', 'X']) {
      const r = await result(sim.url, `/ext/index/${chain}/block`, 'index.getLastAccepted', { encoding: 'hex' });
      expect(Object.keys(r)).toEqual(['id', 'bytes', 'timestamp', 'encoding', 'index']);
      expect(r.encoding).toBe('hex');
      expect(r.index).toMatch(/^\d+$/);
      expect(cb58Valid(r.id, 32)).toBe(true);
      const bytes = Buffer.from(r.bytes.slice(2), 'hex');
      const payload = bytes.subarray(0, bytes.length - 4);
      expect(createHash('sha256').update(payload).digest().subarray(28)).toEqual(bytes.subarray(bytes.length - 4));
      const byIndex = await result(sim.url, `/ext/index/${chain}/block`, 'index.getContainerByIndex', { index: r.index });
      expect(byIndex.id).toBe(r.id);
      expect(await result(sim.url, `/ext/index/${chain}/block`, 'index.getIndex', { id: r.id })).toEqual({ index: r.index });
    }
    const e = await rpc(sim.url, '/ext/index/P/block', 'index.getLastAccepted', { encoding: 'json' });
    expect(e.json.error.message).toBe('unsupported encoding in method');
  });

  it('X/tx and X/vtx are frozen', async () => {
    const a = await result(sim.url, '/ext/index/X/vtx', 'index.getLastAccepted', {});
    clock += 600_000;
    const b = await result(sim.url, '/ext/index/X/vtx', 'index.getLastAccepted', {});
    expect(b).toEqual(a);
    expect(Date.parse(a.timestamp)).toBeLessThan(Date.UTC(2023, 5, 1));
    expect((await result(sim.url, '/ext/index/X/tx', 'index.getLastAccepted', {})).index).toMatch(/^\d+$/);
  });
});

describe('health', () => {
  it('not yet run before the first computation', () => {
    const h = new HealthChecker(new NodeModel({ seed: 1, validators: 20, peers: 20, blockRates: { P: 1, C: 1, X: 1 }, now: () => T0 }));
    const r = h.health([]);
    expect(r.healthy).toBe(false);
    expect(JSON.stringify(r.checks['P'])).toBe('{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}');
  });

  it('GET /ext/health: names, order, result fields, content type', async () => {
    const r = await raw(sim.url + '/ext/health');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const j = JSON.parse(r.body);
    expect(j.healthy).toBe(true);
    const names = Object.keys(j.checks);
    for (const n of ['C', 'P', 'X', 'bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router']) expect(names).toContain(n);
    expect([...names].sort()).toEqual(names);
    expect(Object.keys(j.checks.database)).toEqual(['timestamp', 'duration']);
    expect(Object.keys(j.checks.P)).toEqual(['message', 'timestamp', 'duration']);
    expect(Object.keys(j.checks.P.message.engine.consensus)).toEqual(['avgAcceptanceTime', 'lastAcceptedHeight', 'lastAcceptedID', 'longestProcessingBlock', 'processingBlocks']);
    expect(j.checks.P.message.engine.vm).toBeNull();
    expect(typeof j.checks.P.message.networking.percentConnected).toBe('number');
    expect(j.checks.bootstrapped.message).toEqual([]);
    expect(j.checks.bls.message).toBe('node has the correct BLS key');
    expect(j.checks.network.message['primary network validator health']).toMatchObject({ primaryNetworkValidator: true });
    expect(j.checks.P.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/);
    expect(Number.isInteger(j.checks.P.duration)).toBe(true);
    expect((await raw(sim.url + '/ext/health/health')).status).toBe(200);
  });

  it('readiness, liveness, HEAD, POST', async () => {
    const rd = JSON.parse((await raw(sim.url + '/ext/health/readiness')).body);
    expect(Object.keys(rd.checks)).toEqual(['bootstrapped']);
    const lv = await raw(sim.url + '/ext/health/liveness');
    expect(lv.body).toBe('{"checks":{},"healthy":true}\n');
    expect((await raw(sim.url + '/ext/health', { method: 'HEAD' })).status).toBe(405);
    const p = await rpc(sim.url, '/ext/health', 'health.health', { tags: [sim.l1SubnetId] });
    expect(p.status).toBe(200);
    expect(Object.keys(p.json.result.checks)).not.toContain('P');
    expect((await result(sim.url, '/ext/health', 'health.liveness'))).toEqual({ checks: {}, healthy: true });
  });

  it('?tag= keeps the tagged checks plus all application checks', async () => {
    const l1 = JSON.parse((await raw(`${sim.url}/ext/health?tag=${sim.l1SubnetId}`)).body);
    const names = Object.keys(l1.checks);
    expect(names).not.toContain('P');
    expect(names).toContain('network');
    expect(names.filter((n) => n.length > 30)).toHaveLength(1); // the L1 chain, by chain ID
    const prim = JSON.parse((await raw(`${sim.url}/ext/health?tag=${PRIMARY}`)).body);
    expect(Object.keys(prim.checks)).toContain('P');
    expect(Object.keys(prim.checks).filter((n) => n.length > 30)).toHaveLength(0);
    const other = JSON.parse((await raw(`${sim.url}/ext/health?tag=foo`)).body);
    expect(Object.keys(other.checks)).toEqual(['bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router']);
  });
});

describe('determinism and time', () => {
  it('same seed and clock give identical answers; another seed differs', async () => {
    const now = (): number => T0 + 5000;
    const a = await startSimNode({ seed: 42, validators: 50, peers: 60, now });
    const b = await startSimNode({ seed: 42, validators: 50, peers: 60, now });
    const c = await startSimNode({ seed: 43, validators: 50, peers: 60, now });
    try {
      for (const [path, m] of [['/ext/info', 'info.peers'], ['/ext/bc/P', 'platform.getCurrentValidators'], ['/ext/index/C/block', 'index.getLastAccepted'], ['/ext/info', 'info.uptime']]) {
        const ra = await rpc(a.url, path as string, m as string, {});
        const rb = await rpc(b.url, path as string, m as string, {});
        expect(ra.body).toBe(rb.body);
      }
      expect(a.nodeId()).toBe(b.nodeId());
      expect(c.nodeId()).not.toBe(a.nodeId());
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('with an injected clock, wall time changes nothing: the health worker runs on that clock (issue 25)', async () => {
    let t = T0;
    const s = await startSimNode({ seed: 3, validators: 30, peers: 30, now: () => t, healthIntervalMs: 5 });
    try {
      const p0 = (await result(s.url, '/ext/bc/P', 'platform.getHeight')).height;
      const h0 = (await rpc(s.url, '/ext/health', 'health.health', {})).body;
      t += 100_000;
      const h1 = (await rpc(s.url, '/ext/health', 'health.health', {})).body;
      expect(h1).not.toBe(h0); // due runs happen when the clock says so
      // 30 ms of wall time, six wall-clock health intervals: nothing runs, nothing moves.
      await new Promise((r) => setTimeout(r, 30));
      expect((await rpc(s.url, '/ext/health', 'health.health', {})).body).toBe(h1);
      // A clock set back starts the schedule over; the heights never go down.
      t -= 100_000;
      expect((await result(s.url, '/ext/bc/P', 'platform.getHeight')).height).toBe(String(Number(p0) + 20));
    } finally {
      await s.close();
    }
  });

  it('heights grow with the injected clock at the configured rates', async () => {
    let t = T0;
    const s = await startSimNode({ seed: 3, validators: 30, peers: 30, now: () => t, blockRates: { P: 0.2, C: 0.5, X: 0.1 } });
    try {
      const h = async (): Promise<[number, number, number]> => [
        Number((await result(s.url, '/ext/bc/P', 'platform.getHeight')).height),
        parseInt((await rpc(s.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])).json.result.slice(2), 16),
        Number((await result(s.url, '/ext/bc/X', 'avm.getHeight')).height),
      ];
      const a = await h();
      t += 100_000;
      const b = await h();
      expect(b[0] - a[0]).toBe(20);
      expect(b[1] - a[1]).toBe(50);
      expect(b[2] - a[2]).toBe(10);
      const ia = await result(s.url, '/ext/index/C/block', 'index.getLastAccepted');
      t += 10_000;
      const ib = await result(s.url, '/ext/index/C/block', 'index.getLastAccepted');
      expect(Number(ib.index) - Number(ia.index)).toBe(5);
      expect(Date.parse(ib.timestamp)).toBeGreaterThan(Date.parse(ia.timestamp));
      // a clock going backwards never lowers a height
      t -= 50_000;
      const c = await h();
      expect(c[0]).toBe(b[0]);
      expect(c[1]).toBe(b[1] + 5);
    } finally {
      await s.close();
    }
  });

  it('peers churn, L1 balances drain at the fee price, end times stay fixed', async () => {
    let t = T0;
    const s = await startSimNode({ seed: 8, validators: 400, peers: 500, now: () => t });
    try {
      const ids = async (): Promise<Set<string>> => new Set((await result(s.url, '/ext/info', 'info.peers')).peers.map((p: any) => p.nodeID));
      const own = async (): Promise<any> =>
        (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: s.l1SubnetId, nodeIDs: [s.nodeId()] })).validators[0];
      const end = async (): Promise<string> => (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [s.nodeId()] })).validators[0].endTime;
      const a = await ids();
      const balA = BigInt((await own()).balance);
      const endA = await end();
      t += 5 * 60_000;
      const b = await ids();
      const left = [...a].filter((x) => !b.has(x)).length;
      expect(left).toBeGreaterThan(0);
      expect(left / a.size).toBeLessThan(0.3);
      expect(balA - BigInt((await own()).balance)).toBe(512n * 300n);
      expect(await end()).toBe(endA);
    } finally {
      await s.close();
    }
  });

  it('serves 1,500 validators and 1,700 peers quickly', async () => {
    const s = await startSimNode({ seed: 1 });
    try {
      const t1 = Date.now();
      const v = await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators');
      const p = await result(s.url, '/ext/info', 'info.peers');
      expect(v.validators).toHaveLength(1500);
      expect(Number(p.numPeers)).toBeGreaterThan(1600);
      expect(Date.now() - t1).toBeLessThan(2000);
    } finally {
      await s.close();
    }
  });
});
