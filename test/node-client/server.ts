/**
 * A local node:http server on 127.0.0.1 (port 0) that answers the way the test tells it to,
 * for the node client tests. Not a test file itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect, vi } from 'vitest';
import { NodeClient, NodeClientError, type NodeClientOptions, type RpcResult } from '../../src/node-client/index.js';

export const NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  server: Server;
  port: number;
  url: string;
  requests: SeenRequest[];
  /** Number of TCP connections accepted since the last reset(). */
  connections: number;
  handle(h: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

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

export async function startServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => sendText(res, 500, 'no handler\n');
  const sockets = new Set<Socket>();
  const state = {
    requests: [] as SeenRequest[],
    connections: 0,
  };
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // A socket we destroy on purpose may still see EPIPE/ECONNRESET: not a test failure.
    s.on('error', () => {});
  });
  server.on('clientError', (_err, s: Socket) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    handle(h: Handler) {
      handler = h;
    },
    reset() {
      state.requests = [];
      state.connections = 0;
      handler = (_req, res) => sendText(res, 500, 'no handler\n');
    },
    async close() {
      for (const s of sockets) s.destroy();
      await withTimeout(new Promise<void>((resolve) => server.close(() => resolve())), 2_000, 'server.close');
    },
  };
}

/** A port on 127.0.0.1 that was listening a moment ago and is now closed. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Clients made by a test, closed by closeClients() in afterEach. */
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
