import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { RenderedExposition } from '../metrics/exposition.js';
import { landingPage } from './landing.js';
import type { TargetView } from './target-view.js';
import { WebConfigWatcher, clientAuthOptions, type WebConfig } from './web-config.js';

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface ServerDeps {
  telemetryPath: string;
  version: string;
  maxConcurrentScrapes: number;
  logger: Logger;
  /** The exposition a /metrics scrape gets (the publisher decides whether it waits for a render). */
  exposition(): RenderedExposition | Promise<RenderedExposition>;
  /**
   * One target's snapshot, or undefined for a name that is not configured. A promise where the answer
   * comes from another thread (the serving thread asks the main thread: src/server/serving-thread.ts).
   */
  probe(target: string): RenderedExposition | undefined | Promise<RenderedExposition | undefined>;
  /** For a configured name another replica collects (--shard.*): why this one does not have it. */
  otherShard?(target: string): string | undefined | Promise<string | undefined>;
  targets(): TargetView[] | Promise<TargetView[]>;
  /** POST /-/reload, when enabled. */
  reload?: () => Promise<void>;
  /** --web.config.file (exporter-toolkit format): TLS, basic auth, extra response headers. */
  webConfigFile?: string;
  /** Overrides of DEFAULT_LIMITS (tests use short timeouts). */
  limits?: Partial<ServerLimits>;
}

export interface ServerLimits {
  /** Whole request (headers and body) must arrive within this time; 408 otherwise. */
  requestTimeoutMs: number;
  /** Headers must arrive within this time (slow clients are cut off with 408). */
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Largest request head (request line and headers); larger gets 431. */
  maxHeaderSize: number;
  maxHeadersCount: number;
  /** How often Node checks the two timeouts above. */
  connectionsCheckingIntervalMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
  maxHeaderSize: 16 * 1024,
  maxHeadersCount: 100,
  connectionsCheckingIntervalMs: 1_000,
};

export const AUTH_REALM = 'avalanche-exporter';

/**
 * node:http server: GET/HEAD on the telemetry path, `/` landing page, `/healthz`, `/probe?target=`.
 * It only serves bytes rendered by the collection cycle; a scrape never calls a node.
 */
export function createExporterServer(deps: ServerDeps): Server {
  let inFlight = 0;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const web = deps.webConfigFile ? new WebConfigWatcher(deps.webConfigFile, deps.logger) : undefined;
  if (web?.authEnabled && !web.current.tls) deps.logger.warn({ event: 'basic_auth_without_tls' }, 'basic_auth_users without tls_server_config: passwords cross the network in clear text');

  const failed = (res: ServerResponse, err: unknown) => {
    deps.logger.error({ err: String(err) }, 'request handler failed');
    if (res.destroyed) return;
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('internal error\n');
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const fail = (err: unknown) => failed(res, err);
    try {
      if (web) {
        web.refresh();
        for (const [k, v] of Object.entries(web.current.headers)) res.setHeader(k, v);
        // /healthz stays open for liveness probes (it answers "OK" and nothing else).
        const path = (req.url ?? '/').split('?')[0];
        if (web.authEnabled && path !== '/healthz') {
          web.authorize(req.headers.authorization).then((ok) => {
            if (!ok) return text(res, 401, 'unauthorized\n', { 'www-authenticate': `Basic realm="${AUTH_REALM}", charset="UTF-8"` });
            handle(req, res);
          }).catch(fail);
          return;
        }
      }
      handle(req, res);
    } catch (err) {
      fail(err);
    }
  };

  const httpOptions: ServerOptions = {
    maxHeaderSize: limits.maxHeaderSize,
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
  };
  const tls = web?.current.tls;
  let server: Server;
  if (web && tls) {
    const https = createHttpsServer({ ...httpOptions, ...tls.context, ...clientAuthOptions(tls.clientAuthType) }, listener);
    const apply = (cfg: WebConfig) => {
      if (!cfg.tls) return;
      https.setSecureContext(cfg.tls.context);
      Object.assign(https, clientAuthOptions(cfg.tls.clientAuthType));
    };
    web.onChange(apply);
    // Before the TLS socket is made (it takes the server's current context): a renewed
    // certificate is served on the next new connection.
    https.prependListener('connection', () => web.refresh());
    https.on('secureConnection', (sock: TLSSocket) => {
      const type = web.current.tls?.clientAuthType ?? 'NoClientCert';
      const cert = sock.getPeerCertificate();
      const hasCert = !!cert && Object.keys(cert).length > 0;
      if ((type === 'RequireAnyClientCert' && !hasCert) || (type === 'VerifyClientCertIfGiven' && hasCert && !sock.authorized)) {
        deps.logger.debug({ event: 'tls_client_rejected', reason: hasCert ? 'certificate not verified' : 'no client certificate' }, 'TLS client rejected');
        sock.destroy();
      }
    });
    https.on('tlsClientError', (err: NodeJS.ErrnoException) => deps.logger.debug({ event: 'tls_client_error', code: err.code }, 'TLS handshake failed'));
    server = https as unknown as Server;
  } else {
    server = createServer(httpOptions, listener);
  }
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxHeadersCount = limits.maxHeadersCount;

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
    if (path === '/') {
      const page = (targets: TargetView[]) => html(res, landingPage({ version: deps.version, telemetryPath: deps.telemetryPath, targets, nowMs: Date.now() }));
      const targets = deps.targets();
      if (targets instanceof Promise) targets.then(page, (err: unknown) => failed(res, err));
      else page(targets);
      return;
    }
    if (path !== '/probe') return serve(req, res, deps.exposition());
    const name = url.searchParams.get('target');
    if (!name) return text(res, 400, 'missing ?target=NAME (a configured target name)\n');
    const found = deps.probe(name);
    if (!(found instanceof Promise)) return found ? serve(req, res, found) : unknownTarget(res, name);
    found.then(
      (snap) => (snap ? serve(req, res, snap) : unknownTarget(res, name)),
      (err: unknown) => failed(res, err),
    );
  }

  function unknownTarget(res: ServerResponse, name: string): void {
    // Echo the name only when it looks like a target name: a URL (perhaps with credentials) is not repeated.
    const shown = /^[A-Za-z0-9._:\-]{1,64}$/.test(name) ? ` ${JSON.stringify(name)}` : '';
    const answer = (elsewhere: string | undefined) => {
      if (res.destroyed) return;
      if (elsewhere) return text(res, 404, `target${shown}: ${elsewhere}\n`);
      text(res, 400, `unknown target${shown}; only configured target names are accepted (never URLs)\n`);
    };
    const elsewhere = deps.otherShard?.(name);
    if (elsewhere instanceof Promise) elsewhere.then(answer, (err: unknown) => failed(res, err));
    else answer(elsewhere);
  }

  function serve(req: IncomingMessage, res: ServerResponse, snap: RenderedExposition | Promise<RenderedExposition>): void {
    if (res.destroyed) return;
    if (inFlight >= deps.maxConcurrentScrapes) return text(res, 503, 'too many concurrent scrapes\n', { 'retry-after': '1' });
    inFlight++;
    res.on('close', () => inFlight--);
    if (!(snap instanceof Promise)) return send(req, res, snap);
    snap.then(
      (r) => send(req, res, r),
      (err: unknown) => {
        deps.logger.error({ err: String(err) }, 'render failed');
        if (!res.headersSent && !res.destroyed) text(res, 500, 'internal error: render failed\n');
      },
    );
  }

  function send(req: IncomingMessage, res: ServerResponse, snap: RenderedExposition): void {
    if (res.destroyed) return;
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
