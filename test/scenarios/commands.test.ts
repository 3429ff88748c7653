// The `demo` and `sim` subcommands as an operator runs them (spawned from dist/cli.js).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, metric, scrape, startCli, waitFor, type Proc } from '../helpers/proc.js';

const procs: Proc[] = [];
function spawnCli(args: string[]): Proc {
  const p = startCli(args);
  procs.push(p);
  return p;
}

async function postScenario(controlUrl: string, scenario: string): Promise<number> {
  const r = await fetch(`${controlUrl}/sim/scenario`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario }),
    signal: AbortSignal.timeout(5000),
  });
  await r.text();
  return r.status;
}

/** Sum of avax_rpc_requests_total{result="invalid_response"} over all methods. */
function invalidResponses(text: string): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith('avax_rpc_requests_total{') && l.includes('result="invalid_response"'))
    .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/** Scrapes until `pred` holds (bounded); returns the text. */
function until(url: string, pred: (text: string) => boolean, timeoutMs: number): Promise<string> {
  return waitFor(async () => {
    const t = await scrape(url);
    return pred(t) ? t : undefined;
  }, timeoutMs, 100);
}

beforeAll(() => {
  ensureBuilt();
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
});

describe('avalanche-exporter demo', () => {
  // A generous bound, not a timing: a loaded CI machine must not fail it (npm run bench measures time).
  it('as in the README: /metrics shows avax_up 1, prints the URLs, SIGTERM exits 0', async () => {
    const port = await freePort();
    const demo = spawnCli(['demo', '--web.listen-address', `127.0.0.1:${port}`]);
    const text = await until(`http://127.0.0.1:${port}/metrics`, (t) => metric(t, 'avax_up') === 1, 20_000);
    expect(text).toMatch(/^avax_up\{target="demo-node"\} 1$/m);
    expect(metric(text, 'avax_chain_height', { chain: 'P' })).toBeGreaterThan(0);
    const err = demo.stderr();
    expect(err).toMatch(/simulated node:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(err).toContain(`exporter:        http://127.0.0.1:${port}/metrics`);
    expect(err).toMatch(/curl -X POST http:\/\/127\.0\.0\.1:\d+\/sim\/scenario -H 'content-type: application\/json' -d '\{"scenario":"bootstrapping"\}'/);
    expect(await demo.stop('SIGTERM')).toBe(0);
  });

  it('switching the scenario through the printed control URL changes the metrics', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/metrics`;
    const demo = spawnCli([
      'demo', '--web.listen-address', `127.0.0.1:${port}`, '--sim.validators', '150', '--sim.peers', '200',
      '--collection.interval', '1s', '--collection.timeout', '1s', '--node.timeout', '500ms',
      '--collector.health.interval', '1s', '--collector.info-is-bootstrapped.interval', '1s', '--collector.chain-height.interval', '1s',
      // The switch to bootstrapping is a restart of the node (a bootstrapped chain bootstraps again only
      // in a new process); within its first 5 s, while its checks have not run yet, the restart shows
      // in its process start time (node-metrics) rather than in a health report turning "not yet run".
      '--collector.node-metrics.interval', '1s',
    ]);
    await until(base, (t) => metric(t, 'avax_up') === 1, 10_000);
    const control = await waitFor(() => /curl -X POST (http:\/\/127\.0\.0\.1:\d+)\/sim\/scenario/.exec(demo.stderr())?.[1], 15_000);

    expect(await postScenario(control, 'bootstrapping')).toBe(200);
    // The demo's node runs its health checks first 5 s after start (a real node: 30 s); until then
    // they are pending, so the failing `bootstrapped` check shows once they have run.
    const boot = await until(
      base,
      (t) => metric(t, 'avax_chain_bootstrapped', { chain: 'P' }) === 0 && metric(t, 'avax_health_check_healthy', { check: 'bootstrapped' }) === 0,
      12_000,
    );
    expect(metric(boot, 'avax_node_ready')).toBe(0);

    expect(await postScenario(control, 'garbage')).toBe(200);
    await until(base, (t) => metric(t, 'avax_up') === 0 && invalidResponses(t) > 0, 8000);
    expect(demo.child.exitCode).toBeNull(); // garbage from the node never brings the exporter down

    expect(await postScenario(control, 'down')).toBe(200);
    await until(base, (t) => metric(t, 'avax_up') === 0 && metric(t, 'avax_collector_success', { collector: 'chain-height' }) === 0, 8000);

    expect(await postScenario(control, 'healthy')).toBe(200);
    await until(
      base,
      (t) => metric(t, 'avax_up') === 1 && metric(t, 'avax_chain_bootstrapped', { chain: 'P' }) === 1 && metric(t, 'avax_collector_success', { collector: 'chain-height' }) === 1,
      8000,
    );
    expect(await demo.stop('SIGTERM')).toBe(0);
  });
});

describe('avalanche-exporter sim', () => {
  it('serves the node API and the control endpoint; SIGTERM exits 0', async () => {
    const [port, cport] = [await freePort(), await freePort()];
    const sim = spawnCli(['sim', '--listen-address', `127.0.0.1:${port}`, '--control-address', `127.0.0.1:${cport}`, '--validators', '50', '--peers', '60', '--seed', '3']);
    await waitFor(() => sim.stdout().includes('Press Ctrl-C'), 15_000);
    expect(sim.stdout()).toContain(`node API   http://127.0.0.1:${port}`);
    expect(sim.stdout()).toContain(`control    http://127.0.0.1:${cport}`);

    const r = await fetch(`http://127.0.0.1:${port}/ext/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeVersion' }),
      signal: AbortSignal.timeout(5000),
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { result: { version: string; vmVersions: Record<string, string> } };
    expect(body.result.version).toBe('avalanchego/1.15.0'); // the simulator's default version
    expect(Object.keys(body.result.vmVersions)).toEqual(expect.arrayContaining(['avm', 'evm', 'platform']));

    expect(await postScenario(`http://127.0.0.1:${cport}`, 'bootstrapping')).toBe(200);
    const p = await fetch(`http://127.0.0.1:${port}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getHeight' }),
      signal: AbortSignal.timeout(5000),
    });
    expect(p.status).toBe(503);
    expect(await p.text()).toContain('API call rejected because chain is not done bootstrapping');

    expect(await sim.stop('SIGTERM')).toBe(0);
    expect(sim.stdout()).toContain('avalanche-exporter sim: stopped');
  });
});
