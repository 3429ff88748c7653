/**
 * A node URL that is not an avalanchego API (a web server, a reverse proxy's error page): the error
 * says what was expected and what came instead, in one short line, never the raw HTML (issue 12).
 * The error classes and their `result` labels stay those of any other HTTP or body failure.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, InvalidResponseError } from '../../src/node-client/index.js';
import { htmlSummary } from '../../src/node-client/errors.js';
import { expectReported, failure, useServer } from './server.js';

const Anything = z.object({ nodeID: z.string() });

const h = useServer();
const { srv, client } = h;

function sendHtml(res: ServerResponse, status: number, html: string, contentType: string | undefined = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { ...(contentType ? { 'content-type': contentType } : {}), 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

const NGINX_501 = '<html>\r\n<head><title>501 Not Implemented</title></head>\r\n<body>\r\n<center><h1>501 Not Implemented</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

describe('an HTML page where avalanchego was expected', () => {
  it('error: HTTP 501 from a reverse proxy: status, the page title and what was expected', async () => {
    srv.handle((_req, res) => sendHtml(res, 501, NGINX_501));
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, Anything), HttpError);
    expect(err.result).toBe('http_error');
    expect(err.status).toBe(501);
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: HTTP 501 with an HTML body ("501 Not Implemented"): this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info"`);
    expectReported(h.spy, 'info.getNodeID', 'http_error');
  });

  it('error: a 200 HTML page (a web server at that port) is an invalid response that says so', async () => {
    srv.handle((_req, res) => sendHtml(res, 200, `<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title><style>${'x'.repeat(5000)}</style></head><body></body></html>`));
    const c = client();
    const err = await failure(c.rpc('/ext/bc/P', 'platform.getHeight', {}, Anything), InvalidResponseError);
    expect(err.result).toBe('invalid_response');
    expect(err.message).toMatchInlineSnapshot(`"platform.getHeight: invalid response: HTTP 200 with an HTML body ("Welcome to nginx!") instead of JSON: this URL does not look like an avalanchego API; expected JSON-RPC at /ext/bc/P"`);
    expectReported(h.spy, 'platform.getHeight', 'invalid_response');
  });

  it('error: the Health API path names what it expected there', async () => {
    srv.handle((_req, res) => sendHtml(res, 404, '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>'));
    const c = client();
    const err = await failure(c.healthGet('/ext/health', z.object({ healthy: z.boolean() })), HttpError);
    expect(err.message).toMatchInlineSnapshot(`"GET /ext/health: HTTP 404 with an HTML body ("404 Not Found"): this URL does not look like an avalanchego API; expected the Health API's JSON at /ext/health"`);
  });

  it('error: no content type and no title: recognised by the leading <, summarised without a title', async () => {
    srv.handle((_req, res) => sendHtml(res, 502, `\n  <html><body>${'Bad Gateway '.repeat(300)}</body></html>`, undefined));
    const c = client();
    const err = await failure(c.rpc('/ext/info', 'info.peers', {}, Anything), HttpError);
    expect(err.message).toMatchInlineSnapshot(`"info.peers: HTTP 502 with an HTML body: this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info"`);
    expect(err.body.length).toBeLessThanOrEqual(512);
  });

  it('error: a page that echoes the request (token in the title) never shows the credential', async () => {
    srv.handle((req, res) => sendHtml(res, 403, `<html><head><title>Forbidden: ${req.url}</title></head></html>`));
    const c = client({ url: `${srv.url}/?token=s3cr3t-t0ken-value` });
    const err = await failure(c.rpc('/ext/info', 'info.getNodeID', {}, Anything), HttpError);
    expect(err.message).not.toContain('s3cr3t-t0ken-value');
    expect(err.message).toMatchInlineSnapshot(`"info.getNodeID: HTTP 403 with an HTML body ("Forbidden: /ext/info?token=<redacted>"): this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info"`);
  });
});

describe('htmlSummary', () => {
  it('default: plain-text refusals of avalanchego itself are not HTML', () => {
    expect(htmlSummary('404 page not found\n', 'text/plain; charset=utf-8')).toBeUndefined();
    expect(htmlSummary('API call rejected because chain is not done bootstrapping\n')).toBeUndefined();
    expect(htmlSummary('{"jsonrpc":"2.0"}', 'application/json')).toBeUndefined();
  });
  it('default: one bounded line from the title (entities decoded, whitespace folded), else the first h1', () => {
    expect(htmlSummary('<title>\n  A &amp; B\t&lt;x&gt;\n</title>')).toBe('an HTML body ("A & B <x>")');
    expect(htmlSummary('<h1>Gateway Timeout</h1>', 'text/html')).toBe('an HTML body ("Gateway Timeout")');
    const long = htmlSummary(`<title>${'word '.repeat(100)}</title>`)!;
    expect(long.length).toBeLessThan(110);
    expect(long).toContain('…');
    expect(htmlSummary('plain words', 'TEXT/HTML; charset=utf-8')).toBe('an HTML body');
  });
});
