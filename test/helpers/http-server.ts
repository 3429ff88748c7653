/**
 * The one local HTTP server of the tests (node:http on 127.0.0.1): it reads each request's body, records
 * the request and hands it to the handler the test gives; it can stop listening (connections refused,
 * open ones dropped) and listen again on the same port. The node client tests, the fixture node, the
 * fault proxy, the recorded node and the other hand-made peers (a hostile echo node, a proxy's error
 * page, a target that never answers, the Alertmanager webhook) are handlers over it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  /** The HTTP method. */
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers one request; `body` is the whole request body (utf-8). */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  readonly server: Server;
  /** Valid once listening (`startServer`, or `listen()`). */
  readonly url: string;
  readonly port: number;
  /** Every request received since the last reset(). */
  readonly requests: readonly SeenRequest[];
  /** TCP connections accepted since the last reset(). */
  readonly connections: number;
  handle(h: Handler): void;
  /** Forgets the requests and connections and goes back to the first handler. */
  reset(): void;
  /** Listens on 127.0.0.1 (port 0: a free one). */
  listen(port?: number): Promise<void>;
  /** Stops listening (connections refused) and drops the open connections. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const NO_HANDLER: Handler = (_req, res) => {
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('no handler\n');
};

/** A server that is not listening yet (for a test file's hooks: `listen()` in beforeAll). */
export function testServer(first: Handler = NO_HANDLER): TestServer {
  let handler = first;
  let requests: SeenRequest[] = [];
  let connections = 0;
  let port = 0;
  const sockets = new Set<Socket>();
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    // A client that went away mid-answer (a fault, a deadline) is no test failure.
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // A socket destroyed on purpose may still see EPIPE/ECONNRESET.
    s.on('error', () => {});
  });
  server.on('clientError', (_err, s: Socket) => s.destroy());
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    server,
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    handle(h) {
      handler = h;
    },
    reset() {
      requests = [];
      connections = 0;
      handler = first;
    },
    listen: (p = 0) => listen(p),
    stop,
    async start() {
      if (!server.listening) await listen(port);
    },
    close: () => withTimeout(stop(), 2_000, 'server.close'),
  };
}

/** A listening server answering with `handler`. */
export async function startServer(handler?: Handler): Promise<TestServer> {
  const s = testServer(handler);
  await s.listen();
  return s;
}

/** What a node built on a server exposes of it: where it listens, and stopping, restarting and closing it. */
export type Listening = Pick<TestServer, 'url' | 'port' | 'stop' | 'start' | 'close'>;

export function listening(s: TestServer): Listening {
  return { url: s.url, port: s.port, stop: () => s.stop(), start: () => s.start(), close: () => s.close() };
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
