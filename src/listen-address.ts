/**
 * --web.listen-address, read once: `:PORT` (every interface, the Prometheus exporters' default form),
 * `host:PORT` or `[v6]:PORT`. The config schema validates with it; the server listens, warns about an
 * all-interfaces bind and finds itself (healthcheck) with it.
 */
export interface ListenAddress {
  /** Without brackets; undefined for `:PORT`. */
  readonly host: string | undefined;
  readonly port: number;
}

const LISTEN_RE = /^(\[[0-9a-fA-F:.]+\]|[^:\s]*):(\d+)$/;

/** The host and port of a listen address; undefined when it is not of one of the three forms (the port is not range-checked). */
export function parseListenAddress(address: string): ListenAddress | undefined {
  const m = LISTEN_RE.exec(address);
  if (!m) return undefined;
  const host = m[1]!.replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? undefined : host, port: Number(m[2]) };
}

/** The host and port of an address the config schema accepted (config/value-types.ts `listenAddress`); throws on any other. */
export function validListenAddress(address: string): ListenAddress {
  const a = parseListenAddress(address);
  if (!a) throw new Error(`not a listen address (host:port, :port or [v6]:port): ${JSON.stringify(address)}`);
  return a;
}

const ALL_V4 = new Set([undefined, '0.0.0.0']);
const ALL_V6 = new Set(['::', '0:0:0:0:0:0:0:0']);

/** A host that binds every interface: none (`:PORT`), 0.0.0.0 or `::`. */
export function isAllInterfaces(host: string | undefined): boolean {
  return ALL_V4.has(host) || ALL_V6.has(host ?? '');
}

/**
 * The host to reach a server bound to `host` from the same machine, as a URL writes it: loopback for an
 * all-interfaces bind (127.0.0.1, or [::1] for `::`: dual-stack on Linux), IPv6 in brackets.
 */
export function localUrlHost(host: string | undefined): string {
  const h = ALL_V4.has(host) ? '127.0.0.1' : ALL_V6.has(host!) ? '::1' : host!;
  return h.includes(':') ? `[${h}]` : h;
}
