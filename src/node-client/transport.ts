import type { Dispatcher } from 'undici';
import { Pool, errors as undiciErrors } from './undici-pool.js';
import { deadline } from '../abort.js';
import { answerTurn } from './answer-turns.js';
import { BodyTextDecoder, bodyText } from './body-text.js';
import { Redactor } from '../redact.js';
import { Semaphore } from '../semaphore.js';
import {
  type BodyContext,
  HttpError,
  htmlSummary,
  InvalidResponseError,
  NetworkError,
  NodeClientError,
  ResponseTooLargeError,
  TimeoutError,
  type RpcResult,
} from './errors.js';

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export interface TransportOptions {
  /** Node base URL, e.g. http://127.0.0.1:9650; may carry userinfo, a path prefix and a query string. */
  url: string;
  /** Extra headers sent with every request (e.g. Authorization). Never logged. */
  headers?: Record<string, string>;
  /** Per-request deadline. */
  timeoutMs?: number;
  /** Cap on a response body. */
  maxResponseBytes?: number;
  /** Connections in the pool. */
  connections?: number;
  /** Called once per request with its outcome (feeds avax_rpc_requests_total and the histogram). */
  onRequest?: (method: string, result: RpcResult, seconds: number) => void;
  /**
   * Sends the requests instead of the transport's own keep-alive Pool (the backtest answers them in
   * process, on a simulated clock); not closed by close().
   */
  dispatcher?: Dispatcher;
}

/** What one exchange brought back. */
export interface Exchange {
  status: number;
  contentType?: string;
  /** The body ('' when it was streamed to a sink); made from `chunks` when first read. */
  readonly text: string;
  /** The body as it came, when it was not streamed (json-in-pieces.ts parses a big one from them). */
  readonly chunks?: readonly Buffer[];
  /** An HTML page where text was streamed for (a web server or proxy answers at that URL). */
  html?: string;
}

export interface ExchangeOptions {
  signal?: AbortSignal;
  /** Recognises an error the caller treats as a normal state of the node: counted `normal_state`. */
  normal?: (err: NodeClientError) => boolean;
}

/**
 * HTTP to one avalanchego node over undici: the keep-alive Pool (bounded connections; a node that
 * closes every one of them is a restart hint), the URL's path prefix, query and userinfo, the
 * deadline, the size cap, streaming to a sink, the error family, the redaction of anything a server
 * sends back, and one `onRequest` report per request.
 */
export class NodeTransport {
  private readonly pool: Dispatcher;
  private readonly ownPool: boolean;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly query: string;
  private readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly onRequest: NonNullable<TransportOptions['onRequest']>;
  private readonly redactor: Redactor;
  /** At most `connections` requests in flight (the pool's size): one slot per connection. */
  private readonly slots: Semaphore;
  private closing = false;
  /** Connections of the own pool open now, and whether the node closed all of them since the last look. */
  private openConnections = 0;
  private allClosedByNode = false;

  constructor(opts: TransportOptions) {
    const u = new URL(opts.url);
    this.basePath = u.pathname.replace(/\/+$/, '');
    this.query = u.search;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.onRequest = opts.onRequest ?? (() => {});
    const headers: Record<string, string> = {};
    if (u.username || u.password) {
      const user = decodeURIComponent(u.username);
      const pass = decodeURIComponent(u.password);
      headers['authorization'] = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    }
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
    this.headers = headers;
    this.redactor = new Redactor(opts.url, headers);
    const connections = opts.connections ?? 4;
    this.slots = new Semaphore(connections);
    this.origin = u.origin;
    this.ownPool = !opts.dispatcher;
    if (opts.dispatcher) this.pool = opts.dispatcher;
    else {
      const pool = new Pool(u.origin, {
        connections,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connect: { timeout: this.timeoutMs },
      });
      // A node that restarts closes every connection at once; idle timeouts close them one at a time.
      pool.on('connect', () => this.openConnections++);
      pool.on('disconnect', (_origin, _targets, err) => {
        this.openConnections = Math.max(0, this.openConnections - 1);
        if (this.openConnections === 0 && !this.closing && isClosedByPeer(err)) this.allClosedByNode = true;
      });
      this.pool = pool;
    }
  }

