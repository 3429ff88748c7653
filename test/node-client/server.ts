/**
 * The node client tests' kit: answers like avalanchego's (JSON-RPC bodies, plain-text refusals, the
 * Node-Id header) written by handlers of the shared test server (test/helpers/http-server.ts), clients
 * closed after each test, the onRequest spy, and `useServer()`: one server per test file, reset and its
 * clients closed after each test. Not a test file itself.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { HttpError, isNotFound, NodeClient, NodeClientError, type NodeClientOptions, type RpcResult } from '../../src/node-client/index.js';
import { OTHER } from '../fixtures/ids.js';
import { testServer, withTimeout, type TestServer } from '../helpers/http-server.js';

/** The Node-Id the answers carry (the real v1.14.2 node's). */
export const NODE_ID = OTHER;

/** Answers like avalanchego's JSON-RPC layer: HTTP 200, application/json; charset=utf-8, trailing \n, Node-Id. */
export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  const text = `${typeof value === 'string' ? value : JSON.stringify(value)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'node-id': NODE_ID,
  });
  res.end(text);
}

/** Answers like gorilla/mux or avalanchego middleware: plain text, Node-Id. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'node-id': NODE_ID,
  });
  res.end(text);
}

/** An answer with no body: only its status and content-length 0 (a proxy, a handler that gave up). */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}

/** The id of the JSON-RPC request in `body` (null if it has none). */
export function idOf(body: string): unknown {
  return (JSON.parse(body) as { id?: unknown }).id ?? null;
}

export function rpcResult(body: string, result: unknown): unknown {
  return { jsonrpc: '2.0', result, id: idOf(body) };
}

export function rpcError(body: string, code: number, message: string, data: unknown = null): unknown {
  return { jsonrpc: '2.0', error: { code, message, data }, id: idOf(body) };
}

/** Clients made by a test, closed by closeAll() after each test (useServer). */
export class Clients {
  private readonly all: NodeClient[] = [];
  make(opts: NodeClientOptions): NodeClient {
    const c = new NodeClient(opts);
    this.all.push(c);
    return c;
  }
  async closeAll(): Promise<void> {
    const all = this.all.splice(0);
    await withTimeout(Promise.all(all.map((c) => c.close())), 3_000, 'client.close');
  }
}

export interface ServerHarness {
  readonly srv: TestServer;
  readonly clients: Clients;
  /** The onRequest spy of the client made last. */
  readonly spy: OnRequest;
  /** A client of the server (2 s deadline, a fresh onRequest spy) with `opts` over those defaults. */
  client(opts?: Partial<NodeClientOptions>): NodeClient;
}

/** The test file's server: listening before all its tests, reset and its clients closed after each one. */
export function useServer(): ServerHarness {
  const srv = testServer();
  const clients = new Clients();
  let spy: OnRequest = onRequestSpy();
  beforeAll(() => srv.listen());
  afterAll(() => srv.close());
  afterEach(async () => {
    await clients.closeAll();
    srv.reset();
  });
  return {
    srv,
    clients,
    get spy() {
      return spy;
    },
    client(opts = {}) {
      spy = onRequestSpy();
      return clients.make({ url: srv.url, timeoutMs: 2_000, onRequest: spy, ...opts });
    },
  };
}

export type OnRequest = ReturnType<typeof vi.fn<(method: string, result: RpcResult, seconds: number) => void>>;

export function onRequestSpy(): OnRequest {
  return vi.fn<(method: string, result: RpcResult, seconds: number) => void>();
}

/** Asserts onRequest was called exactly once, with `method`, `result` and a sane duration. */
export function expectReported(spy: OnRequest, method: string, result: RpcResult, maxSeconds = 5): void {
  expect(spy).toHaveBeenCalledTimes(1);
  const [m, r, s] = spy.mock.calls[0]!;
  expect(m).toBe(method);
  expect(r).toBe(result);
  expect(typeof s).toBe('number');
  expect(s).toBeGreaterThanOrEqual(0);
  expect(s).toBeLessThan(maxSeconds);
}

/** Awaits a call that must fail (bounded), and returns its error, checked to be a NodeClientError of `cls`. */
export async function failure<E extends NodeClientError>(
  call: Promise<unknown>,
  cls: abstract new (...args: never[]) => E,
  ms = 5_000,
): Promise<E> {
  const outcome = await withTimeout(
    call.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    ms,
    'the call',
  );
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(NodeClientError);
  expect(outcome.error).toBeInstanceOf(cls);
  return outcome.error as E;
}

/** A plain-text refusal (sendText) of the node or what stands in front of it, and the HttpError it must be. */
export interface PlainTextRefusal {
  status: number;
  body: string;
  /** the error's message: the request, the status and the body's first line */
  message: string;
  /** isNotFound(): a 404 (an API that is off) */
  notFound: boolean;
}

/**
 * Answers `r` to the request `ask` makes of a fresh client, and asserts the HttpError: http_error, the
 * status, the body kept, the message, isNotFound(), and one report of `reported` as http_error.
 */
export async function expectRefused(h: ServerHarness, ask: (c: NodeClient) => Promise<unknown>, reported: string, r: PlainTextRefusal): Promise<HttpError> {
  h.srv.handle((_req, res) => sendText(res, r.status, r.body));
  const err = await failure(ask(h.client()), HttpError);
  expect(err.result).toBe('http_error');
  expect(err.status).toBe(r.status);
  expect(err.body).toBe(r.body);
  expect(err.message).toBe(r.message);
  expect(isNotFound(err)).toBe(r.notFound);
  expectReported(h.spy, reported, 'http_error');
  return err;
}
