// Issue 11: a (re)started node answers its health checks "not yet run" until their first run one
// health period later (avalanchego's --health-check-frequency), although its chains are
// bootstrapped: at start, on return from 'down', and on POST /sim/restart.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { post, raw, refused, result, rpc, waitFor } from './helpers.js';

const NOT_YET_RUN = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
/** Long enough that no check runs during a test that expects "not yet run". */
const NEVER_MS = 600_000;

let sims: SimNode[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});
async function start(opts: Parameters<typeof startSimNode>[0]): Promise<SimNode> {
  const s = await startSimNode({ seed: 3, validators: 30, peers: 40, ...opts });
  sims.push(s);
  return s;
}

async function getJson(url: string): Promise<{ status: number; json: any; body: string }> {
  const r = await raw(url);
  return { status: r.status, json: JSON.parse(r.body), body: r.body };
}

/** Every check of a health answer is exactly "not yet run", and it is unhealthy. */
function expectNotYetRun(j: any): void {
  expect(j.healthy).toBe(false);
  expect(Object.keys(j.checks).length).toBeGreaterThan(0);
  for (const [name, c] of Object.entries(j.checks)) expect(c, name).toEqual(NOT_YET_RUN);
}


describe('health before the first run after start', () => {
  it('GET /ext/health and /readiness 503 "not yet run", JSON-RPC health.* 200 with the same data, chains bootstrapped', async () => {
    const s = await start({ healthFirstRunMs: NEVER_MS });
    const h = await getJson(s.url + '/ext/health');
    expect(h.status).toBe(503);
    expectNotYetRun(h.json);
    // every check, the L1 chain's too (its ID, sorted among the names)
    const names = Object.keys(h.json.checks);
    expect(names.filter((n) => n.length < 20)).toEqual(['C', 'P', 'X', 'bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router']);
    expect(names).toHaveLength(11);
    expect(h.body).toContain('"C":{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}');
    expect(h.body.endsWith('"healthy":false}\n')).toBe(true);
    const rd = await getJson(s.url + '/ext/health/readiness');
    expect(rd.status).toBe(503);
    expect(rd.json).toEqual({ checks: { bootstrapped: NOT_YET_RUN }, healthy: false });
    // liveness has no checks
    expect((await getJson(s.url + '/ext/health/liveness')).status).toBe(200);
    // JSON-RPC: HTTP 200, the same report
    const rpcHealth = await rpc(s.url, '/ext/health', 'health.health');
    expect(rpcHealth.status).toBe(200);
    expect(rpcHealth.json.result).toEqual(h.json);
    expect((await rpc(s.url, '/ext/health', 'health.readiness')).json.result).toEqual(rd.json);
    // the chains are bootstrapped and the APIs answer
    for (const chain of ['P', 'X', 'C']) expect(await result(s.url, '/ext/info', 'info.isBootstrapped', { chain })).toEqual({ isBootstrapped: true });
    expect(Number((await result(s.url, '/ext/bc/P', 'platform.getHeight')).height)).toBeGreaterThan(0);
    expect(JSON.parse((await raw(s.controlUrl + '/sim/state')).body).nodes[0].healthRun).toBe(false);
  });

  it('a scenario switch does not run the checks before their first run', async () => {
    const s = await start({ healthFirstRunMs: NEVER_MS });
    await s.setScenario('bootstrapping');
    expectNotYetRun((await getJson(s.url + '/ext/health')).json);
    await s.setScenario('healthy');
    expectNotYetRun((await getJson(s.url + '/ext/health')).json);
  });

  it('the first run comes healthFirstRunMs after start, then the normal checks', async () => {
    const s = await start({ healthFirstRunMs: 150, healthIntervalMs: 60_000 });
    const ok = await waitFor(async () => {
      const h = await getJson(s.url + '/ext/health');
      return h.status === 200 ? h.json : undefined;
    }, 5000);
    expect(ok.healthy).toBe(true);
    expect(ok.checks.P.message.engine.consensus.lastAcceptedHeight).toBeGreaterThan(0);
    expect(ok.checks.P.timestamp).not.toBe('0001-01-01T00:00:00Z');
    expect(JSON.parse((await raw(s.controlUrl + '/sim/state')).body).nodes[0].healthRun).toBe(true);
  });
});

