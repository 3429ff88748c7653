// An undici Dispatcher that answers every request of the exporter in process: no socket is opened.
// The exporter's NodeClient calls `request()` on it like on a Pool; `dispatch` hands the request to
// a function of (origin, method, path, headers, body) and plays the answer back through undici's
// handler (headers, one body chunk, end), or fails it with the error code a socket would have given
// (connection refused, headers timeout). A request whose origin no function knows is refused.
import { Dispatcher } from 'undici';

export interface InProcessRequest {
  readonly origin: string;
  readonly method: string;
  /** path and query, as the client sent them */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export type InProcessResult =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  | { readonly kind: 'error'; readonly code: string };

/** The legacy handler interface undici's request() passes to dispatch (api-request.js). */
interface LegacyHandler {
  onConnect?(abort: (err?: Error) => void, context: unknown): void;
  onHeaders?(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void;
  onData?(chunk: Buffer): boolean | void;
  onComplete?(trailers: Buffer[]): void;
  onError?(err: Error): void;
}

const MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'connect ECONNREFUSED (in-process simulated node is down)',
  ECONNRESET: 'socket hang up (in-process)',
  UND_ERR_HEADERS_TIMEOUT: 'Headers Timeout Error (in-process simulated node too slow)',
};

function headerObject(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
  } else if (h && typeof h === 'object') {
    for (const [k, v] of Object.entries(h as Record<string, unknown>)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  }
  return out;
}

function bodyText(b: unknown): string {
  if (b === undefined || b === null) return '';
  if (typeof b === 'string') return b;
  if (Buffer.isBuffer(b) || b instanceof Uint8Array) return Buffer.from(b).toString('utf8');
  throw new TypeError('the in-process dispatcher takes string or Buffer bodies only');
}

export class InProcessDispatcher extends Dispatcher {
  private closed = false;
  /** requests answered, failed (for the report and the tests) */
  readonly counts = { answered: 0, failed: 0 };

  constructor(private readonly serve: (req: InProcessRequest) => InProcessResult) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const h = handler as unknown as LegacyHandler;
    let aborted = false;
    h.onConnect?.((err?: Error) => {
      if (aborted) return;
      aborted = true;
      h.onError?.(err ?? new Error('aborted'));
    }, null);
    if (aborted) return true;
    let result: InProcessResult;
    try {
      result = this.closed
        ? { kind: 'error', code: 'ECONNREFUSED' }
        : this.serve({ origin: String(opts.origin ?? ''), method: opts.method, path: opts.path, headers: headerObject(opts.headers), body: bodyText(opts.body) });
    } catch (e) {
      // A simulator bug is not a node answer: it must surface, not turn into a failed request.
      aborted = true;
      h.onError?.(e instanceof Error ? e : new Error(String(e)));
      throw e;
    }
    if (result.kind === 'error') {
      this.counts.failed++;
      aborted = true;
      h.onError?.(Object.assign(new Error(MESSAGES[result.code] ?? result.code), { code: result.code }));
      return true;
    }
    this.counts.answered++;
    const body = Buffer.from(result.body, 'utf8');
    const raw: Buffer[] = [];
    for (const [k, v] of Object.entries({ ...result.headers, 'content-length': String(body.length) })) raw.push(Buffer.from(k), Buffer.from(v));
    h.onHeaders?.(result.status, raw, () => {}, '');
    if (aborted) return true;
    if (body.length > 0) h.onData?.(body);
    if (!aborted) h.onComplete?.([]);
    return true;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: unknown, b?: unknown): Promise<void> | void {
    this.closed = true;
    const cb = typeof a === 'function' ? a : typeof b === 'function' ? b : undefined;
    if (cb) return void queueMicrotask(cb as () => void);
    return Promise.resolve();
  }
}
