import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { localUrlHost, validListenAddress } from '../listen-address.js';
import { loadWebConfig } from './web-config.js';

/**
 * `avalanche-exporter healthcheck`: GET /healthz of the exporter that the same flags, environment
 * and files describe, so the Docker HEALTHCHECK follows --web.listen-address and the TLS of
 * --web.config.file instead of assuming http://127.0.0.1:10650.
 */
export interface HealthProbe {
  ok: boolean;
  message: string;
}

/** Where to reach a server bound to `listenAddress` from the same host. */
export function healthzUrl(listenAddress: string, tls: boolean): string {
  // A server on every interface is reachable on loopback.
  const { host, port } = validListenAddress(listenAddress);
  return `${tls ? 'https' : 'http'}://${localUrlHost(host)}:${port}/healthz`;
}

export async function probeHealth(web: { listenAddress: string; configFile?: string }, timeoutMs = 3000): Promise<HealthProbe> {
  const webConfig = web.configFile ? loadWebConfig(web.configFile) : undefined;
  const tls = webConfig?.tls;
  const url = healthzUrl(web.listenAddress, !!tls);
  return new Promise<HealthProbe>((resolve) => {
    const done = (r: HealthProbe) => resolve(r);
    // The exporter's own certificate need not name 127.0.0.1: this checks that it answers, not who it is.
    const req = (tls ? httpsRequest : httpRequest)(url, { method: 'GET', timeout: timeoutMs, ...(tls ? { rejectUnauthorized: false } : {}) }, (res) => {
      res.resume();
      const ok = res.statusCode === 200;
      done({ ok, message: `${url}: HTTP ${res.statusCode}${ok ? ' (healthy)' : ''}` });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // With client_auth_type RequireAndVerifyClientCert the server ends the handshake of a client
      // without a certificate: it is up and speaking TLS, which is all a liveness probe can learn.
      const mtls = tls && tls.clientAuthType !== 'NoClientCert' && /certificate required|alert|handshake/i.test(err.message);
      if (mtls) done({ ok: true, message: `${url}: the server is up (its TLS requires a client certificate, so /healthz was not read)` });
      else done({ ok: false, message: `${url}: ${err.code ?? ''} ${err.message}`.replace(/ {2,}/g, ' ') });
    });
    req.end();
  });
}

/**
 * The exporter flags of a running avalanche-exporter, from its /proc/PID/cmdline (NUL-separated):
 * everything after the program (`dist/cli.js`, or the `avalanche-exporter` command), without `run`.
 * Docker's HEALTHCHECK runs in the container beside PID 1 but does not get its command-line
 * arguments; `healthcheck --pid 1` reads them so that flags given to `docker run` count too.
 * Undefined when the process is not the exporter's `run`.
 */
export function exporterArgsFromCmdline(cmdline: string): string[] | undefined {
  const argv = cmdline.split('\0').filter((a) => a !== '');
  const i = argv.findIndex((a) => /(^|\/)(cli\.js|avalanche-exporter)$/.test(a));
  if (i < 0) return undefined;
  const args = argv.slice(i + 1);
  if (args[0] === 'run') return args.slice(1);
  if (args[0] !== undefined && !args[0].startsWith('-')) return undefined; // demo, sim, check-config, ...
  return args;
}

export function exporterArgsOfPid(pid: string): string[] {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (err) {
    throw new Error(`--pid ${pid}: cannot read /proc/${pid}/cmdline (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const args = exporterArgsFromCmdline(cmdline);
  if (!args) throw new Error(`--pid ${pid}: process ${pid} is not a running avalanche-exporter (${cmdline.split('\0').join(' ').trim().slice(0, 120)})`);
  return args;
}
