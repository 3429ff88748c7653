import { StringDecoder } from 'node:string_decoder';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  type BodyContext,
  HttpError,
  htmlSummary,
  notAnApi,
  InvalidResponseError,
  NetworkError,
  NodeClientError,
  ResponseTooLargeError,
  RpcError,
  SchemaError,
  TimeoutError,
  type RpcResult,
} from './errors.js';
import { deadline } from '../abort.js';
import { Semaphore } from '../semaphore.js';

export interface NodeClientOptions {
  /** Node base URL, e.g. http://127.0.0.1:9650; may carry userinfo, a path prefix and a query string. */
  url: string;
  /** Extra headers sent with every request (e.g. Authorization). Never logged. */
  headers?: Record<string, string>;
  /** Per-call deadline. */
  timeoutMs?: number;
  /** Cap on a response body. */
  maxResponseBytes?: number;
  /** Connections in the pool. */
  connections?: number;
  /** Called once per request with its outcome (feeds avax_rpc_requests_total and the histogram). */
  onRequest?: (method: string, result: RpcResult, seconds: number) => void;
  /**
   * Sends the requests instead of the client's own keep-alive Pool (the backtest answers them in
   * process, on a simulated clock); not closed by close().
   */
  dispatcher?: Dispatcher;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Recognises an error answer that the caller treats as a normal state of the node (index
   * disabled, not a validator, method absent on this version). The call still throws; it is
   * counted as `normal_state` instead of its error result, and as an answer for avax_up.
   */
  normal?: (err: NodeClientError) => boolean;
}

/** A GET answer of the Health API: 200 or 503, the JSON body parsed either way. */
export interface HealthGetResult<T> {
  status: number;
  body: T;
}

