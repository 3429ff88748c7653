// Issue 16: the simulated node as avalanchego v1.13.5 beside v1.14.2. Every difference a real
// v1.13.5 node shows, and that everything else is byte for byte the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimNode, type SimNode } from '../../src/sim/server.js';
import { parseSimArgs } from '../../src/sim/cli.js';
import { post, raw, result, rpc, waitFor } from './helpers.js';

const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);
const PRIMARY = '11111111111111111111111111111111LpoYY';
const NOT_YET_RUN = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
let clock = T0;
let v113: SimNode;
let v114: SimNode;
const byJson = (a: string[]): string[] => [...a].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));

beforeAll(async () => {
  const common = { seed: 13, validators: 200, peers: 240, healthIntervalMs: 60_000, now: () => clock };
  v113 = await startSimNode({ ...common, version: '1.13.5' });
  v114 = await startSimNode({ ...common, version: '1.14.2' });
  await waitFor(async () => (await raw(v113.url + '/ext/health')).status === 200 && (await raw(v114.url + '/ext/health')).status === 200);
});
afterAll(async () => {
  await v113?.close();
  await v114?.close();
});

describe('v1.13.5: what differs from v1.14.2', () => {
  it('info.getNodeVersion: avalanchego/1.13.5, RPC protocol 43, VM versions of the release', async () => {
    const r = await rpc(v113.url, '/ext/info', 'info.getNodeVersion');
    expect(r.body).toMatch(
      /^\{"jsonrpc":"2\.0","result":\{"version":"avalanchego\/1\.13\.5","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"43","gitCommit":"[0-9a-f]{40}","vmVersions":\{"avm":"v1\.13\.5","evm":"v0\.15\.4","platform":"v1\.13\.5"\}\},"id":1\}\n$/,
    );
    const n = await result(v114.url, '/ext/info', 'info.getNodeVersion');
    expect(n).toMatchObject({ version: 'avalanchego/1.14.2', databaseVersion: 'v1.4.5', rpcProtocolVersion: '45' });
    expect(n.vmVersions).toEqual({ avm: 'avalanchego/1.14.2', evm: 'v1.14.2', platform: 'avalanchego/1.14.2' });
    expect(n.gitCommit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('info.upgrades: no heliconTime, no graniteEpochDuration, Granite unscheduled; the rest equal', async () => {
    const a = await result(v113.url, '/ext/info', 'info.upgrades');
    const b = await result(v114.url, '/ext/info', 'info.upgrades');
    expect(a.graniteTime).toBe('9999-12-01T00:00:00Z');
    expect('heliconTime' in a).toBe(false);
    expect('graniteEpochDuration' in a).toBe(false);
    expect(b).toMatchObject({ graniteTime: '2025-11-19T16:00:00Z', graniteEpochDuration: 300000000000, heliconTime: '9999-12-01T00:00:00Z' });
    const { graniteTime: _g1, ...restA } = a;
    const { graniteTime: _g2, graniteEpochDuration: _e, heliconTime: _h, ...restB } = b;
    expect(Object.keys(restA)).toEqual(Object.keys(restB));
    expect(restA).toEqual(restB);
    expect(Object.keys(a).at(-1)).toBe('graniteTime');
  });

  it('info.acps: ACP-176 with a support share above 50 % (v1.13.x peers), weights as avalanchego tallies them', async () => {
    const acps = (await result(v113.url, '/ext/info', 'info.acps')).acps;
    expect(Object.keys(acps)).toEqual(['176']);
    const t = acps['176'];
    expect(Object.keys(t)).toEqual(['supportWeight', 'supporters', 'objectWeight', 'objectors', 'abstainWeight']);
    for (const k of ['supportWeight', 'objectWeight', 'abstainWeight']) expect(t[k]).toMatch(/^\d+$/);
    expect(t.objectors).toEqual([]);
    expect(t.objectWeight).toBe('0');
    expect(t.supporters).toEqual(byJson(t.supporters));
    const total = BigInt((await result(v113.url, '/ext/bc/P', 'platform.getTotalStake')).weight);
    expect(BigInt(t.supportWeight) + BigInt(t.objectWeight) + BigInt(t.abstainWeight)).toBe(total);
    const share = Number((BigInt(t.supportWeight) * 10_000n) / total) / 10_000;
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.75);
    // the supporters are exactly the connected validator peers on v1.13.x, weighted as getValidatorsAt
    const peers = (await result(v113.url, '/ext/info', 'info.peers')).peers as any[];
    const at = await result(v113.url, '/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed' });
    const expected = peers.filter((p) => p.version.startsWith('avalanchego/1.13.') && at[p.nodeID]).map((p) => p.nodeID);
    expect(t.supporters).toEqual(byJson(expected));
    expect(t.supportWeight).toBe(expected.reduce((s: bigint, id: string) => s + BigInt(at[id].weight), 0n).toString());
    // v1.14.2: CurrentACPs is empty
    expect(await result(v114.url, '/ext/info', 'info.acps')).toEqual({ acps: {} });
  });

  it('info.peers: no upgradeTime; v1.13.5 / v1.13.4 peers announce ACP-176, v1.14.x peers nothing', async () => {
    const peers = (await result(v113.url, '/ext/info', 'info.peers')).peers as any[];
    for (const p of peers) {
      expect(Object.keys(p)).toEqual(['ip', 'publicIP', 'nodeID', 'version', 'lastSent', 'lastReceived', 'observedUptime', 'trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched']);
      expect(p.supportedACPs).toEqual(p.version.startsWith('avalanchego/1.13.') ? [176] : []);
      expect(p.objectedACPs).toEqual([]);
      expect(p.trackedSubnets[0]).toBe(PRIMARY);
    }
    const versions = new Set(peers.map((p) => p.version));
    for (const v of ['avalanchego/1.13.5', 'avalanchego/1.13.4', 'avalanchego/1.14.2']) expect(versions).toContain(v);
    const p114 = (await result(v114.url, '/ext/info', 'info.peers')).peers as any[];
    expect(Object.keys(p114[0])).toContain('upgradeTime');
    expect(p114.some((p) => p.version.startsWith('avalanchego/1.13.'))).toBe(false);
  });

  it('health: no futureupgrade check, diskspace without availableDiskPercentage, no avgAcceptanceTime', async () => {
    const a = JSON.parse((await raw(v113.url + '/ext/health')).body);
    const b = JSON.parse((await raw(v114.url + '/ext/health')).body);
    expect(Object.keys(a.checks)).toEqual(Object.keys(b.checks).filter((k) => k !== 'futureupgrade'));
    expect(Object.keys(b.checks)).toContain('futureupgrade');
    expect(Object.keys(a.checks.diskspace.message)).toEqual(['availableDiskBytes']);
    expect(Object.keys(b.checks.diskspace.message)).toEqual(['availableDiskBytes', 'availableDiskPercentage']);
    expect(a.checks.diskspace.message.availableDiskBytes).toBe(b.checks.diskspace.message.availableDiskBytes);
    expect(Object.keys(a.checks.P.message.engine.consensus)).toEqual(['lastAcceptedHeight', 'lastAcceptedID', 'longestProcessingBlock', 'processingBlocks']);
    expect(Object.keys(b.checks.P.message.engine.consensus)[0]).toBe('avgAcceptanceTime');
    expect(a.healthy).toBe(true);
  });
});

describe('v1.13.5: what is the same as v1.14.2', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['/ext/info', 'info.getNodeID'],
    ['/ext/info', 'info.getNodeIP'],
    ['/ext/info', 'info.getNetworkID'],
    ['/ext/info', 'info.getNetworkName'],
    ['/ext/info', 'info.isBootstrapped', { chain: 'P' }],
    ['/ext/info', 'info.isBootstrapped', { chain: 'Q' }],
    ['/ext/info', 'info.uptime'],
    ['/ext/info', 'info.getVMs'],
    ['/ext/info', 'info.getTxFee'],
    ['/ext/info', 'info.getFoo'],
    ['/ext/info', 'platform.getHeight'],
    ['/ext/info', 'info.isBootstrapped', { chain: 5 }],
    ['/ext/bc/P', 'platform.getHeight'],
    ['/ext/bc/P', 'platform.getCurrentValidators'],
    ['/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: 'x' }],
    ['/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed' }],
    ['/ext/bc/P', 'platform.getTotalStake'],
    ['/ext/bc/P', 'platform.getValidatorFeeState'],
    ['/ext/bc/X', 'avm.getHeight'],
    ['/ext/bc/C/rpc', 'eth_blockNumber', []],
    ['/ext/bc/C/rpc', 'eth_foo', []],
    ['/ext/index/P/block', 'index.getLastAccepted', { encoding: 'hex' }],
    ['/ext/index/X/tx', 'index.getLastAccepted', {}],
    ['/ext/index/C/block', 'index.getContainerRange', { startIndex: 0, numToFetch: 0 }],
  ];

  it('JSON-RPC answers, errors and headers are byte for byte equal', async () => {
    for (const [path, method, params] of calls) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });
      const a = await post(v113.url + path, body);
      const b = await post(v114.url + path, body);
      expect(a.status, method).toBe(b.status);
      expect(a.body, method).toBe(b.body);
      expect(a.headers['content-type'], method).toBe(b.headers['content-type']);
      expect(a.headers['node-id'], method).toBe(b.headers['node-id']);
    }
  });

  it('transport errors: 415 without content type (kept), 405, 404, malformed JSON', async () => {
    for (const s of [v113, v114]) {
      const r = await post(s.url + '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}', null);
      expect(r.status).toBe(415);
      expect(r.body).toBe('rpc: unrecognized Content-Type: ');
    }
    const cases: Array<[string, Parameters<typeof raw>[1]]> = [
      ['/ext/info', { method: 'POST', body: '{}' }],
      ['/ext/bc/P', {}],
      ['/ext/nothing', {}],
      ['/ext/admin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }],
      ['/ext/info', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,' }],
      ['/ext/health/liveness', {}],
    ];
    for (const [path, o] of cases) {
      const a = await raw(v113.url + path, o);
      const b = await raw(v114.url + path, o);
      expect([a.status, a.body, a.headers['content-type']], path).toEqual([b.status, b.body, b.headers['content-type']]);
    }
  });

  it('health "not yet run" at start, the empty index, the uptime error of a non-validator', async () => {
    const fresh = await Promise.all(
      (['1.13.5', '1.14.2'] as const).map((version) => startSimNode({ seed: 13, validators: 30, peers: 30, version, healthFirstRunMs: 600_000, now: () => clock })),
    );
    try {
      const [a, b] = await Promise.all(fresh.map(async (s) => ({ h: await raw(s.url + '/ext/health'), r: await raw(s.url + '/ext/health/readiness') })));
      expect(a!.h.status).toBe(503);
      expect(b!.h.status).toBe(503);
      expect(a!.r).toMatchObject({ status: 503, body: b!.r.body });
      const ja = JSON.parse(a!.h.body);
      const jb = JSON.parse(b!.h.body);
      for (const c of Object.values(ja.checks)) expect(c).toEqual(NOT_YET_RUN);
      expect(jb.checks.futureupgrade).toEqual(NOT_YET_RUN);
      delete jb.checks.futureupgrade;
      expect(ja).toEqual(jb);
      for (const s of fresh) await s.setScenario('index-empty');
      const ia = await rpc(fresh[0]!.url, '/ext/index/C/block', 'index.getLastAccepted', {});
      const ib = await rpc(fresh[1]!.url, '/ext/index/C/block', 'index.getLastAccepted', {});
      expect(ia.body).toBe(ib.body);
      expect(ia.json.error.message).toBe('no containers have been accepted');
      for (const s of fresh) await s.setScenario('not-a-validator');
      const ua = await rpc(fresh[0]!.url, '/ext/info', 'info.uptime');
      expect(ua.body).toBe((await rpc(fresh[1]!.url, '/ext/info', 'info.uptime')).body);
      expect(ua.json.error.message).toBe("couldn't get node uptime: node is not a validator");
    } finally {
      await Promise.all(fresh.map((s) => s.close()));
    }
  });
});

