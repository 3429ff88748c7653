import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { localUrlHost, validListenAddress } from '../listen-address.js';

/**
 * Starts `server` on `address` (host:port, :port, [v6]:port) and returns the URL to show people
 * (loopback for an all-interfaces bind).
 */
export async function listen(server: Server, address: string, path: string, logger: Logger): Promise<string> {
  const { host, port } = validListenAddress(address);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  logger.info({ event: 'listening', address: `${host ?? ''}:${addr.port}`, path }, 'serving metrics');
  return `${'setSecureContext' in server ? 'https' : 'http'}://${localUrlHost(host)}:${addr.port}`;
}
