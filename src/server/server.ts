import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RenderedExposition } from '../metrics/exposition.js';
import type { CollectorStatus } from '../scheduler/target-runner.js';
import { landingPage } from './landing.js';

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface TargetView {
  name: string;
  url: string; // already redacted
  reference: boolean;
  up: number | undefined;
  collectors: CollectorStatus[];
}

export interface ServerDeps {
  telemetryPath: string;
  version: string;
  maxConcurrentScrapes: number;
  logger: Logger;
  /** The current snapshot's bytes. */
  exposition(): RenderedExposition;
  /** One target's snapshot, or undefined for a name that is not configured. */
  probe(target: string): RenderedExposition | undefined;
  targets(): TargetView[];
  /** POST /-/reload, when enabled. */
  reload?: () => Promise<void>;
}

/**
 * node:http server: GET/HEAD on the telemetry path, `/` landing page, `/healthz`, `/probe?target=`.
 * It only serves bytes rendered by the collection cycle; a scrape never calls a node.
 */
export function createExporterServer(deps: ServerDeps): Server {
  let inFlight = 0;
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      deps.logger.error({ err: String(err) }, 'request handler failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    }
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 65_000;
  server.maxHeadersCount = 100;

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const isData = path === deps.telemetryPath || path === '/probe';
    const known = isData || path === '/' || path === '/healthz' || (path === '/-/reload' && !!deps.reload);
    if (!known) return text(res, 404, 'not found\n');
    if (path === '/-/reload') {
      if (req.method !== 'POST') return text(res, 405, 'method not allowed; use POST\n', { allow: 'POST' });
      deps.reload!().then(
        () => text(res, 200, 'reloaded\n'),
        (err: Error) => text(res, 400, `reload failed: ${err.message}\n`),
      );
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'method not allowed; use GET or HEAD\n', { allow: 'GET, HEAD' });
    if (path === '/healthz') return text(res, 200, 'OK\n');
    if (path === '/') return html(res, landingPage({ version: deps.version, telemetryPath: deps.telemetryPath, targets: deps.targets() }));

    let snap: RenderedExposition | undefined;
    if (path === '/probe') {
      const name = url.searchParams.get('target');
      if (!name) return text(res, 400, 'missing ?target=NAME (a configured target name)\n');
      snap = deps.probe(name);
      if (!snap) return text(res, 400, `unknown target ${JSON.stringify(name.slice(0, 64))}; only configured target names are accepted\n`);
    } else {
      snap = deps.exposition();
    }
    if (inFlight >= deps.maxConcurrentScrapes) return text(res, 503, 'too many concurrent scrapes\n', { 'retry-after': '1' });
    inFlight++;
    res.on('close', () => inFlight--);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? snap.gzip() : snap.text;
    const headers: Record<string, string | number> = { 'content-type': EXPOSITION_CONTENT_TYPE, 'content-length': body.length, 'cache-control': 'no-store' };
    if (gzip) headers['content-encoding'] = 'gzip';
    headers['vary'] = 'Accept-Encoding';
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }

  return server;
}

function text(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
