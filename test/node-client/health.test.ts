/**
 * NodeClient.healthGet: GET /ext/health{,/readiness,/liveness} answers 200 or 503, both with the JSON
 * report (docs/avalanchego-wire.md §3); a plain-text 503 (proxy, middleware) or a 404 is an HttpError.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, InvalidResponseError, NodeClientError, SchemaError, type NodeClientOptions } from '../../src/node-client/index.js';
import type { Handler } from '../helpers/http-server.js';
import { expectRefused, expectReported, failure, NODE_ID, sendEmpty, sendJson, sendText, useServer } from './server.js';

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

/** GET bodies: application/json without charset (docs/avalanchego-wire.md §3). */
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

  it.each([
    { path: '/ext/health', status: 503, body: 'Service Unavailable\n', message: 'GET /ext/health: HTTP 503: Service Unavailable', notFound: false },
    // the health API disabled: isNotFound()
    { path: '/ext/health/readiness', status: 404, body: '404 page not found\n', message: 'GET /ext/health/readiness: HTTP 404: 404 page not found', notFound: true },
    // HEAD/other verbs on /ext/health go to the JSON-RPC server
    { path: '/ext/health', status: 405, body: 'rpc: POST method required, received GET', message: 'GET /ext/health: HTTP 405: rpc: POST method required, received GET', notFound: false },
  ])('$status with a plain-text body is an HttpError: $message', async ({ path, ...refusal }) => {
    const err = await expectRefused(h, (c) => c.healthGet(path, Health), `GET ${path}`, refusal);
    expect(err.cause).toBeUndefined();
  });

  /** Answers GET /ext/health with `handler` (a client with `opts`); the error: of `cls`, its result and message, reported once. */
  async function healthFailure<E extends NodeClientError>(
    handler: Handler,
    cls: abstract new (...args: never[]) => E,
    message: string,
    opts: Partial<NodeClientOptions> = {},
  ): Promise<E> {
    srv.handle(handler);
    const err = await failure(client(opts).healthGet('/ext/health', Health), cls);
    expect(err.message).toBe(message);
    expectReported(h.spy, 'GET /ext/health', err.result);
    return err;
  }

  it('503 with an empty body is an HttpError', async () => {
    const err = await healthFailure((_req, res) => sendEmpty(res, 503), HttpError, 'GET /ext/health: HTTP 503');
    expect(err.result).toBe('http_error');
  });

  it('200 with a non-JSON body is an invalid response', async () => {
    const err = await healthFailure((_req, res) => sendText(res, 200, 'OK'), InvalidResponseError, 'GET /ext/health: invalid response: body is not JSON');
    expect(err.result).toBe('invalid_response');
    expect(err.cause).toBeInstanceOf(SyntaxError);
  });

  it('200 with an empty body is an invalid response', async () => {
    const err = await healthFailure((_req, res) => sendEmpty(res, 200), InvalidResponseError, 'GET /ext/health: invalid response: empty body');
    expect(err.result).toBe('invalid_response');
  });

  it('503 with JSON that does not match the schema is a SchemaError', async () => {
    const err = await healthFailure(
      (_req, res) => sendHealth(res, 503, { checks: { network: { error: 'x', duration: 'long' } }, healthy: 'no' }),
      SchemaError,
      'GET /ext/health: invalid response: schema mismatch: checks.network.timestamp: Invalid input: expected string, received undefined; checks.network.duration: Invalid input: expected number, received string; healthy: Invalid input: expected boolean, received string',
    );
    expect(err.result).toBe('invalid_response');
  });

  it('a report above maxResponseBytes', async () => {
    const big = { checks: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, HEALTHY.checks.database])), healthy: true };
    const err = await healthFailure((_req, res) => sendHealth(res, 200, big), InvalidResponseError, 'GET /ext/health: invalid response: body larger than 512 bytes', { maxResponseBytes: 512 });
    expect(err.result).toBe('invalid_response');
  });
});