  /** A server (or a proxy) may echo the request back: credentials never reach an error message. */
  redact(text: string): string {
    return this.redactor.scrub(text);
  }

  httpError(method: string, status: number, text: string, context: BodyContext): HttpError {
    // The first 64 KiB are looked at for an HTML <title>; the error keeps 512 bytes of the body.
    // Summarised first, then redacted: the mark of a cut credential must not end an HTML title.
    const summary = htmlSummary(text.slice(0, 64 * 1024), context.contentType);
    const html = summary === undefined ? undefined : this.redact(summary);
    return new HttpError(method, status, this.redact(text).slice(0, 512), { ...context, html });
  }

  /**
   * One request under the deadline, reported once: `read` turns the exchange into the caller's value
   * or throws a NodeClientError. With `sink`, a 200 body that is not HTML streams to it.
   */
  async request<T>(
    method: string,
    req: { verb: 'GET' | 'POST'; path: string; body?: string; sink?: (chunk: string) => void },
    opts: ExchangeOptions,
    read: (res: Exchange) => T,
  ): Promise<T> {
    const outer = opts.signal;
    // The per-request deadline starts when a connection is free: calls queued behind requests that
    // hang (one collector's API stalling) wait under the caller's signal only, instead of expiring
    // in the queue and failing every other collector with them.
    try {
      await this.slots.acquire(outer);
    } catch (raw) {
      const err = new TimeoutError(method, this.timeoutMs, { cause: raw });
      this.report(method, err.result, performance.now());
      throw err;
    }
    const started = performance.now();
    const limit = deadline(this.timeoutMs, outer);
    let value: T;
    try {
      value = read(await this.send(method, req, limit.signal));
    } catch (raw) {
      const err = classify(method, raw, this.timeoutMs, limit.expired(), outer);
      this.report(method, isNormal(opts, err) ? 'normal_state' : err.result, started);
      throw err;
    } finally {
      limit.dispose();
      this.slots.release();
    }
    // Outside the try: a throwing callback must neither turn a success into a failure nor be reported twice.
    this.report(method, 'ok', started);
    return value;
  }

