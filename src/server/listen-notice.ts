import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { isAllInterfaces, parseListenAddress } from '../listen-address.js';

/** Hosts of --web.listen-address that bind every interface (Prometheus exporters' default form `:PORT`). */
export function bindsAllInterfaces(listenAddress: string): boolean {
  const a = parseListenAddress(listenAddress);
  return a !== undefined && isAllInterfaces(a.host);
}

/**
 * The start-up line for an exporter reachable from every interface: which interfaces and addresses
 * that means on this host, and how to narrow it. Undefined when a single address is bound.
 */
export function allInterfacesNotice(
  listenAddress: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): { interfaces: string[]; message: string } | undefined {
  if (!bindsAllInterfaces(listenAddress)) return undefined;
  const list = Object.entries(interfaces)
    .filter(([, infos]) => (infos ?? []).length > 0)
    .map(([name, infos]) => `${name} ${infos!.map((i) => i.address).join(' ')}`);
  return {
    interfaces: list,
    message:
      `listening on all interfaces (${list.join('; ') || 'none found'}), port ${port}: whoever reaches this host can read the metrics; ` +
      `use --web.listen-address 127.0.0.1:${port} for loopback only, or --web.config.file for TLS and basic auth`,
  };
}
