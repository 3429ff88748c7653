/**
 * NodeClient transport: deadlines, network failures, keep-alive, URL parts (userinfo, path prefix,
 * query string), configured headers, the Node-Id header, and credentials kept out of error messages.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HttpError,
  InvalidResponseError,
  NetworkError,
  NodeClientError,
  RpcError,
  TimeoutError,
} from '../../src/node-client/index.js';
import { freePort } from '../helpers/proc.js';
import { expectReported, failure, NODE_ID, rpcError, rpcResult, sendJson, sendText, useServer } from './server.js';

const NodeIdResult = z.object({ nodeID: z.string() });
const Health = z.object({ healthy: z.boolean(), checks: z.record(z.string(), z.unknown()) });

const h = useServer();
const { srv, client, clients } = h;

describe('timeout', () => {
  it('the server never answers: deadline of 200 ms', async () => {
    srv.handle(() => {});
    const c = client({ timeoutMs: 200 });
    const started = performance.now();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, NodeIdResult), TimeoutError, 3_000);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1_500);
    expect(err.result).toBe('timeout');
    expect(err.timeoutMs).toBe(200);
    expect(err.message).toMatchInlineSnapshot(`"info.peers: no complete answer within 200 ms"`);
    expect(err.cause).toBeDefined();
    expectReported(h.spy, 'info.peers', 'timeout');
    expect(h.spy.mock.calls[0]![2]).toBeGreaterThanOrEqual(0.15);
  });

  it('a stall in the middle of the body', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 500, 'node-id': NODE_ID });
      res.write('{"jsonrpc":"2.0","result":{"nodeID":"NodeID-');
    });
    const c = client({ timeoutMs: 200 });
    const started = performance.now();
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), TimeoutError, 3_000);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(err.result).toBe('timeout');
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: no complete answer within 200 ms"`);
    expect(err.cause).toBeDefined();
    expectReported(h.spy, 'info.getNodeID', 'timeout');
    // The headers did arrive before the stall.
  });

  it('a stall in the middle of a chunked body', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","result":');
    });
    const c = client({ timeoutMs: 200 });
    const err = await failure(c.healthGet('/ext/health', Health), TimeoutError, 3_000);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: no complete answer within 200 ms"`);
    expectReported(h.spy, 'GET /ext/health', 'timeout');
  });

  it('the client recovers after a timeout', async () => {
    let stall = true;
    srv.handle((_req, res, body) => (stall ? undefined : sendJson(res, rpcResult(body, { nodeID: NODE_ID }))));
    const c = client({ timeoutMs: 200 });
    await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), TimeoutError, 3_000);
    stall = false;
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expect(h.spy.mock.calls.map((call) => call[1])).toEqual(['timeout', 'ok']);
  });

  it('an outer AbortSignal ends the call early and is reported once', async () => {
    srv.handle(() => {});
    const c = client({ timeoutMs: 2_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = performance.now();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, NodeIdResult, { signal: ac.signal }), NodeClientError, 3_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(err.result).toBe('timeout');
    expect(err.cause).toBeDefined();
    expectReported(h.spy, 'info.peers', 'timeout');
  });
});

describe('network_error', () => {
  it('connection refused (a port that was just closed)', async () => {
    const port = await freePort();
    const c = client({ url: `http://127.0.0.1:${port}` });
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError);
    expect(err.result).toBe('network_error');
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.message.replace(`:${port}`, ':PORT')).toMatchInlineSnapshot(`"info.getNodeID: network error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:PORT"`);
    expect(err.cause).toBeInstanceOf(Error);
    expectReported(h.spy, 'info.getNodeID', 'network_error');
  });

  it('connection refused on a health GET', async () => {
    const port = await freePort();
    const c = client({ url: `http://127.0.0.1:${port}` });
    const err = await failure(c.healthGet('/ext/health/liveness', Health), NetworkError);
    expect(err.message.replace(`:${port}`, ':PORT')).toMatchInlineSnapshot(`"GET /ext/health/liveness: network error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:PORT"`);
    expectReported(h.spy, 'GET /ext/health/liveness', 'network_error');
  });

  it('the server closes the connection without answering', async () => {
    srv.handle((req) => req.socket.destroy());
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError);
    expect(err.result).toBe('network_error');
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: network error UND_ERR_SOCKET: other side closed"`);
    expect(err.cause).toBeInstanceOf(Error);
    expectReported(h.spy, 'info.getNodeID', 'network_error');
  });

  it('connection reset (RST) without answering', async () => {
    srv.handle((req) => req.socket.resetAndDestroy());
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError);
    expect(err.result).toBe('network_error');
    expect(err.code).toBe('ECONNRESET');
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: network error ECONNRESET: read ECONNRESET"`);
    expect(err.cause).toBeInstanceOf(Error);
    expectReported(h.spy, 'info.getNodeID', 'network_error');
  });

  it('the client recovers once the server answers again', async () => {
    let drop = true;
    srv.handle((req, res, body) => (drop ? req.socket.destroy() : sendJson(res, rpcResult(body, { nodeID: NODE_ID }))));
    const c = client();
    await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError);
    drop = false;
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expect(h.spy.mock.calls.map((call) => call[1])).toEqual(['network_error', 'ok']);
  });
});

describe('requests carry the URL parts and the configured headers', () => {
  it('userinfo → Basic auth; configured headers; path prefix and query kept; Node-Id recorded', async () => {
    srv.handle((req, res, body) => {
      if (req.method === 'GET') return sendJson(res, { checks: {}, healthy: true });
      sendJson(res, rpcResult(body, { nodeID: NODE_ID }));
    });
    const c = client({
      url: `http://ops:s%40cr%3At@127.0.0.1:${srv.port}/avax/node-1/?token=q-secret&x=1`,
      headers: { 'X-Api-Key': 'hdr-secret', 'CF-Access-Client-Id': 'abc' },
    });
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    await c.rpc('/ext/bc/C/rpc', 'eth_blockNumber', [], NodeIdResult);
    await c.healthGet('/ext/health/readiness', Health);
    expect(srv.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /avax/node-1/ext/info?token=q-secret&x=1',
      'POST /avax/node-1/ext/bc/C/rpc?token=q-secret&x=1',
      'GET /avax/node-1/ext/health/readiness?token=q-secret&x=1',
    ]);
    for (const r of srv.requests) {
      expect(r.headers['authorization']).toBe(`Basic ${Buffer.from('ops:s@cr:t').toString('base64')}`);
      expect(r.headers['x-api-key']).toBe('hdr-secret');
      expect(r.headers['cf-access-client-id']).toBe('abc');
      expect(r.headers['accept']).toBe('application/json');
      expect(r.headers['host']).toBe(`127.0.0.1:${srv.port}`);
    }
    expect(srv.requests[2]!.headers['content-type']).toBeUndefined();
    expect(JSON.parse(srv.requests[1]!.body)).toMatchObject({ method: 'eth_blockNumber', params: [] });
    expect(h.spy.mock.calls.map((call) => call.slice(0, 2))).toEqual([
      ['info.getNodeID', 'ok'],
      ['eth_blockNumber', 'ok'],
      ['GET /ext/health/readiness', 'ok'],
    ]);
  });

  it('a configured Authorization header wins over the userinfo; content-type stays application/json', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const c = client({
      url: `http://u:p@127.0.0.1:${srv.port}`,
      headers: { Authorization: 'Bearer tok-secret', 'Content-Type': 'text/plain' },
    });
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    expect(srv.requests[0]!.headers['authorization']).toBe('Bearer tok-secret');
    expect(srv.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('a user name without a password still becomes Basic auth', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const c = client({ url: `http://alice@127.0.0.1:${srv.port}/` });
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    expect(srv.requests[0]!.url).toBe('/ext/info');
    expect(srv.requests[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('alice:').toString('base64')}`);
  });

  it('no userinfo, no headers: no Authorization', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const c = client();
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    expect(srv.requests[0]!.headers['authorization']).toBeUndefined();
  });

  it('a health path with its own query keeps both queries', async () => {
    srv.handle((_req, res) => sendJson(res, { checks: {}, healthy: true }));
    const c = client({ url: `${srv.url}/p?token=q-secret` });
    await c.healthGet('/ext/health?tag=11111111111111111111111111111111LpoYY', Health);
    expect(srv.requests[0]!.url).toBe('/p/ext/health?tag=11111111111111111111111111111111LpoYY&token=q-secret');
  });
});

describe('keep-alive', () => {
  it('sequential calls reuse one connection', async () => {
    srv.handle((req, res, body) => {
      if (req.method === 'GET') return sendJson(res, { checks: {}, healthy: false }, 503);
      sendJson(res, rpcResult(body, { nodeID: NODE_ID }));
    });
    const c = client();
    for (let i = 0; i < 5; i++) await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    await c.healthGet('/ext/health', Health);
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    expect(srv.requests).toHaveLength(7);
    expect(srv.connections).toBe(1);
  });

  it('error answers with a complete body (HTTP error, RPC error) keep the connection', async () => {
    let n = 0;
    srv.handle((_req, res, body) => {
      n++;
      if (n === 1) return sendText(res, 503, 'API call rejected because chain is not done bootstrapping\n');
      if (n === 2) return sendJson(res, rpcError(body, -32000, 'not found'));
      sendJson(res, rpcResult(body, { nodeID: NODE_ID }));
    });
    const c = client();
    await failure(c.rpc('/ext/bc/P', 'platform.getHeight', {}, NodeIdResult), HttpError);
    await failure(c.rpc('/ext/bc/P', 'platform.getHeight', {}, NodeIdResult), RpcError);
    await c.rpc('/ext/bc/P', 'platform.getHeight', {}, NodeIdResult);
    expect(srv.connections).toBe(1);
  });

  it('concurrency is bounded by `connections`', async () => {
    const pending: Array<() => void> = [];
    let inFlight = 0;
    let maxInFlight = 0;
    srv.handle((_req, res, body) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      pending.push(() => {
        inFlight--;
        sendJson(res, rpcResult(body, { nodeID: NODE_ID }));
      });
    });
    const c = client({ timeoutMs: 3_000, connections: 2 });
    const calls = Promise.all(Array.from({ length: 6 }, () => c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)));
    const release = setInterval(() => pending.splice(0).forEach((f) => f()), 20);
    try {
      await calls;
    } finally {
      clearInterval(release);
    }
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(srv.connections).toBeLessThanOrEqual(2);
    expect(h.spy).toHaveBeenCalledTimes(6);
  });
});

describe('credentials never appear in error messages', () => {
  const SECRETS = ['s3cr3t-pw', 'hdr-s3cr3t-value', 'q-s3cr3t-token'];

  function secretClient(timeoutMs = 2_000, port = srv.port) {
    return client({
      url: `http://ops:s3cr3t-pw@127.0.0.1:${port}/prefix?token=q-s3cr3t-token`,
      headers: { 'X-Api-Key': 'hdr-s3cr3t-value' },
      timeoutMs,
    });
  }

  function expectClean(err: NodeClientError) {
    const texts = [err.message, String(err), err.stack ?? ''];
    if (err.cause instanceof Error) texts.push(err.cause.message);
    if (err instanceof HttpError) texts.push(err.body);
    if (err instanceof RpcError) texts.push(err.rpcMessage);
    for (const t of texts) for (const s of SECRETS) expect(t).not.toContain(s);
    const basic = Buffer.from('ops:s3cr3t-pw').toString('base64');
    for (const t of texts) expect(t).not.toContain(basic);
  }

  /** Echoes the request line and headers back, as a debugging proxy or a confused backend might. */
  function echo(req: { method?: string; url?: string; headers: Record<string, unknown> }) {
    return `${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n`;
  }

  it('http_error whose body echoes the request', async () => {
    srv.handle((req, res) => sendText(res, 400, echo(req)));
    const c = secretClient();
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), HttpError);
    expect(err.status).toBe(400);
    expect(err.message).toContain('/prefix/ext/info');
    expectClean(err);
  });

  it('rpc_error whose message echoes the request', async () => {
    srv.handle((req, res, body) => sendJson(res, rpcError(body, -32000, echo(req))));
    const c = secretClient();
    expectClean(await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), RpcError));
  });

  it('a non-JSON body that echoes the request', async () => {
    srv.handle((req, res) => sendText(res, 200, echo(req)));
    const c = secretClient();
    expectClean(await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), InvalidResponseError));
  });

  it('a health 503 with a plain-text body that echoes the request', async () => {
    srv.handle((req, res) => sendText(res, 503, echo(req)));
    const c = secretClient();
    expectClean(await failure(c.healthGet('/ext/health', Health), HttpError));
  });

  it('timeout, refused, reset, schema mismatch, id mismatch', async () => {
    srv.handle(() => {});
    expectClean(await failure(secretClient(200).rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), TimeoutError, 3_000));

    expectClean(await failure(secretClient(2_000, await freePort()).rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError));

    srv.handle((req) => req.socket.resetAndDestroy());
    expectClean(await failure(secretClient().rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), NetworkError));

    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: 1 })));
    expectClean(await failure(secretClient().rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), InvalidResponseError));

    srv.handle((_req, res) => sendJson(res, { jsonrpc: '2.0', result: {}, id: 'q-s3cr3t-token' }));
    expectClean(await failure(secretClient().rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), InvalidResponseError));
  });
});

