import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import pino from 'pino';
import { makeRendered, type RenderedExposition } from '../../src/metrics/exposition.js';
import { createExporterServer, type ServerDeps } from '../../src/server/server.js';

export const silent = pino({ level: 'silent' });

export interface Running {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** createExporterServer with a fixed exposition, listening on 127.0.0.1:0. */
export async function startServer(over: Partial<ServerDeps> = {}, body = 'avax_up{target="a"} 1\n'): Promise<Running> {
  const snap: RenderedExposition = makeRendered(body, 1, Date.now());
  const server = createExporterServer({
    telemetryPath: '/metrics',
    version: 'test',
    maxConcurrentScrapes: 4,
    logger: silent,
    exposition: () => snap,
    probe: (name) => (name === 'a' ? snap : undefined),
    targets: () => [],
    ...over,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  peer: PeerCertificate;
  protocol: string | null;
}

/** One request on a new TLS connection (no agent, no session reuse). */
export function httpsGet(port: number, path: string, opts: RequestOptions = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, method: 'GET', agent: false, servername: 'localhost', ...opts }, (res) => {
      const sock = res.socket as TLSSocket;
      const peer = sock.getPeerCertificate();
      const protocol = sock.getProtocol();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, peer, protocol }));
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