describe('versions per node, options and CLI', () => {
  it("versions: ['1.13.5','1.14.2']: each node answers as its own version and sees the other as such", async () => {
    const s = await startSimNode({ nodes: 2, versions: ['1.13.5', '1.14.2'], seed: 5, validators: 40, peers: 50 });
    try {
      expect((await result(s.nodeUrl(0), '/ext/info', 'info.getNodeVersion')).version).toBe('avalanchego/1.13.5');
      expect((await result(s.nodeUrl(1), '/ext/info', 'info.getNodeVersion')).version).toBe('avalanchego/1.14.2');
      const st = JSON.parse((await raw(s.controlUrl + '/sim/state')).body);
      expect(st.nodes.map((n: any) => n.version)).toEqual(['1.13.5', '1.14.2']);
      // node 0 (1.13.5) sees node 1: no upgradeTime field, nothing announced (v1.14.2 has no current ACPs)
      const on0 = (await result(s.nodeUrl(0), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(1)] })).peers[0];
      expect(on0.version).toBe('avalanchego/1.14.2');
      expect('upgradeTime' in on0).toBe(false);
      expect(on0.supportedACPs).toEqual([]);
      // node 1 (1.14.2) sees node 0: upgradeTime 0 (a v1.13 peer announces none), ACP-176 dropped (not current in 1.14.2)
      const on1 = (await result(s.nodeUrl(1), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(0)] })).peers[0];
      expect(on1).toMatchObject({ version: 'avalanchego/1.13.5', upgradeTime: 0, supportedACPs: [], objectedACPs: [] });
      expect((await result(s.nodeUrl(0), '/ext/info', 'info.acps')).acps['176'].supporters).not.toContain(s.nodeId(1));
      // both 1.13.5: each counts the other as an ACP-176 supporter
      const t = await startSimNode({ nodes: 2, version: '1.13.5', seed: 5, validators: 40, peers: 50 });
      try {
        expect((await result(t.nodeUrl(1), '/ext/info', 'info.peers', { nodeIDs: [t.nodeId(0)] })).peers[0].supportedACPs).toEqual([176]);
        expect((await result(t.nodeUrl(1), '/ext/info', 'info.acps')).acps['176'].supporters).toContain(t.nodeId(0));
      } finally {
        await t.close();
      }
    } finally {
      await s.close();
    }
  });

  it('upgrade-pending on 1.13.5 schedules its next upgrade (Granite) and moves peers to 1.14.2', async () => {
    const s = await startSimNode({ version: '1.13.5', seed: 6, validators: 60, peers: 70, now: () => clock });
    try {
      await s.setScenario('upgrade-pending');
      const u = await result(s.url, '/ext/info', 'info.upgrades');
      expect(Date.parse(u.graniteTime) - Math.floor(clock / 1000) * 1000).toBe(3 * 86_400_000);
      expect('heliconTime' in u).toBe(false);
      const versions = new Set(((await result(s.url, '/ext/info', 'info.peers')).peers as any[]).map((p) => p.version));
      expect(versions).toContain('avalanchego/1.14.2');
    } finally {
      await s.close();
    }
  });

  it('an unknown version is refused; --node-version parses', async () => {
    await expect(startSimNode({ version: '1.12.0' as never })).rejects.toThrow(/unknown version "1.12.0"; valid: 1.13.5, 1.14.2/);
    expect(parseSimArgs(['--node-version', '1.13.5']).options.version).toBe('1.13.5');
    expect(parseSimArgs([]).options.version).toBeUndefined();
    expect(() => parseSimArgs(['--node-version=2.0.0'])).toThrow(/--node-version/);
  });
});
