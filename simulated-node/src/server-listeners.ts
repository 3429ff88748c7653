// Opening and closing the simulator's HTTP listeners: the node port closes when the node process
// is down (connection refused) and re-opens on the same port; the control port stays up.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Listens on host:port (exclusively); resolves with the bound port. */
export function listen(srv: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onErr = (e: Error): void => {
      srv.off('listening', onOk);
      reject(e);
    };
    const onOk = (): void => {
      srv.off('error', onErr);
      resolve((srv.address() as AddressInfo).port);
    };
    srv.once('error', onErr);
    srv.once('listening', onOk);
    srv.listen({ host, port, exclusive: true });
  });
}

/** Stops listening and destroys every open connection (their requests are reset). */
export function closeServer(srv: http.Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    if (!srv.listening) {
      for (const s of sockets) s.destroy();
      resolve();
      return;
    }
    srv.close(() => resolve());
    for (const s of sockets) s.destroy();
    srv.closeAllConnections?.();
  });
}

/** Keeps the set of a server's open sockets (for closeServer). */
export function trackSockets(srv: http.Server): Set<Socket> {
  const sockets = new Set<Socket>();
  srv.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

/**
 * Re-opens a closed listener on the same port, retrying briefly while the port is still in use
 * (TIME_WAIT); `sleep` is the simulator's cancellable delay, `stopped` its closed flag.
 */
export async function reopen(srv: http.Server, host: string, port: number, sleep: (ms: number) => Promise<void>, stopped: () => boolean): Promise<void> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      await listen(srv, host, port);
      return;
    } catch (e) {
      lastErr = e;
      await sleep(50);
      if (stopped()) return;
    }
  }
  throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
}