/** Recognises "the method or the API is not there" answers, for collectors that tolerate them. */
export function isNotFound(err: unknown): boolean {
  if (err instanceof HttpError) return err.status === 404;
  if (err instanceof RpcError) return /can't find (method|service)/.test(err.rpcMessage);
  return false;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * JSON-RPC 2.0 and Health GET client for one avalanchego node, over one undici Pool
 * (keep-alive across cycles, bounded connections). Every outcome is reported to `onRequest`
 * and every failure is thrown as a NodeClientError.
 */
export class NodeClient {
  private readonly pool: Dispatcher;
  private readonly ownPool: boolean;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly query: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly onRequest: NonNullable<NodeClientOptions['onRequest']>;
  /** Credential strings (URL password, query values, header values) cut out of any text a server sends back. */
  private readonly secrets: readonly string[];
  private nextId = 1;
  /** At most `connections` requests in flight (the pool's size): one slot per connection. */
  private readonly slots: Semaphore;
  /** The `Node-Id` header of the last answer (every avalanchego response carries it). */
  lastNodeIdHeader: string | undefined;

  constructor(opts: NodeClientOptions) {
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
    this.secrets = collectSecrets(u, headers);
    const connections = opts.connections ?? 4;
    this.slots = new Semaphore(connections);
    this.origin = u.origin;
    this.ownPool = !opts.dispatcher;
    this.pool =
      opts.dispatcher ??
      new Pool(u.origin, {
        connections,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connect: { timeout: this.timeoutMs },
      });
  }

  /** Calls `method` on `endpoint` (e.g. `/ext/info`) and validates `result` with `schema`. */
  async rpc<S extends z.ZodType>(endpoint: string, method: string, params: unknown, schema: S, opts: CallOptions = {}): Promise<z.output<S>> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} });
    return this.timed(method, opts, async (signal) => {
      const res = await this.send(method, 'POST', endpoint, body, signal);
      const context = { contentType: res.contentType, expected: `JSON-RPC at ${endpoint}` };
      if (res.status !== 200) throw this.httpError(method, res.status, res.text, context);
      const json = parseJson(method, res, (t) => this.redact(t), context);
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidResponseError(method, 'not a JSON-RPC object');
      const env = json as Record<string, unknown>;
      if (env['jsonrpc'] !== '2.0') throw new InvalidResponseError(method, 'jsonrpc is not "2.0"');
      const hasError = env['error'] !== undefined && env['error'] !== null;
      // JSON-RPC 2.0: an error answer carries "id": null when the request could not be read
      // (avalanchego's -32700 parse error does exactly that).
      const idOk = env['id'] === id || env['id'] === String(id) || (hasError && env['id'] === null);
      if (!idOk) throw new InvalidResponseError(method, `id mismatch (sent ${id})`);
      if (hasError) {
        const e = env['error'] as Record<string, unknown>;
        if (typeof e !== 'object' || typeof e['code'] !== 'number' || typeof e['message'] !== 'string') {
          throw new InvalidResponseError(method, 'malformed error object');
        }
        throw new RpcError(method, e['code'], this.redact(e['message']));
      }
      if (!('result' in env)) throw new InvalidResponseError(method, 'neither result nor error');
      return validate(method, schema, env['result']);
    });
  }

  /** GET on a Health API path; 200 and 503 both carry the JSON report. */
  async healthGet<S extends z.ZodType>(path: string, schema: S, opts: CallOptions = {}): Promise<HealthGetResult<z.output<S>>> {
    const method = `GET ${path}`;
    return this.timed(method, opts, async (signal) => {
      const res = await this.send(method, 'GET', path, undefined, signal);
      const context = { contentType: res.contentType, expected: `the Health API's JSON at ${path}` };
      if (res.status !== 200 && res.status !== 503) throw this.httpError(method, res.status, res.text, context);
      let json: unknown;
      try {
        json = parseJson(method, res, (t) => this.redact(t), context);
      } catch (err) {
        // A 503 with a plain-text body is a proxy or the chain-router refusing, not a health report.
        if (res.status === 503) throw this.httpError(method, res.status, res.text, context);
        throw err;
      }
      return { status: res.status, body: validate(method, schema, json) };
    });
  }

  /**
   * GET of a text body (the Prometheus exposition at /ext/metrics): on HTTP 200 each decoded piece of
   * the body goes to `sink` as it arrives (the body is never held whole), under the same deadline and
   * size cap as every call; any other status is an HttpError (a disabled metrics API answers 404), an
   * HTML page an InvalidResponseError, and so is a body `check` (called once it ended) finds a problem with.
   */
  async textGet(path: string, sink: (chunk: string) => void, opts: CallOptions & { check?: () => string | undefined } = {}): Promise<void> {
    const method = `GET ${path}`;
    await this.timed(method, opts, async (signal) => {
      const res = await this.send(method, 'GET', path, undefined, signal, sink);
      const context = { contentType: res.contentType, expected: `Prometheus text at ${path}` };
      if (res.status !== 200) throw this.httpError(method, res.status, res.text, context);
      if (res.html) throw new InvalidResponseError(method, `HTTP 200 with ${res.html}${notAnApi(context.expected)}`);
      // The caller's verdict on the whole body (e.g. not one sample line: not the text format).
      const problem = opts.check?.();
      if (problem !== undefined) throw new InvalidResponseError(method, problem);
    });
  }

  async close(): Promise<void> {
    if (this.ownPool) await this.pool.close().catch(() => {});
  }

  /** A server (or a proxy) may echo the request back: credentials never reach an error message. */
  private redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join('***');
    return out;
  }

  private httpError(method: string, status: number, text: string, context: BodyContext): HttpError {
    // The first 64 KiB are looked at for an HTML <title>; the error keeps 512 bytes of the body.
    const html = htmlSummary(this.redact(text.slice(0, 64 * 1024)), context.contentType);
    return new HttpError(method, status, this.redact(text).slice(0, 512), { ...context, html });
  }

  private async timed<T>(method: string, opts: CallOptions, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
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
      value = await fn(limit.signal);
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

  private report(method: string, result: RpcResult, started: number): void {
    try {
      this.onRequest(method, result, (performance.now() - started) / 1000);
    } catch {
      // Metrics bookkeeping must not change the outcome of a call.
    }
  }

  /** With `sink`, a 200 body that is not HTML streams to it instead of being kept (`text` is then ''). */
  private async send(method: string, verb: 'GET' | 'POST', path: string, body: string | undefined, signal: AbortSignal, sink?: (chunk: string) => void) {
    const headers: Record<string, string> = { ...this.headers };
    if (verb === 'POST') headers['content-type'] = 'application/json';
    // The text format (0.0.4) for a streamed body: promhttp would otherwise pick it by default anyway.
    headers['accept'] = sink ? 'text/plain;version=0.0.4' : 'application/json';
    const res = await this.pool.request({ origin: this.origin, method: verb, path: joinPath(this.basePath, path, this.query), headers, body, signal });
    // Destroying the body (too large, deadline) makes undici emit 'error' on it; without a
    // listener that would be an uncaught exception.
    res.body.on('error', () => {});
    const nodeId = res.headers['node-id'];
    if (typeof nodeId === 'string') this.lastNodeIdHeader = nodeId;
    const declared = res.headers['content-length'] === undefined ? NaN : Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      res.body.destroy();
      throw new ResponseTooLargeError(method, this.maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const typeHeader = res.headers['content-type'];
    const contentType = Array.isArray(typeHeader) ? typeHeader[0] : typeHeader;
    const decoder = sink && res.statusCode === 200 && !/^\s*text\/html\b/i.test(contentType ?? '') ? new StringDecoder('utf8') : undefined;
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
    // this wait, strictly sequential calls would alternate between two connections of the pool.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const text = decoder ? '' : Buffer.concat(chunks).toString('utf8');
    const html = sink && res.statusCode === 200 && !decoder ? htmlSummary(this.redact(text.slice(0, 64 * 1024)), contentType) ?? 'an HTML body' : undefined;
    return { status: res.statusCode, contentType, text, html };
  }
}

function isNormal(opts: CallOptions, err: NodeClientError): boolean {
  try {
    return opts.normal?.(err) ?? false;
  } catch {
    return false;
  }
}

/** Shorter strings are not redacted: they would mangle ordinary text and protect little. */
const MIN_SECRET_LENGTH = 4;

function collectSecrets(u: URL, headers: Record<string, string>): string[] {
  const found = new Set<string>();
  const add = (s: string | undefined) => {
    if (s !== undefined && s.length >= MIN_SECRET_LENGTH) found.add(s);
  };
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  add(u.password);
  add(decode(u.password));
  for (const part of u.search.slice(1).split('&')) {
    const raw = part.slice(part.indexOf('=') + 1);
    if (part.includes('=')) {
      add(raw);
      add(decode(raw.replace(/\+/g, ' ')));
    }
  }
  for (const v of Object.values(headers)) {
    add(v);
    // `Bearer <token>`, `Basic <base64>`: the credential alone, as a server may echo it.
    const space = v.indexOf(' ');
    if (space > 0) add(v.slice(space + 1).trim());
  }
  // Longest first, so that a secret containing another one is cut out whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** basePath + path, with the node URL's query string merged into a query the path may carry. */
function joinPath(basePath: string, path: string, query: string): string {
  if (!query) return basePath + path;
  return basePath + path + (path.includes('?') ? `&${query.slice(1)}` : query);
}

function parseJson(method: string, res: { status: number; text: string; contentType?: string }, redact: (s: string) => string, context: BodyContext): unknown {
  const text = res.text;
  if (text.trim() === '') throw new InvalidResponseError(method, 'empty body');
  try {
    return JSON.parse(text);
  } catch (cause) {
    // V8 quotes a piece of the body in the SyntaxError message.
    const msg = cause instanceof Error ? cause.message : String(cause);
    const clean = redact(msg);
    // An HTML page where JSON was expected: a web server or proxy answers at this URL, not avalanchego.
    const html = htmlSummary(redact(text.slice(0, 64 * 1024)), context.contentType);
    const reason = html ? `HTTP ${res.status} with ${html} instead of JSON${notAnApi(context.expected)}` : 'body is not JSON';
    throw new InvalidResponseError(method, reason, { cause: clean === msg ? cause : new SyntaxError(clean) });
  }
}

function validate<S extends z.ZodType>(method: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new SchemaError(method, issues, { cause: parsed.error });
  }
  return parsed.data;
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
