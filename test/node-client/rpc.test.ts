/**
 * NodeClient.rpc against a local server answering like avalanchego (docs/avalanchego-wire.md §1, §7):
 * ok, rpc_error, http_error and invalid_response outcomes.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HttpError,
  InvalidResponseError,
  isNotFound,
  NodeClientError,
  ResponseTooLargeError,
  RpcError,
  SchemaError,
} from '../../src/node-client/index.js';
import { IN_PIECES_FROM_BYTES } from '../../src/node-client/json-in-pieces.js';
import type { Handler } from '../helpers/http-server.js';
import { expectRefused, expectReported, failure, idOf, NODE_ID, rpcError, rpcResult, sendEmpty, sendJson, sendText, useServer } from './server.js';

const NodeIdResult = z.object({ nodeID: z.string().startsWith('NodeID-') });
const Uptime = z.object({ rewardingStakePercentage: z.string(), weightedAveragePercentage: z.string() });

const h = useServer();
const { srv, client } = h;

describe('ok', () => {
  it('returns the result validated (and transformed) by the schema', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID, nodePOP: { publicKey: '0x00' } })));
    const c = client();
    const schema = NodeIdResult.transform((r) => r.nodeID.slice('NodeID-'.length));
    const out = await c.rpc('/ext/info', 'info.getNodeID', undefined, schema);
    expect(out).toBe(NODE_ID.slice('NodeID-'.length));
    expectReported(h.spy, 'info.getNodeID', 'ok');
  });

  it('sends POST, content-type application/json, jsonrpc 2.0, method and params', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const c = client();
    await c.rpc('/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [NODE_ID] }, NodeIdResult);
    await c.rpc('/ext/info', 'info.getNodeID', undefined, NodeIdResult);
    expect(srv.requests).toHaveLength(2);
    const [a, b] = srv.requests;
    expect(a!.method).toBe('POST');
    expect(a!.url).toBe('/ext/bc/P');
    expect(a!.headers['content-type']).toBe('application/json');
    expect(a!.headers['accept']).toBe('application/json');
    const ja = JSON.parse(a!.body) as Record<string, unknown>;
    expect(ja).toEqual({ jsonrpc: '2.0', id: expect.any(Number), method: 'platform.getCurrentValidators', params: { nodeIDs: [NODE_ID] } });
    // No params: `{}` (avalanchego accepts omitted, {} or [{…}]).
    const jb = JSON.parse(b!.body) as Record<string, unknown>;
    expect(jb).toEqual({ jsonrpc: '2.0', id: expect.any(Number), method: 'info.getNodeID', params: {} });
    expect(b!.url).toBe('/ext/info');
  });

  it('uses a unique, increasing id per request, also when calls run concurrently', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID })));
    const c = client();
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    await Promise.all(Array.from({ length: 6 }, () => c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)));
    await c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult);
    const ids = srv.requests.map((r) => idOf(r.body) as number);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    for (const id of ids) expect(Number.isInteger(id)).toBe(true);
    // Sequential calls: increasing; concurrent ones arrive in any order but lie in between.
    const sorted = [...ids].sort((x, y) => x - y);
    expect(ids[0]).toBe(sorted[0]);
    expect(ids[7]).toBe(sorted[7]);
    expect(sorted[7]! - sorted[0]!).toBe(7);
    expect(h.spy).toHaveBeenCalledTimes(8);
  });

  it('accepts the id echoed back as a string', async () => {
    srv.handle((_req, res, body) => sendJson(res, { jsonrpc: '2.0', result: { nodeID: NODE_ID }, id: String(idOf(body)) }));
    const c = client();
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expectReported(h.spy, 'info.getNodeID', 'ok');
  });

  it('accepts "error": null next to a result, and extra envelope keys', async () => {
    srv.handle((_req, res, body) => sendJson(res, { jsonrpc: '2.0', result: { nodeID: NODE_ID }, error: null, id: idOf(body), extra: 1 }));
    const c = client();
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expectReported(h.spy, 'info.getNodeID', 'ok');
  });
});

describe('rpc_error (HTTP 200 with a JSON-RPC error object)', () => {
  it.each([
    {
      title: 'the Go error text of the method',
      method: 'info.uptime',
      schema: Uptime,
      answer: (body: string) => rpcError(body, -32000, "couldn't get node uptime: node is not a validator"),
      code: -32000,
      rpcMessage: "couldn't get node uptime: node is not a validator",
      message: "info.uptime: JSON-RPC error -32000: couldn't get node uptime: node is not a validator",
      notFound: false,
    },
    {
      title: '"can\'t find method" counts as not found',
      method: 'info.getFoo',
      schema: Uptime,
      answer: (body: string) => rpcError(body, -32000, 'rpc: can\'t find method "info.GetFoo"'),
      code: -32000,
      rpcMessage: 'rpc: can\'t find method "info.GetFoo"',
      message: 'info.getFoo: JSON-RPC error -32000: rpc: can\'t find method "info.GetFoo"',
      notFound: true,
    },
    {
      title: 'jsonrpc must be 2.0 (data echoes the request)',
      method: 'info.getNodeID',
      schema: NodeIdResult,
      answer: (body: string) => rpcError(body, -32600, 'jsonrpc must be 2.0', { jsonrpc: '', method: 'info.getNodeID', params: {}, id: idOf(body) }),
      code: -32600,
      rpcMessage: 'jsonrpc must be 2.0',
      message: 'info.getNodeID: JSON-RPC error -32600: jsonrpc must be 2.0',
      notFound: false,
    },
    {
      title: 'parse error, which avalanchego answers with "id": null',
      method: 'info.getNodeID',
      schema: NodeIdResult,
      answer: () => ({ jsonrpc: '2.0', error: { code: -32700, message: "invalid character '}' looking for beginning of value", data: { jsonrpc: '', method: '', params: null, id: null } }, id: null }),
      code: -32700,
      rpcMessage: "invalid character '}' looking for beginning of value",
      message: "info.getNodeID: JSON-RPC error -32700: invalid character '}' looking for beginning of value",
      notFound: false,
    },
  ] as const)('$code: $title', async ({ method, schema, answer, code, rpcMessage, message, notFound }) => {
    srv.handle((_req, res, body) => sendJson(res, answer(body)));
    const err = await failure(client().rpc<unknown>('/ext/info', method, {}, schema), RpcError);
    expect(err.result).toBe('rpc_error');
    expect(err.code).toBe(code);
    expect(err.rpcMessage).toBe(rpcMessage);
    expect(err.method).toBe(method);
    expect(err.name).toBe('RpcError');
    expect(err.message).toBe(message);
    expect(isNotFound(err)).toBe(notFound);
    expectReported(h.spy, method, 'rpc_error');
  });

  it('keeps a long or multi-line RPC message on one bounded line', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcError(body, -32000, `first line\nsecond line ${'x'.repeat(1000)}`)));
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, Uptime), RpcError);
    expect(err.message).not.toContain('\n');
    expect(err.message.length).toBeLessThan(400);
    expect(err.rpcMessage).toContain('\n');
    expectReported(h.spy, 'info.peers', 'rpc_error');
  });
});

describe('http_error (plain-text answers, docs/avalanchego-wire.md §7)', () => {
  it.each([
    // a disabled API: "404 page not found\n", isNotFound()
    { path: '/ext/index/X/tx', method: 'index.getLastAccepted', params: { encoding: 'hex' }, status: 404, body: '404 page not found\n', message: 'index.getLastAccepted: HTTP 404: 404 page not found', notFound: true },
    { path: '/ext/info', method: 'info.getNodeVersion', params: {}, status: 405, body: 'rpc: POST method required, received GET', message: 'info.getNodeVersion: HTTP 405: rpc: POST method required, received GET', notFound: false },
    // no trailing newline
    { path: '/ext/info', method: 'info.getNetworkID', params: {}, status: 415, body: 'rpc: unrecognized Content-Type: text/plain;charset=UTF-8', message: 'info.getNetworkID: HTTP 415: rpc: unrecognized Content-Type: text/plain;charset=UTF-8', notFound: false },
    { path: '/ext/info', method: 'info.getNetworkName', params: {}, status: 403, body: 'invalid host specified\n', message: 'info.getNetworkName: HTTP 403: invalid host specified', notFound: false },
    { path: '/ext/bc/P', method: 'platform.getHeight', params: {}, status: 503, body: 'API call rejected because chain is not done bootstrapping\n', message: 'platform.getHeight: HTTP 503: API call rejected because chain is not done bootstrapping', notFound: false },
  ])('$status: $message', async ({ path, method, params, ...refusal }) => {
    await expectRefused(h, (c) => c.rpc(path, method, params, Uptime), method, refusal);
  });

  it('500 with an empty body', async () => {
    srv.handle((_req, res) => sendEmpty(res, 500));
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, Uptime), HttpError);
    expect(err.status).toBe(500);
    expect(err.message).toMatchInlineSnapshot(`"info.peers: HTTP 500"`);
    expectReported(h.spy, 'info.peers', 'http_error');
  });

  it('502 from a proxy with a long HTML body: one bounded line', async () => {
    srv.handle((_req, res) => sendText(res, 502, `<html>\n<body>\n${'Bad Gateway '.repeat(200)}\n</body>\n</html>\n`));
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, Uptime), HttpError);
    expect(err.status).toBe(502);
    expect(err.message).not.toContain('\n');
    expect(err.message.length).toBeLessThan(300);
    expect(err.body.length).toBeLessThanOrEqual(512);
    expectReported(h.spy, 'info.peers', 'http_error');
  });
});

describe('a big answer (read in pieces, src/node-client/json-in-pieces.ts)', () => {
  const Peers = z.object({ numPeers: z.string(), peers: z.array(z.object({ nodeID: z.string(), note: z.string().optional() })) });
  const peers = Array.from({ length: 6_000 }, (_, i) => ({ nodeID: `NodeID-${i}`, ip: `10.0.${i >> 8}.${i & 255}:9651`, version: 'avalanchego/1.14.2' }));

  it('gives the value JSON.parse of the whole body gives', async () => {
    let sent = 0;
    srv.handle((_req, res, body) => {
      const answer = rpcResult(body, { numPeers: String(peers.length), peers });
      sent = JSON.stringify(answer).length;
      sendJson(res, answer);
    });
    const out = await client().rpc('/ext/info', 'info.peers', {}, Peers);
    expect(sent).toBeGreaterThan(2 * IN_PIECES_FROM_BYTES);
    expect(out.peers).toHaveLength(6_000);
    expect(out.peers[5_999]!.nodeID).toBe('NodeID-5999');
    expect(out).toEqual(Peers.parse({ numPeers: String(peers.length), peers }));
    expectReported(h.spy, 'info.peers', 'ok');
  });

  it('a big body that is not JSON fails as a small one does, with JSON.parse of the whole as its cause', async () => {
    srv.handle((_req, res, body) => {
      const text = JSON.stringify(rpcResult(body, { numPeers: '1', peers }));
      sendText(res, 200, text.slice(0, 200_000) + '#' + text.slice(200_001));
    });
    const err = await failure(client().rpc('/ext/info', 'info.peers', {}, Peers), InvalidResponseError);
    expect(err.message).toBe('info.peers: invalid response: body is not JSON');
    expect(err.cause).toBeInstanceOf(SyntaxError);
    expect(String((err.cause as Error).message)).toMatch(/position 2000\d\d/);
  });
});

describe('invalid_response', () => {
  async function expectInvalid(
    handler: Handler,
    cls: abstract new (...args: never[]) => InvalidResponseError = InvalidResponseError,
    extra = {},
  ) {
    srv.handle(handler);
    const c = client(extra);
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult), cls);
    expect(err.result).toBe('invalid_response');
    expectReported(h.spy, 'info.getNodeID', 'invalid_response');
    return err;
  }

  it('not JSON', async () => {
    const err = await expectInvalid((_req, res) => sendText(res, 200, '<html>hello</html>'));
    // An HTML answer says so (test/node-client/html-body.test.ts has the other non-API bodies).
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: HTTP 200 with an HTML body instead of JSON: this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info"`);
    expect(err.cause).toBeInstanceOf(SyntaxError);
  });

  it('a JSON array (a batch answer)', async () => {
    const err = await expectInvalid((_req, res, body) => sendJson(res, [rpcResult(body, { nodeID: NODE_ID })]));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: not a JSON-RPC object"`);
  });

  it('a JSON scalar', async () => {
    const err = await expectInvalid((_req, res) => sendJson(res, '"ok"'));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: not a JSON-RPC object"`);
  });

  it('wrong envelope: no jsonrpc', async () => {
    const err = await expectInvalid((_req, res, body) => sendJson(res, { result: { nodeID: NODE_ID }, id: idOf(body) }));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: jsonrpc is not "2.0""`);
  });

  it('wrong envelope: neither result nor error', async () => {
    const err = await expectInvalid((_req, res, body) => sendJson(res, { jsonrpc: '2.0', id: idOf(body) }));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: neither result nor error"`);
  });

  it('wrong envelope: malformed error object', async () => {
    const err = await expectInvalid((_req, res, body) => sendJson(res, { jsonrpc: '2.0', error: 'boom', id: idOf(body) }));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: malformed error object"`);
  });

  it('id mismatch', async () => {
    const err = await expectInvalid((_req, res) => sendJson(res, { jsonrpc: '2.0', result: { nodeID: NODE_ID }, id: 999_999 }));
    expect(err.message).toMatch(/^info\.getNodeID: invalid response: id mismatch \(sent \d+\)$/);
  });

  it('id null on a success answer', async () => {
    const err = await expectInvalid((_req, res) => sendJson(res, { jsonrpc: '2.0', result: { nodeID: NODE_ID }, id: null }));
    expect(err.message).toMatch(/^info\.getNodeID: invalid response: id mismatch \(sent \d+\)$/);
  });

  it('schema mismatch: SchemaError names the path', async () => {
    const err = await expectInvalid(
      (_req, res, body) => sendJson(res, rpcResult(body, { nodeID: 12 })),
      SchemaError,
    );
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: schema mismatch: nodeID: Invalid input: expected string, received number"`);
    expect((err as SchemaError).issues).toContain('nodeID');
    expect(err.cause).toBeInstanceOf(z.ZodError);
  });

  it('schema mismatch deep in the result names the full path', async () => {
    srv.handle((_req, res, body) => sendJson(res, rpcResult(body, { peers: [{ nodeID: NODE_ID }, { nodeID: 3 }] })));
    const c = client();
    const schema = z.object({ peers: z.array(z.object({ nodeID: z.string() })) });
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, schema), SchemaError);
    expect(err.message).toMatchInlineSnapshot(`"info.peers: invalid response: schema mismatch: peers.1.nodeID: Invalid input: expected string, received number"`);
    expectReported(h.spy, 'info.peers', 'invalid_response');
  });

  it('body above maxResponseBytes, with content-length', async () => {
    const err = await expectInvalid(
      (_req, res, body) => sendJson(res, rpcResult(body, { nodeID: NODE_ID, pad: 'x'.repeat(4096) })),
      ResponseTooLargeError,
      { maxResponseBytes: 1024 },
    );
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: body larger than 1024 bytes"`);
    expect((err as ResponseTooLargeError).limitBytes).toBe(1024);
  });

  it('body above maxResponseBytes, chunked (no content-length)', async () => {
    let sawContentLength: string | undefined = 'unset';
    const err = await expectInvalid(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'node-id': NODE_ID });
        sawContentLength = res.getHeader('content-length') as string | undefined;
        res.write('{"jsonrpc":"2.0","result":{"pad":"');
        const piece = 'y'.repeat(512);
        let n = 0;
        const more = () => {
          if (res.destroyed || n++ > 40) return res.destroyed ? undefined : void res.end('"},"id":1}');
          res.write(piece);
          setTimeout(more, 1);
        };
        more();
      },
      ResponseTooLargeError,
      { maxResponseBytes: 2048 },
    );
    expect(sawContentLength).toBeUndefined();
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: body larger than 2048 bytes"`);
  });

  it('a body of exactly maxResponseBytes is accepted', async () => {
    const text = (body: string) => {
      const base = JSON.stringify(rpcResult(body, { nodeID: NODE_ID, pad: '' }));
      return JSON.stringify(rpcResult(body, { nodeID: NODE_ID, pad: 'z'.repeat(1024 - base.length - 1) }));
    };
    srv.handle((_req, res, body) => sendJson(res, text(body)));
    const c = client({ maxResponseBytes: 1024 });
    await expect(c.rpc('/ext/info', 'info.getNodeID', {}, NodeIdResult)).resolves.toEqual({ nodeID: NODE_ID });
    expectReported(h.spy, 'info.getNodeID', 'ok');
  });

  it('empty body (what avalanchego sends to a notification)', async () => {
    const err = await expectInvalid((_req, res) => {
      res.writeHead(200, { 'content-length': 0, 'node-id': NODE_ID });
      res.end();
    });
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: empty body"`);
  });

  it('whitespace-only body', async () => {
    const err = await expectInvalid((_req, res) => sendText(res, 200, '\n'));
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: empty body"`);
  });

  it('truncated body: content-length larger than what is sent, then the socket ends', async () => {
    const err = await expectInvalid((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 200, 'node-id': NODE_ID });
      res.write('{"jsonrpc":"2.0","result":{"nodeID":"NodeID-');
      setTimeout(() => req.socket.end(), 20);
    });
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: truncated body (44 of 200 bytes)"`);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('truncated body with Connection: close', async () => {
    const err = await expectInvalid((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 200, connection: 'close' });
      res.write('{"jsonrpc":"2.0","result":');
      setTimeout(() => req.socket.end(), 20);
    });
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: invalid response: truncated body (26 of 200 bytes)"`);
    expect(err.cause).toBeInstanceOf(Error);
  });
});

describe('the error family', () => {
  it('every error is a NodeClientError with a name', () => {
    for (const e of [
      new RpcError('m', -32000, 'x'),
      new HttpError('m', 404, ''),
      new InvalidResponseError('m', 'r'),
      new SchemaError('m', 'a: b'),
      new ResponseTooLargeError('m', 10),
    ]) {
      expect(e).toBeInstanceOf(NodeClientError);
      expect(e.name).toBe(e.constructor.name);
      expect(e.message.startsWith('m: ')).toBe(true);
    }
  });
});