  /**
   * True once after the node closed every open connection of the pool (what a node restart does;
   * idle timeouts close them one by one, and a request keeps one open): a hint that the node
   * restarted, which the runner checks with the collectors that identify the node's process.
   */
  takeRestartHint(): boolean {
    const hint = this.allClosedByNode;
    this.allClosedByNode = false;
    return hint;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.ownPool) await this.pool.close().catch(() => {});
  }

  private report(method: string, result: RpcResult, started: number): void {
    try {
      this.onRequest(method, result, (performance.now() - started) / 1000);
    } catch {
      // Metrics bookkeeping must not change the outcome of a call.
    }
  }

  private async send(method: string, req: { verb: 'GET' | 'POST'; path: string; body?: string; sink?: (chunk: string) => void }, signal: AbortSignal): Promise<Exchange> {
    const { verb, sink } = req;
    const headers: Record<string, string> = { ...this.headers };
    if (verb === 'POST') headers['content-type'] = 'application/json';
    // The text format (0.0.4) for a streamed body: promhttp would otherwise pick it by default anyway.
    headers['accept'] = sink ? 'text/plain;version=0.0.4' : 'application/json';
    const res = await this.pool.request({ origin: this.origin, method: verb, path: joinPath(this.basePath, req.path, this.query), headers, body: req.body, signal });
    // Destroying the body (too large, deadline) makes undici emit 'error' on it; without a
    // listener that would be an uncaught exception.
    res.body.on('error', () => {});
    const declared = res.headers['content-length'] === undefined ? NaN : Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      res.body.destroy();
      throw new ResponseTooLargeError(method, this.maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const typeHeader = res.headers['content-type'];
    const contentType = Array.isArray(typeHeader) ? typeHeader[0] : typeHeader;
    const decoder = sink && res.statusCode === 200 && !/^\s*text\/html\b/i.test(contentType ?? '') ? new BodyTextDecoder() : undefined;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.maxBytes) {
          res.body.destroy();
          throw new ResponseTooLargeError(method, this.maxBytes);
        }
        if (decoder) sink!(decoder.write(chunk));
        else chunks.push(chunk);
      }
      if (decoder) sink!(decoder.end());
    } catch (err) {
      // The headers promised more than the connection delivered: an unusable answer, not a network
      // failure, whether the server closed a keep-alive connection or sent `Connection: close`.
      if (!(err instanceof NodeClientError) && !signal.aborted && !isTimeout(err) && Number.isFinite(declared) && size < declared) {
        throw new InvalidResponseError(method, `truncated body (${size} of ${declared} bytes)`, { cause: err });
      }
      throw err;
    }
    // undici frees the socket for the next request one event-loop turn after the body ends; without
    // this wait, strictly sequential calls would alternate between two connections of the pool. One answer
    // goes on per turn (answer-turns.ts): a scrape is read between two answers' decoding.
    await answerTurn();
    if (decoder) return { status: res.statusCode, contentType, text: '' };
    const exchange = new BufferedExchange(res.statusCode, contentType, chunks);
    // An HTML page where text was streamed for (a web server or proxy at that URL).
    if (sink && res.statusCode === 200) exchange.html = this.redact(htmlSummary(exchange.text.slice(0, 64 * 1024), contentType) ?? 'an HTML body');
    return exchange;
  }
}

/** An answer read whole: its text is made from its chunks only when something reads it (a big JSON answer is parsed from the chunks, json-in-pieces.ts). */
class BufferedExchange implements Exchange {
  html?: string;
  private decoded: string | undefined;

  constructor(
    readonly status: number,
    readonly contentType: string | undefined,
    readonly chunks: readonly Buffer[],
  ) {}

  get text(): string {
    return (this.decoded ??= bodyText(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)));
  }
}

/** The other side closed the socket (not our own close, not a failed connect). */
function isClosedByPeer(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return e?.code === 'UND_ERR_SOCKET' || /other side closed/i.test(e?.message ?? '');
}

function isNormal(opts: ExchangeOptions, err: NodeClientError): boolean {
  try {
    return opts.normal?.(err) ?? false;
  } catch {
    return false;
  }
}

/** basePath + path, with the node URL's query string merged into a query the path may carry. */
function joinPath(basePath: string, path: string, query: string): string {
  if (!query) return basePath + path;
  return basePath + path + (path.includes('?') ? `&${query.slice(1)}` : query);
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function isTimeout(raw: unknown): boolean {
  const err = raw as { code?: string; name?: string; cause?: { code?: string } } | undefined;
  return TIMEOUT_CODES.has(err?.code ?? err?.cause?.code ?? '') || err?.name === 'TimeoutError';
}

function classify(method: string, raw: unknown, timeoutMs: number, deadlineExpired: boolean, outer?: AbortSignal): NodeClientError {
  if (raw instanceof NodeClientError) return raw;
  const err = raw as { code?: string; name?: string; cause?: { code?: string } } | undefined;
  const code = err?.code ?? err?.cause?.code ?? '';
  if (deadlineExpired || TIMEOUT_CODES.has(code) || err?.name === 'TimeoutError') return new TimeoutError(method, timeoutMs, { cause: raw });
  if (outer?.aborted) return new TimeoutError(method, timeoutMs, { cause: outer.reason ?? raw });
  if (raw instanceof undiciErrors.ResponseContentLengthMismatchError || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new InvalidResponseError(method, 'truncated body', { cause: raw });
  }
  return new NetworkError(method, code || (err?.name ?? 'unknown'), { cause: raw });
}