describe('onRequest', () => {
  it('a throwing callback neither fails a good call nor is called twice', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const calls: string[] = [];
    const c = clients.make({
      url: srv.url,
      onRequest: (_m, result) => {
        calls.push(result);
        throw new Error('metrics broke');
      },
    });
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expect(calls).toEqual(['ok']);
  });

  it('a throwing callback does not replace the call error', async () => {
    srv.handle((_req, res) => sendText(res, 404, '404 page not found\n'));
    const c = clients.make({
      url: srv.url,
      onRequest: () => {
        throw new Error('metrics broke');
      },
    });
    await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), HttpError);
  });
});

describe('an injected dispatcher (the backtest answers in process)', () => {
  it('behavior: requests go to the dispatcher with the node URL origin and path prefix; close() leaves it open', async () => {
    const { MockAgent } = await import('undici');
    const { NodeClient } = await import('../../src/node-client/index.js');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://10.0.0.9:9650')
      .intercept({ path: '/prefix/ext/info', method: 'POST' })
      .reply(200, (opts) => ({ jsonrpc: '2.0', id: JSON.parse(String(opts.body)).id, result: { networkID: '5' } }))
      .persist();
    const seen: string[] = [];
    const c = new NodeClient({ url: 'http://10.0.0.9:9650/prefix', dispatcher: agent, onRequest: (m, r) => seen.push(`${m} ${r}`) });
    expect(await c.rpc('/ext/info', 'info.getNetworkID', {}, z.object({ networkID: z.string() }))).toEqual({ networkID: '5' });
    expect(seen).toEqual(['info.getNetworkID ok']);
    await c.close();
    // Still usable after the client closed: close() leaves a dispatcher it did not make alone.
    expect(await c.rpc('/ext/info', 'info.getNetworkID', {}, z.object({ networkID: z.string() }))).toEqual({ networkID: '5' });
    await agent.close();
  });
});
