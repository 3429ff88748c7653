// Each scenario's visible effect, runtime switching through the control
// endpoint, 'down' on the same port, several nodes, and the sim CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS, startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { parseDuration, parseSimArgs, simMain } from '@avalanche-exporter/simulated-node';
import { control, raw, refused, result, rpc, startReadySim, waitFor } from './helpers.js';

const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);
let sim: SimNode;
let clock = T0;

const health = async (path = '/ext/health'): Promise<{ status: number; json: any }> => {
  const r = await raw(sim.url + path);
  return { status: r.status, json: JSON.parse(r.body) };
};
const ownValidator = async (): Promise<any> =>
  (await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] })).validators[0];


beforeAll(async () => {
  sim = await startReadySim({ seed: 11, validators: 120, peers: 150, healthIntervalMs: 50, slowDelayMs: 300, now: () => clock });
});
afterAll(async () => {
  await sim?.close();
});

describe('scenarios', () => {
  it('bootstrapping: chain routes 503, isBootstrapped false, readiness 503, bootstrapped check failing', async () => {
    await sim.setScenario('bootstrapping');
    for (const p of ['/ext/bc/P', '/ext/bc/X', '/ext/bc/C/rpc', '/ext/P']) {
      const r = await rpc(sim.url, p, 'platform.getHeight').catch(() => null);
      const rr = await raw(sim.url + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(rr.status, p).toBe(503);
      expect(rr.body).toBe('API call rejected because chain is not done bootstrapping\n');
      void r;
    }
    expect(await result(sim.url, '/ext/info', 'info.isBootstrapped', { chain: 'P' })).toEqual({ isBootstrapped: false });
    const rd = await health('/ext/health/readiness');
    expect(rd.status).toBe(503);
    expect(rd.json.checks.bootstrapped).toMatchObject({ message: ['11111111111111111111111111111111LpoYY'], error: 'subnets not bootstrapped' });
    const h = await health();
    expect(h.status).toBe(503);
    expect(h.json.healthy).toBe(false);
    expect(h.json.checks.P.message.engine.consensus).toEqual({});
    expect(h.json.checks.bootstrapped.contiguousFailures).toBeGreaterThanOrEqual(1);
    expect(h.json.checks.bootstrapped.timeOfFirstFailure).toBeTypeOf('string');
    // POST health is 200 even when unhealthy
    const p = await rpc(sim.url, '/ext/health', 'health.readiness');
    expect(p.status).toBe(200);
    expect(p.json.result.healthy).toBe(false);
    // info and health keep working
    expect((await rpc(sim.url, '/ext/info', 'info.getNodeID')).status).toBe(200);
  });

  it('contiguousFailures grows while timeOfFirstFailure stays', async () => {
    const a = (await health()).json.checks.bootstrapped;
    // The checks run on the simulator's clock: two health intervals later, two more failed runs.
    clock += 2 * 50;
    const b = (await health()).json.checks.bootstrapped;
    expect(b.contiguousFailures).toBe(a.contiguousFailures + 2);
    expect(b.timeOfFirstFailure).toBe(a.timeOfFirstFailure);
    // No time passes, no run: the same answer.
    expect((await health()).json.checks.bootstrapped).toEqual(b);
  });

  it('healthy again: everything restored, heights monotonic', async () => {
    await sim.setScenario('healthy');
    const h = await health();
    expect(h.status).toBe(200);
    expect(h.json.checks.bootstrapped.contiguousFailures).toBeUndefined();
    expect(h.json.checks.bootstrapped.timeOfFirstFailure).toBeUndefined();
    expect(h.json.checks.bootstrapped.error).toBeUndefined();
    expect((await health('/ext/health/readiness')).status).toBe(200);
    const h1 = Number((await result(sim.url, '/ext/bc/P', 'platform.getHeight')).height);
    clock += 10_000;
    expect(Number((await result(sim.url, '/ext/bc/P', 'platform.getHeight')).height)).toBe(h1 + 2);
  });

  it('unhealthy-network: few peers, connected stake below 80 %, chain checks failing', async () => {
    await sim.setScenario('unhealthy-network');
    const peers = await result(sim.url, '/ext/info', 'info.peers');
    expect(peers.numPeers).toBe('3');
    const h = await health();
    expect(h.status).toBe(503);
    expect(h.json.checks.P.message.networking.percentConnected).toBeLessThan(0.8);
    expect(h.json.checks.P.error).toMatch(/^not connected to enough stake: connected to \d+\.\d{6}%; required at least 80\.000000%$/);
    expect(h.json.checks.network.error).toBeUndefined();
    expect(h.json.checks.network.message.connectedPeers).toBe(3);
    const all = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators');
    expect(all.validators.filter((v: any) => v.connected).length).toBe(4); // 3 peers + itself
  });

  it('answers computed once per second (peers, validator set, uptime, ACPs) follow a switch within that second', async () => {
    // The simulator keeps info.peers, the primary validator set, info.acps and the full validator list per
    // second of its clock (a benchmark fleet asks one node a thousand times a cycle); a scenario switch
    // must show at once, on the same clock second, and switching back must give the first answers again.
    await sim.setScenario('healthy');
    const read = async () => ({
      peers: await result(sim.url, '/ext/info', 'info.peers'),
      uptime: await result(sim.url, '/ext/info', 'info.uptime'),
      acps: await result(sim.url, '/ext/info', 'info.acps'),
      all: await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators'),
    });
    const healthy = await read();
    expect(await read()).toEqual(healthy); // the same second, cached: the same answers
    await sim.setScenario('unhealthy-network');
    const cut = await read();
    expect(cut.peers.peers.length).toBeLessThan(healthy.peers.peers.length);
    expect(Number(cut.uptime.weightedAveragePercentage)).toBeLessThan(Number(healthy.uptime.weightedAveragePercentage));
    expect(cut.all.validators.filter((v: any) => v.connected).length).toBeLessThan(healthy.all.validators.filter((v: any) => v.connected).length);
    await sim.setScenario('acp-vote');
    expect((await read()).acps).not.toEqual(healthy.acps);
    await sim.setScenario('healthy');
    expect(await read()).toEqual(healthy);
  });

  it('low-uptime: info.uptime ~75 / ~40, peers see low uptime', async () => {
    // 'bootstrapping' above restarted the node: its peers report its uptime again within one PingFrequency
    // (22.5 s) of the restart, and until then info.uptime counts the own stake alone (simulated-node/src/uptime.ts).
    clock += 30_000;
    await sim.setScenario('low-uptime');
    const u = await result(sim.url, '/ext/info', 'info.uptime');
    expect(Number(u.weightedAveragePercentage)).toBeGreaterThan(65);
    expect(Number(u.weightedAveragePercentage)).toBeLessThan(85);
    expect(Number(u.rewardingStakePercentage)).toBeGreaterThan(25);
    expect(Number(u.rewardingStakePercentage)).toBeLessThan(60);
    const peers = (await result(sim.url, '/ext/info', 'info.peers')).peers.map((p: any) => Number(p.observedUptime)).sort((a: number, b: number) => a - b);
    expect(peers[Math.floor(peers.length / 2)]).toBeLessThan(80);
  });

  it('index-stalled: index frozen while heights grow; resumes afterwards', async () => {
    await sim.setScenario('index-stalled');
    const a = await result(sim.url, '/ext/index/C/block', 'index.getLastAccepted');
    const ha = parseInt((await rpc(sim.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])).json.result, 16);
    clock += 60_000;
    const b = await result(sim.url, '/ext/index/C/block', 'index.getLastAccepted');
    const hb = parseInt((await rpc(sim.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])).json.result, 16);
    expect(b).toEqual(a);
    expect(hb - ha).toBe(30);
    await sim.setScenario('healthy');
    const c = await result(sim.url, '/ext/index/C/block', 'index.getLastAccepted');
    expect(Number(c.index)).toBe(Number(a.index) + 30);
  });

  it('validator-expiring: own end time within 36 h', async () => {
    const before = await ownValidator();
    expect(Number(before.endTime) * 1000 - clock).toBeGreaterThan(36 * 3_600_000);
    await sim.setScenario('validator-expiring');
    const v = await ownValidator();
    const left = Number(v.endTime) * 1000 - clock;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(36 * 3_600_000);
    clock += 3_600_000;
    expect((await ownValidator()).endTime).toBe(v.endTime); // fixed end timestamp
    await sim.setScenario('healthy');
    expect((await ownValidator()).endTime).toBe(before.endTime);
  });

  it('validator-disconnected: own entry connected:false, network check failing', async () => {
    await sim.setScenario('validator-disconnected');
    expect((await ownValidator()).connected).toBe(false);
    const h = await health();
    expect(h.json.checks.network.error).toBe('network layer is unhealthy reason: primary network validator has no inbound connections');
    expect(h.json.checks.network.message['primary network validator health'].ingressConnectionCount).toBe(0);
  });

  it('not-a-validator: absent from the sets, uptime error, bls message', async () => {
    await sim.setScenario('not-a-validator');
    expect((await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] })).validators).toEqual([]);
    const l1 = await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId });
    expect(l1.validators.some((v: any) => v.nodeID === sim.nodeId())).toBe(false);
    const u = await rpc(sim.url, '/ext/info', 'info.uptime');
    expect(u.json.error).toEqual({ code: -32000, message: "couldn't get node uptime: node is not a validator", data: null });
    expect((await health()).json.checks.bls.message).toBe('node is not a validator');
  });

  it('not-a-validator without sybil protection: the local-network uptime error', async () => {
    const s = await startSimNode({ seed: 4, validators: 20, peers: 20, sybilProtection: false, scenario: 'not-a-validator' });
    try {
      const u = await rpc(s.url, '/ext/info', 'info.uptime');
      expect(u.status).toBe(200);
      expect(u.json.error).toEqual({ code: -32000, message: "couldn't get node uptime: error while fetching local validator start time not found", data: null });
      // a validator answers the same with or without sybil protection
      await s.setScenario('healthy');
      expect((await result(s.url, '/ext/info', 'info.uptime')).weightedAveragePercentage).toMatch(/^\d{1,3}\.\d{4}$/);
      const st = JSON.parse((await raw(s.controlUrl + '/sim/state')).body);
      expect(st.nodes[0].sybilProtection).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('index-empty: getLastAccepted -32000 "no containers have been accepted" on every index route', async () => {
    await sim.setScenario('index-empty');
    for (const p of ['/ext/index/P/block', '/ext/index/C/block', '/ext/index/X/block', '/ext/index/X/tx', '/ext/index/X/vtx']) {
      const r = await rpc(sim.url, p, 'index.getLastAccepted', { encoding: 'hex' });
      expect(r.status, p).toBe(200);
      expect(r.body, p).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"no containers have been accepted","data":null},"id":1}\n');
      const range = await rpc(sim.url, p, 'index.getContainerRange', { startIndex: 0, numToFetch: 10 });
      expect(range.json.error.message).toBe('no containers have been accepted');
      expect((await rpc(sim.url, p, 'index.getContainerRange', { startIndex: 0, numToFetch: 0 })).json.error.message).toBe('numToFetch must be in [1,1024] but is 0');
      expect((await rpc(sim.url, p, 'index.getContainerByIndex', { index: 0 })).json.error.message).toBe('no container at index 0');
      const id = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
      expect((await rpc(sim.url, p, 'index.getIndex', { id })).json.error.message).toBe('not found');
      expect((await rpc(sim.url, p, 'index.getContainerByID', { id })).json.error.message).toBe('not found');
      expect(await result(sim.url, p, 'index.isAccepted', { id })).toEqual({ isAccepted: false });
    }
    // unknown index kinds stay 404, the rest of the node is unaffected
    expect((await raw(sim.url + '/ext/index/P/tx', { method: 'POST' })).status).toBe(404);
    expect(Number((await result(sim.url, '/ext/bc/P', 'platform.getHeight')).height)).toBeGreaterThan(0);
    await sim.setScenario('healthy');
    expect((await result(sim.url, '/ext/index/P/block', 'index.getLastAccepted', {})).index).toMatch(/^\d+$/);
  });

  it('index-disabled: every index route is a 404 text', async () => {
    await sim.setScenario('index-disabled');
    for (const p of ['/ext/index/P/block', '/ext/index/C/block', '/ext/index/X/block', '/ext/index/X/tx', '/ext/index/X/vtx']) {
      const r = await rpc(sim.url, p, 'index.getLastAccepted', {}).catch(() => null);
      void r;
      const rr = await raw(sim.url + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted"}' });
      expect(rr.status).toBe(404);
      expect(rr.body).toBe('404 page not found\n');
    }
  });

  it('public-server: health 404, node-specific info methods absent', async () => {
    await sim.setScenario('public-server');
    for (const p of ['/ext/health', '/ext/health/readiness', '/ext/health/liveness', '/ext/health/health', '/ext/admin']) {
      const r = await raw(sim.url + p);
      expect(r.status, p).toBe(404);
      expect(r.body).toBe('404 page not found\n');
    }
    for (const [m, g] of [['info.getNodeID', 'GetNodeID'], ['info.getNodeIP', 'GetNodeIP'], ['info.getVMs', 'GetVMs']]) {
      expect((await rpc(sim.url, '/ext/info', m as string)).json.error.message).toBe(`rpc: can't find method "info.${g}"`);
    }
    expect((await result(sim.url, '/ext/info', 'info.getNetworkID')).networkID).toBe('1');
  });

  it('slow: answers only after the delay', async () => {
    await sim.setScenario('slow');
    const t = Date.now();
    const r = await rpc(sim.url, '/ext/info', 'info.getNetworkID');
    const slow = Date.now() - t;
    expect(slow).toBeGreaterThanOrEqual(280);
    expect(r.json.result.networkID).toBe('1');
    await sim.setScenario('healthy');
    const t2 = Date.now();
    await rpc(sim.url, '/ext/info', 'info.getNetworkID');
    // The delay is gone: the healthy answer comes back faster than the slow one (no absolute bound,
    // which a loaded CI machine could miss).
    expect(Date.now() - t2).toBeLessThan(slow);
  });

  it('garbage: HTTP 200 with invalid JSON, wrong types and truncated bodies', async () => {
    await sim.setScenario('garbage');
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await post(sim.url + '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.peers"}');
      expect(r.status).toBe(200);
      bodies.push(r.body);
    }
    const parsed = bodies.map((b) => {
      try {
        return JSON.parse(b);
      } catch {
        return undefined;
      }
    });
    expect(parsed.filter((p) => p === undefined).length).toBeGreaterThanOrEqual(2);
    expect(parsed.some((p) => p && p.result && p.result.numPeers === true)).toBe(true);
    const h = await raw(sim.url + '/ext/bc/P', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}' });
    expect(h.status).toBe(200);
  });

  it('down: connection refused, control port up, recovers on the same port', async () => {
    const port = new URL(sim.url).port;
    const r = await control(sim.controlUrl, { scenario: 'down' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).scenario).toBe('down');
    expect(await refused(sim.url)).toBe('ECONNREFUSED');
    const st = JSON.parse((await raw(sim.controlUrl + '/sim/state')).body);
    expect(st.nodes[0].scenario).toBe('down');
    expect(st.listening).toBe(false);
    await control(sim.controlUrl, { scenario: 'healthy' });
    expect(new URL(sim.url).port).toBe(port);
    expect((await raw(sim.url + '/ext/health/liveness')).status).toBe(200);
    // a restarted node: checks start over (see restart.test.ts), then run again
    expect((await waitFor(async () => (await raw(sim.url + '/ext/health')).status === 200 && 'ok'))).toBe('ok');
    expect(sim.scenario()).toBe('healthy');
  });

  it('control endpoint: unknown scenario 400 naming the valid ones, also on the node port', async () => {
    const r = await control(sim.controlUrl, { scenario: 'nope' });
    expect(r.status).toBe(400);
    for (const s of SCENARIOS) expect(r.body).toContain(s);
    const n = await control(sim.url, { scenario: 'healthy', node: 5 });
    expect(n.status).toBe(400);
    const ok = await control(sim.url, { scenario: 'low-uptime', node: 0 });
    expect(ok.status).toBe(200);
    expect(sim.scenario(0)).toBe('low-uptime');
    await sim.setScenario('healthy');
    await expect(sim.setScenario('bogus' as never)).rejects.toThrow(/valid/);
  });
});

