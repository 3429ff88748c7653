import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/**
 * Starts `server` on `address` (host:port, :port, [v6]:port) and returns the URL to show people
 * (loopback for an all-interfaces bind).
 */
export async function listen(server: Server, address: string, path: string, logger: Logger): Promise<string> {
  const { host, port } = splitListen(address);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  logger.info({ event: 'listening', address: `${host ?? ''}:${addr.port}`, path }, 'serving metrics');
  return `${'setSecureContext' in server ? 'https' : 'http'}://${shownHost}:${addr.port}`;
}

export function splitListen(addr: string): { host: string | undefined; port: number } {
  const i = addr.lastIndexOf(':');
  let host = addr.slice(0, i);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host: host === '' ? undefined : host, port: Number(addr.slice(i + 1)) };
}
