/**
 * The node client's error family. Every failed call ends in exactly one of these, and its
 * `result` is the value of the `result` label of avax_rpc_requests_total.
 *
 * `normal_state` is not an error class: it is the result recorded for an error answer that the
 * calling collector declared a normal state of the node (CallOptions.normal): an index that is
 * disabled (HTTP 404) or empty, info.uptime on a node that is not a validator, a method that an
 * older node does not have. So `rpc_error`, `http_error` and `invalid_response` always mean that
 * something went wrong.
 */
export type RpcResult = 'ok' | 'normal_state' | 'rpc_error' | 'http_error' | 'timeout' | 'network_error' | 'invalid_response';

export const RPC_RESULTS: readonly RpcResult[] = ['ok', 'normal_state', 'rpc_error', 'http_error', 'timeout', 'network_error', 'invalid_response'];

export abstract class NodeClientError extends Error {
  abstract readonly result: Exclude<RpcResult, 'ok' | 'normal_state'>;
  /** The method (JSON-RPC method or `GET <path>`) that failed. */
  readonly method: string;
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super(`${method}: ${message}`, options);
    this.method = method;
  }
  override get name(): string {
    return this.constructor.name;
  }
}

/** A JSON-RPC error object (real nodes send it with HTTP 200, mostly code -32000). */
export class RpcError extends NodeClientError {
  readonly result = 'rpc_error' as const;
  constructor(method: string, readonly code: number, readonly rpcMessage: string) {
    super(method, `JSON-RPC error ${code}: ${truncate(rpcMessage, 300)}`);
  }
}

/**
 * A non-2xx HTTP status with a non-JSON-RPC body (404 of a disabled API, 403, 405, 415, 503, 5xx).
 * avalanchego's own refusals are short plain text and are quoted; an HTML page (a web server or a
 * reverse proxy's error page at that URL) is summarised instead: what came, and what was expected.
 */
export class HttpError extends NodeClientError {
  readonly result = 'http_error' as const;
  constructor(method: string, readonly status: number, readonly body: string, context: BodyContext = {}) {
    const html = context.html ?? htmlSummary(body, context.contentType);
    super(method, html ? `HTTP ${status} with ${html}${notAnApi(context.expected)}` : `HTTP ${status}${body ? `: ${truncate(body.trim(), 200)}` : ''}`);
  }
}

/** What the client knows about an answer besides its body. */
export interface BodyContext {
  /** Content-Type of the answer. */
  contentType?: string;
  /** What was expected there, e.g. `JSON-RPC at /ext/info`. */
  expected?: string;
  /** htmlSummary of the whole body, when the kept `body` is only its start. */
  html?: string;
}

/** `: this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info` */
export function notAnApi(expected?: string): string {
  return `: this URL does not look like an avalanchego API${expected ? `; expected ${expected}` : ''}`;
}

/**
 * `an HTML body ("502 Bad Gateway")` when the body is an HTML page (Content-Type text/html or a body
 * starting with `<`), else undefined. Only the page's <title> (or first <h1>) is kept: one short line.
 */
export function htmlSummary(body: string, contentType?: string): string | undefined {
  const isHtml = /^\s*text\/html\b/i.test(contentType ?? '') || /^\s*</.test(body);
  if (!isHtml) return undefined;
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(body) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(body);
  const title = m
    ? m[1]!
        .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_e, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[n]!)
        .replace(/[\u0000-\u001f\u007f]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  return `an HTML body${title ? ` (${JSON.stringify(truncate(title, 80))})` : ''}`;
}

export class TimeoutError extends NodeClientError {
  readonly result = 'timeout' as const;
  constructor(method: string, readonly timeoutMs: number, options?: { cause?: unknown }) {
    super(method, `no complete answer within ${timeoutMs} ms`, options);
  }
}

export class NetworkError extends NodeClientError {
  readonly result = 'network_error' as const;
  constructor(method: string, readonly code: string, options?: { cause?: unknown }) {
    // The cause's own words (`other side closed`, `connect ECONNREFUSED 127.0.0.1:9650`) say more than
    // the code alone; undici never sees the URL's userinfo, path or query, so no credential is in them.
    const c = options?.cause;
    const detail = c instanceof Error && c.message && c.message !== code ? `: ${truncate(c.message, 200)}` : '';
    super(method, `network error ${code}${detail}`, options);
  }
}

/** Any answer we cannot use: not JSON, wrong envelope, id mismatch, empty body. */
export class InvalidResponseError extends NodeClientError {
  readonly result = 'invalid_response' as const;
  constructor(method: string, reason: string, options?: { cause?: unknown }) {
    super(method, `invalid response: ${reason}`, options);
  }
}

/** The body was valid JSON-RPC but its `result` does not match the schema. */
export class SchemaError extends InvalidResponseError {
  constructor(method: string, readonly issues: string, options?: { cause?: unknown }) {
    super(method, `schema mismatch: ${truncate(issues, 400)}`, options);
  }
}

export class ResponseTooLargeError extends InvalidResponseError {
  constructor(method: string, readonly limitBytes: number) {
    super(method, `body larger than ${limitBytes} bytes`);
  }
}

export function truncate(s: string, max: number): string {
  // Keep messages on one line and bounded: node bodies are untrusted.
  const one = s.replace(/[\r\n]+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
}
