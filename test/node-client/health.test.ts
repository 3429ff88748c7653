/**
 * NodeClient.healthGet: GET /ext/health{,/readiness,/liveness} answers 200 or 503, both with the JSON
 * report (AVALANCHEGO.md §3); a plain-text 503 (proxy, middleware) or a 404 is an HttpError.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, InvalidResponseError, isNotFound, SchemaError } from '../../src/node-client/index.js';
import { expectReported, failure, NODE_ID, sendJson, sendText, useServer } from './server.js';

const Check = z.object({
  message: z.unknown().optional(),
  error: z.string().optional(),
  timestamp: z.string(),
  duration: z.number(),
  contiguousFailures: z.number().optional(),
  timeOfFirstFailure: z.string().optional(),
});
const Health = z.object({ checks: z.record(z.string(), Check), healthy: z.boolean() });

const HEALTHY = {
  checks: {
    bootstrapped: { message: [], timestamp: '2025-11-19T10:15:02.123456789Z', duration: 41875 },
    database: { timestamp: '2025-11-19T10:15:02.1Z', duration: 3125 },
  },
  healthy: true,
};

const UNHEALTHY = {
  checks: {
    bootstrapped: {
      message: ['11111111111111111111111111111111LpoYY'],
      error: 'subnets not bootstrapped',
      timestamp: '2025-11-19T10:15:02.123456789-04:00',
      duration: 5000,
      contiguousFailures: 12,
      timeOfFirstFailure: '2025-11-19T10:09:32Z',
    },
    P: { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 },
  },
  healthy: false,
};

/** GET bodies: application/json without charset (AVALANCHEGO.md §3). */
function sendHealth(res: Parameters<typeof sendJson>[0], status: number, body: unknown) {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'node-id': NODE_ID });
  res.end(text);
}

const h = useServer();
const { srv, client } = h;

describe('healthGet', () => {
  it('200: parses the report, GET without a body or content-type', async () => {
    srv.handle((_req, res) => sendHealth(res, 200, HEALTHY));
    const c = client();
    const out = await c.healthGet('/ext/health', Health);
    expect(out).toEqual({ status: 200, body: HEALTHY });
    expectReported(h.spy, 'GET /ext/health', 'ok');
    const r = srv.requests[0]!;
    expect(r.method).toBe('GET');
    expect(r.url).toBe('/ext/health');
    expect(r.body).toBe('');
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.headers['accept']).toBe('application/json');
  });

  it('503 with the JSON report: parsed, status returned, counted as ok', async () => {
    srv.handle((_req, res) => sendHealth(res, 503, UNHEALTHY));
    const c = client();
    const out = await c.healthGet('/ext/health/readiness', Health);
    expect(out.status).toBe(503);
    expect(out.body.healthy).toBe(false);
    expect(out.body.checks['bootstrapped']?.contiguousFailures).toBe(12);
    expect(out.body.checks['P']?.error).toBe('not yet run');
    expectReported(h.spy, 'GET /ext/health/readiness', 'ok');
  });

  it('liveness: always {"checks":{},"healthy":true}', async () => {
    srv.handle((_req, res) => sendHealth(res, 200, { checks: {}, healthy: true }));
    const c = client();
    await expect(c.healthGet('/ext/health/liveness', Health)).resolves.toEqual({ status: 200, body: { checks: {}, healthy: true } });
    expectReported(h.spy, 'GET /ext/health/liveness', 'ok');
  });

  it('503 with a plain-text body is an HttpError', async () => {
    srv.handle((_req, res) => sendText(res, 503, 'Service Unavailable\n'));
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), HttpError);
    expect(err.result).toBe('http_error');
    expect(err.status).toBe(503);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: HTTP 503: Service Unavailable"`);
    expect(err.cause).toBeUndefined();
    expectReported(h.spy, 'GET /ext/health', 'http_error');
  });

  it('503 with an empty body is an HttpError', async () => {
    srv.handle((_req, res) => {
      res.writeHead(503, { 'content-length': 0 });
      res.end();
    });
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), HttpError);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: HTTP 503"`);
    expectReported(h.spy, 'GET /ext/health', 'http_error');
  });

  it('404 (health API disabled) is an HttpError and isNotFound()', async () => {
    srv.handle((_req, res) => sendText(res, 404, '404 page not found\n'));
    const c = client();
    const err = await failure(c.healthGet('/ext/health/readiness', Health), HttpError);
    expect(err.status).toBe(404);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health/readiness: HTTP 404: 404 page not found"`);
    expect(isNotFound(err)).toBe(true);
    expectReported(h.spy, 'GET /ext/health/readiness', 'http_error');
  });

  it('405 (HEAD/other verbs on /ext/health go to the JSON-RPC server)', async () => {
    srv.handle((_req, res) => sendText(res, 405, 'rpc: POST method required, received GET'));
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), HttpError);
    expect(err.status).toBe(405);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: HTTP 405: rpc: POST method required, received GET"`);
    expectReported(h.spy, 'GET /ext/health', 'http_error');
  });

  it('200 with a non-JSON body is an invalid response', async () => {
    srv.handle((_req, res) => sendText(res, 200, 'OK'));
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), InvalidResponseError);
    expect(err.result).toBe('invalid_response');
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: invalid response: body is not JSON"`);
    expect(err.cause).toBeInstanceOf(SyntaxError);
    expectReported(h.spy, 'GET /ext/health', 'invalid_response');
  });

  it('200 with an empty body is an invalid response', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), InvalidResponseError);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: invalid response: empty body"`);
    expectReported(h.spy, 'GET /ext/health', 'invalid_response');
  });

  it('503 with JSON that does not match the schema is a SchemaError', async () => {
    srv.handle((_req, res) => sendHealth(res, 503, { checks: { network: { error: 'x', duration: 'long' } }, healthy: 'no' }));
    const c = client();
    const err = await failure(c.healthGet('/ext/health', Health), SchemaError);
    expect(err.result).toBe('invalid_response');
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: invalid response: schema mismatch: checks.network.timestamp: Invalid input: expected string, received undefined; checks.network.duration: Invalid input: expected number, received string; healthy: Invalid input: expected boolean, received string"`);
    expectReported(h.spy, 'GET /ext/health', 'invalid_response');
  });

  it('a report above maxResponseBytes', async () => {
    const big = { checks: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, HEALTHY.checks.database])), healthy: true };
    srv.handle((_req, res) => sendHealth(res, 200, big));
    const c = client({ maxResponseBytes: 512 });
    const err = await failure(c.healthGet('/ext/health', Health), InvalidResponseError);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: invalid response: body larger than 512 bytes"`);
    expectReported(h.spy, 'GET /ext/health', 'invalid_response');
  });
});
