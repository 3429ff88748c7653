/**
 * NodeClient.textGet: GET /ext/metrics streams a 200 text body to a sink (never held whole), under the
 * size cap; a 404 (metrics API disabled) is an HttpError a caller may count as a normal state; an HTML
 * page with 200 is not the Prometheus format.
 */
import { describe, expect, it } from 'vitest';
import { HttpError, InvalidResponseError, ResponseTooLargeError } from '../../src/node-client/index.js';
import { expectReported, failure, NODE_ID, sendText, useServer } from './server.js';

const h = useServer();
const { srv, client } = h;

const BODY = '# TYPE avalanche_network_peers gauge\navalanche_network_peers 3\n' + 'x_é 1\n'.repeat(5000);

describe('textGet', () => {
  it('200: the body arrives in pieces that join to the whole, Accept asks for the text format', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'node-id': NODE_ID });
      // Split inside the two-byte é, so that decoding across chunks is exercised.
      const buf = Buffer.from(BODY);
      const cut = buf.indexOf(Buffer.from('é')) + 1;
      res.write(buf.subarray(0, cut));
      setTimeout(() => res.end(buf.subarray(cut)), 5);
    });
    const c = client();
    const pieces: string[] = [];
    await c.textGet('/ext/metrics', (p) => pieces.push(p));
    expect(pieces.join('')).toBe(BODY);
    expect(pieces.length).toBeGreaterThan(1);
    expectReported(h.spy, 'GET /ext/metrics', 'ok');
    expect(srv.requests[0]!.headers['accept']).toBe('text/plain;version=0.0.4');
    expect(srv.requests[0]!.method).toBe('GET');
  });

  it('404 (metrics API disabled): HttpError 404, counted as normal_state when the caller says so', async () => {
    srv.handle((_req, res) => sendText(res, 404, '404 page not found\n'));
    const c = client();
    const pieces: string[] = [];
    const err = await failure(c.textGet('/ext/metrics', (p) => pieces.push(p), { normal: (e) => e instanceof HttpError && e.status === 404 }), HttpError);
    expect(err.status).toBe(404);
    expect(pieces).toEqual([]);
    expectReported(h.spy, 'GET /ext/metrics', 'normal_state');
  });

  it('error: 200 with an HTML page is an invalid response, nothing reaches the sink', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Login</title></html>');
    });
    const c = client();
    const pieces: string[] = [];
    const err = await failure(c.textGet('/ext/metrics', (p) => pieces.push(p)), InvalidResponseError);
    expect(err.message).toContain('"Login"');
    expect(pieces).toEqual([]);
    expectReported(h.spy, 'GET /ext/metrics', 'invalid_response');
  });

  it('error: a body over the size cap is refused (streamed without content-length)', async () => {
    srv.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('a 1\n'.repeat(20_000));
    });
    const c = client({ maxResponseBytes: 10_000 });
    await failure(c.textGet('/ext/metrics', () => {}), ResponseTooLargeError);
    expectReported(h.spy, 'GET /ext/metrics', 'invalid_response');
  });
});
