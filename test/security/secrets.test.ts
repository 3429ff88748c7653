import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/http-server.js';
import { ensureBuilt, freePort, startCli, waitFor, type Proc } from '../helpers/proc.js';

const USER = 'operator-x7';
const PASSWORD = 'hunter2secret';
const PATH_KEY = 'prefix-apikey-0123456789';
const QUERY_TOKEN = 'querytoken-abcdef';
const HEADER_KEY = 'headerkey-987654';
const BEARER = 'bearertoken-xyz12345';
const SECRETS = [PASSWORD, `${USER}:`, Buffer.from(`${USER}:${PASSWORD}`).toString('base64'), PATH_KEY, QUERY_TOKEN, HEADER_KEY, BEARER];

/**
 * A hostile node: every answer is an error that echoes the request line and all request headers, in
 * the ways a proxy or a node may do it (JSON-RPC error message, HTTP 500 text, a body that is not JSON,
 * a 503 health report).
 */
function startEchoNode(): Promise<TestServer> {
  let n = 0;
  return startServer((req, res, body) => {
    const echo = `${req.method} ${req.url} headers=${JSON.stringify(req.headers)}`;
    const k = n++ % 4;
    if (req.method === 'GET' || k === 0) {
      res.writeHead(k === 1 ? 500 : 503, { 'content-type': 'text/plain' });
      return res.end(`upstream refused ${echo}`);
    }
    let id: unknown = null;
    try {
      id = JSON.parse(body).id;
    } catch {
      /* keep null */
    }
    if (k === 1) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `denied: ${echo}`, data: { request: echo } }, id }));
    }
    if (k === 2) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`not json ${echo}`);
    }
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': `Basic realm="${echo}"` });
    res.end(JSON.stringify({ error: echo }));
  });
}

describe('secrets never leave the exporter', () => {
  let node: TestServer;
  let proc: Proc;
  let base = '';
  let target = '';
  beforeAll(async () => {
    ensureBuilt();
    node = await startEchoNode();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const u = new URL(node.url);
    target = `${u.hostname}:${u.port}`;
    const nodeUrl = `http://${USER}:${PASSWORD}@${u.host}/${PATH_KEY}?token=${QUERY_TOKEN}`;
    proc = startCli([
      '--node.url', nodeUrl, '--node.header', `X-Api-Key: ${HEADER_KEY}`, '--node.header', `X-Auth: Bearer ${BEARER}`,
      '--web.listen-address', `127.0.0.1:${port}`, '--log.level', 'debug',
      '--collection.interval', '1s', '--collection.timeout', '1s', '--node.timeout', '500ms',
    ]);
    // Wait until every enabled collector has failed at least once (the landing page shows it).
    await waitFor(async () => {
      const page = await (await fetch(`${base}/`)).text();
      return node.requests.length > 20 && !page.includes('>pending<') && page.includes('>failing<') ? page : undefined;
    }, 20_000);
  });
  afterAll(async () => {
    await proc?.stop('SIGKILL');
    await node?.close();
  });

  const clean = (where: string, text: string) => {
    for (const s of SECRETS) expect(text, `${where} contains ${s}`).not.toContain(s);
  };

  it('error: the node echoed the secrets (the test is meaningful)', async () => {
    // The echo node saw them: the Authorization header carries base64(user:password).
    const r = await fetch(`${node.url}/x`, { headers: { authorization: `Basic ${SECRETS[2]}` } });
    expect(await r.text()).toContain(SECRETS[2]);
  });

  it('error: landing page: error messages that echo the request URL and headers are scrubbed', async () => {
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain('failing');
    // The echoed request reached the page (scrubbed): the check below is about real echoes.
    expect(page).toMatch(/upstream refused (GET|POST) \/|denied: POST \//);
    clean('landing page', page);
  });

  it('error: /metrics, /probe answers and /probe errors hold no secret', async () => {
    clean('/metrics', await (await fetch(`${base}/metrics`)).text());
    const probe = await fetch(`${base}/probe?target=${encodeURIComponent(target)}`);
    expect(probe.status).toBe(200);
    const probeText = await probe.text();
    expect(probeText).toContain('avax_up');
    clean('/probe', probeText);
    // /probe never takes a URL: a URL with credentials is an unknown target name, answered without fetching it.
    const bad = await fetch(`${base}/probe?target=${encodeURIComponent(`http://${USER}:${PASSWORD}@${new URL(node.url).host}/`)}`);
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(badText).toContain('only configured target names are accepted');
    clean('/probe error', badText);
    const missing = await (await fetch(`${base}/probe`)).text();
    clean('/probe without target', missing);
  });

  it('error: logs (debug level) hold no secret and are JSON lines', async () => {
    await waitFor(() => proc.stdout().includes('collector_failed'), 10_000);
    const logs = proc.stdout() + proc.stderr();
    clean('logs', logs);
    expect(logs).toContain('<redacted');
    for (const line of proc.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('error: labels hold no secret: the target label is host:port', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).join('\n');
    expect(labels).toContain(`target="${target}"`);
    clean('labels', labels);
  });
});