describe('several nodes', () => {
  it('serves independent nodes under /node/<i>, node 0 also at the root', async () => {
    const s = await startSimNode({ nodes: 3, seed: 5, validators: 40, peers: 40, healthIntervalMs: 50 });
    try {
      const ids = await Promise.all([0, 1, 2].map(async (i) => (await result(s.nodeUrl(i), '/ext/info', 'info.getNodeID')).nodeID));
      expect(ids[0]).toBe(s.nodeId(0));
      expect(ids[1]).toBe(s.nodeId(1));
      expect(new Set(ids).size).toBe(3);
      expect((await result(s.url, '/ext/info', 'info.getNodeID')).nodeID).toBe(s.nodeId(0));
      expect((await raw(s.nodeUrl(1) + '/ext/info')).headers['node-id']).toBe(s.nodeId(1));
      expect((await raw(s.url + '/node/9/ext/info')).status).toBe(404);

      await s.setScenario('bootstrapping', 1);
      expect(s.scenario(1)).toBe('bootstrapping');
      expect(s.scenario(2)).toBe('healthy');
      expect((await raw(s.nodeUrl(1) + '/ext/bc/P', { method: 'POST' })).status).toBe(503);
      expect((await result(s.nodeUrl(2), '/ext/bc/P', 'platform.getHeight')).height).toMatch(/^\d+$/);

      // one node down: its connections are dropped, the others keep answering
      await s.setScenario('down', 2);
      const err = await raw(s.nodeUrl(2) + '/ext/health').then(() => 'answered', (e: NodeJS.ErrnoException) => e.code ?? e.message);
      expect(err).toBe('ECONNRESET');
      expect((await raw(s.url + '/ext/health/liveness')).status).toBe(200);
      // all down: the listener closes
      await s.setScenario('down');
      expect(await refused(s.url)).toBe('ECONNREFUSED');
      await s.setScenario('healthy');
      expect((await raw(s.nodeUrl(2) + '/ext/health/liveness')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('can start down and come up later on the reserved port', async () => {
    const s = await startSimNode({ scenario: 'down', validators: 20, peers: 20 });
    try {
      expect(await refused(s.url)).toBe('ECONNREFUSED');
      expect((await raw(s.controlUrl + '/sim/state')).status).toBe(200);
      await s.setScenario('healthy');
      expect((await raw(s.url + '/ext/health/liveness')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('sim CLI', () => {
  it('parses flags and durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('30')).toBeNull();
    const p = parseSimArgs(['--listen-address', '127.0.0.1:0', '--seed=9', '--health-interval', '2s', '--scenario', 'slow', '--nodes', '2']);
    expect(p.listen).toEqual({ host: '127.0.0.1', port: 0 });
    expect(p.options).toMatchObject({ seed: 9, healthIntervalMs: 2000, scenario: 'slow', nodes: 2 });
    // the first health run: one health interval after start unless given
    expect(p.options.healthFirstRunMs).toBe(2000);
    expect(parseSimArgs([]).options.healthFirstRunMs).toBe(30_000);
    const q = parseSimArgs(['--health-first-run', '100ms', '--sybil-protection=false']);
    expect(q.options).toMatchObject({ healthFirstRunMs: 100, sybilProtection: false });
    expect(parseSimArgs(['--sybil-protection', 'true']).options.sybilProtection).toBe(true);
  });

  it('invalid values name the flag and exit with code 2', async () => {
    const cases: Array<[string[], string]> = [
      [['--seed', 'abc'], '--seed'],
      [['--scenario', 'meltdown'], '--scenario'],
      [['--health-interval', '30'], '--health-interval'],
      [['--listen-address', 'nope'], '--listen-address'],
      [['--validators', '0'], '--validators'],
      [['--frobnicate'], '--frobnicate'],
      [['--health-first-run', 'soon'], '--health-first-run'],
      [['--sybil-protection', 'maybe'], '--sybil-protection'],
    ];
    const saved = process.exitCode;
    try {
      for (const [argv, flag] of cases) {
        let err = '';
        process.exitCode = undefined;
        await simMain(argv, { stderr: (s) => (err += s), stdout: () => undefined });
        expect(process.exitCode, argv.join(' ')).toBe(2);
        expect(err).toContain(flag);
      }
    } finally {
      process.exitCode = saved;
    }
  });

  it('--help lists flags and scenarios', async () => {
    let out = '';
    await simMain(['--help'], { stdout: (s) => (out += s) });
    expect(out).toContain('--listen-address');
    expect(out).toContain('validator-disconnected');
    for (const x of ['--health-first-run', '--sybil-protection', 'POST /sim/restart', 'index-empty']) expect(out).toContain(x);
  });

  it('runs, prints URLs and a curl example, stops on abort', async () => {
    let out = '';
    const ac = new AbortController();
    let started: SimNode | undefined;
    const done = simMain(['--listen-address', '127.0.0.1:0', '--control-address', '127.0.0.1:0', '--validators', '20', '--peers', '20'], {
      stdout: (s) => (out += s),
      signal: ac.signal,
      onStarted: (s) => (started = s),
    });
    const s = await waitFor(async () => started);
    expect(out).toContain(s.url);
    expect(out).toContain(`curl -s -X POST ${s.controlUrl}/sim/scenario`);
    expect((await raw(s.url + '/ext/health/liveness')).status).toBe(200);
    ac.abort();
    await done;
    expect(out).toContain('stopped');
    expect(await refused(s.url)).toBe('ECONNREFUSED');
  });
});

async function post(url: string, body: string): Promise<{ status: number; body: string }> {
  return raw(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
}