describe('restart', () => {
  it("down then back: refused while down; on return 503 'not yet run' until the first run, then the normal checks", async () => {
    const s = await start({ healthFirstRunMs: 5, healthIntervalMs: 60_000 });
    const before = await waitFor(async () => {
      const r = await getJson(s.url + '/ext/health');
      return r.status === 200 ? r.json : undefined;
    });
    await s.setScenario('down');
    expect(await refused(s.url)).toBe('ECONNREFUSED');
    await s.setScenario('healthy');
    // the first run after the return comes 5 ms later (not after the 60 s interval) with fresh results
    const after = await waitFor(async () => {
      const r = await getJson(s.url + '/ext/health');
      return r.status === 200 ? r.json : undefined;
    }, 5000);
    expect(after.checks.P.error).toBeUndefined();
    expect(after.checks.P.timestamp).not.toBe(before.checks.P.timestamp);
  });

  it("down then back with a long first-run delay: every check 'not yet run', readiness 503, chains bootstrapped", async () => {
    const s = await start({ healthFirstRunMs: NEVER_MS, scenario: 'down' });
    expect(await refused(s.url)).toBe('ECONNREFUSED');
    await s.setScenario('healthy');
    const h = await getJson(s.url + '/ext/health');
    expect(h.status).toBe(503);
    expectNotYetRun(h.json);
    expect((await getJson(s.url + '/ext/health/readiness')).status).toBe(503);
    expect(await result(s.url, '/ext/info', 'info.isBootstrapped', { chain: 'P' })).toEqual({ isBootstrapped: true });
  });

  it('POST /sim/restart: same port, health starts over, "not yet run" until the first run', async () => {
    const s = await start({ healthFirstRunMs: 5, healthIntervalMs: 60_000 });
    await waitFor(async () => (await raw(s.url + '/ext/health')).status === 200);
    const port = new URL(s.url).port;
    const r = await post(s.controlUrl + '/sim/restart', JSON.stringify({ healthFirstRunMs: NEVER_MS }));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ restarted: [0] });
    expect(new URL(s.url).port).toBe(port);
    const h = await getJson(s.url + '/ext/health');
    expect(h.status).toBe(503);
    expectNotYetRun(h.json);
    expect(JSON.parse((await raw(s.controlUrl + '/sim/state')).body).nodes[0].healthRun).toBe(false);
    // the option's delay (5 ms) when the body names none; an empty body restarts every node
    expect((await post(s.controlUrl + '/sim/restart', '')).status).toBe(200);
    await waitFor(async () => (await raw(s.url + '/ext/health')).status === 200);
    // bad requests name the problem
    expect(JSON.parse((await post(s.controlUrl + '/sim/restart', '{"node":4}')).body).error).toContain('node must be');
    expect((await post(s.controlUrl + '/sim/restart', '{"healthFirstRunMs":-1}')).status).toBe(400);
    expect((await post(s.controlUrl + '/sim/restart', 'nope')).status).toBe(400);
    expect((await raw(s.controlUrl + '/sim/restart')).status).toBe(405);
    await expect(s.restart(9)).rejects.toThrow(/node must be/);
  });

  it('restart() closes open connections and re-opens the listener', async () => {
    const s = await start({ healthFirstRunMs: 5 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ socket: unknown; status: number }> =>
      new Promise((resolve, reject) => {
        const u = new URL(s.url);
        const req = http.request({ host: u.hostname, port: u.port, path: '/ext/health/liveness', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ socket: req.socket, status: res.statusCode ?? 0 }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const a = await get();
      const b = await get();
      expect(b.socket).toBe(a.socket); // kept alive
      await s.restart();
      const c = await waitFor(async () => get().catch(() => undefined));
      expect(c.status).toBe(200);
      expect(c.socket).not.toBe(a.socket);
    } finally {
      agent.destroy();
    }
  });

  it('several nodes: restarting one starts its checks over and leaves the others and the listener as they are', async () => {
    const s = await start({ nodes: 2, healthFirstRunMs: 5, healthIntervalMs: 60_000 });
    await waitFor(async () => (await raw(s.nodeUrl(1) + '/ext/health')).status === 200 && (await raw(s.url + '/ext/health')).status === 200);
    await s.restart(1, { healthFirstRunMs: NEVER_MS });
    const h1 = await getJson(s.nodeUrl(1) + '/ext/health');
    expect(h1.status).toBe(503);
    expectNotYetRun(h1.json);
    const st = JSON.parse((await raw(s.controlUrl + '/sim/state')).body);
    expect(st.listening).toBe(true);
    expect(st.nodes.map((n: any) => n.healthRun)).toEqual([true, false]);
    const h0 = await getJson(s.url + '/ext/health');
    expect(h0.status).toBe(200);
    expect(h0.json.healthy).toBe(true);
  });
});
