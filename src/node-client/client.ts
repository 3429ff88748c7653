import type { AnswerSchema } from './call.js';
import { InvalidResponseError, notAnApi, type NodeClientError } from './errors.js';
import { envelopeResult, parseJson, validate } from './json-answer.js';
import { NodeTransport, type TransportOptions } from './transport.js';

export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './transport.js';

export type NodeClientOptions = TransportOptions;

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

/**
 * JSON-RPC 2.0, Health API GET and text GET for one avalanchego node (transport.ts does the HTTP).
 * Every outcome is reported to `onRequest` and every failure is thrown as a NodeClientError.
 */
export class NodeClient {
  private readonly transport: NodeTransport;
  private nextId = 1;

  constructor(opts: NodeClientOptions) {
    this.transport = new NodeTransport(opts);
  }

  /** Calls `method` on `endpoint` (e.g. `/ext/info`) and validates `result` with `schema`. */
  async rpc<T>(endpoint: string, method: string, params: unknown, schema: AnswerSchema<T>, opts: CallOptions = {}): Promise<T> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} });
    const redact = (t: string) => this.transport.redact(t);
    return this.transport.request(method, { verb: 'POST', path: endpoint, body }, opts, (res) => {
      const context = { contentType: res.contentType, expected: `JSON-RPC at ${endpoint}` };
      if (res.status !== 200) throw this.transport.httpError(method, res.status, res.text, context);
      return validate(method, schema, envelopeResult(method, parseJson(method, res, redact, context), id, redact));
    });
  }

  /** GET on a Health API path; 200 and 503 both carry the JSON report. */
  async healthGet<T>(path: string, schema: AnswerSchema<T>, opts: CallOptions = {}): Promise<HealthGetResult<T>> {
    const method = `GET ${path}`;
    return this.transport.request(method, { verb: 'GET', path }, opts, (res) => {
      const context = { contentType: res.contentType, expected: `the Health API's JSON at ${path}` };
      if (res.status !== 200 && res.status !== 503) throw this.transport.httpError(method, res.status, res.text, context);
      let json: unknown;
      try {
        json = parseJson(method, res, (t) => this.transport.redact(t), context);
      } catch (err) {
        // A 503 with a plain-text body is a proxy or the chain-router refusing, not a health report.
        if (res.status === 503) throw this.transport.httpError(method, res.status, res.text, context);
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
    await this.transport.request(method, { verb: 'GET', path, sink }, opts, (res) => {
      const context = { contentType: res.contentType, expected: `Prometheus text at ${path}` };
      if (res.status !== 200) throw this.transport.httpError(method, res.status, res.text, context);
      if (res.html) throw new InvalidResponseError(method, `HTTP 200 with ${res.html}${notAnApi(context.expected)}`);
      // The caller's verdict on the whole body (e.g. not one sample line: not the text format).
      const problem = opts.check?.();
      if (problem !== undefined) throw new InvalidResponseError(method, problem);
    });
  }

  /** See NodeTransport.takeRestartHint. */
  takeRestartHint(): boolean {
    return this.transport.takeRestartHint();
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
