// Raw HTTP helpers for the simulator tests (node:http so that Host and
// Content-Type can be controlled exactly; no connection reuse).
import http from 'node:http';
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { startSimNode, type SimNode, type SimOptions } from '@avalanche-exporter/simulated-node';
import { waitFor as waitForAny } from '../helpers/proc.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        agent: false,
        setHost: !(opts.headers && Object.keys(opts.headers).some((h) => h.toLowerCase() === 'host')),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export function post(url: string, body: string, contentType: string | null = 'application/json'): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (contentType !== null) headers['Content-Type'] = contentType;
  return raw(url, { method: 'POST', headers, body });
}

/** A JSON-RPC call; returns the parsed body (throws if it is not JSON). */
export async function rpc(
  base: string,
  path: string,
  method: string,
  params?: unknown,
  id: unknown = 1,
): Promise<{ status: number; body: string; json: any; headers: http.IncomingHttpHeaders }> {
  const req: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) req['params'] = params;
  const r = await post(base + path, JSON.stringify(req));
  return { status: r.status, body: r.body, json: r.body ? JSON.parse(r.body) : null, headers: r.headers };
}

export async function result(base: string, path: string, method: string, params?: unknown): Promise<any> {
  const r = await rpc(base, path, method, params);
  if (r.json?.error) throw new Error(`${method}: ${JSON.stringify(r.json.error)}`);
  return r.json.result;
}

export function cb58Valid(s: string, payloadLen: number): boolean {
  let b: Uint8Array;
  try {
    b = bs58.decode(s);
  } catch {
    return false;
  }
  if (b.length !== payloadLen + 4) return false;
  const payload = Buffer.from(b.subarray(0, payloadLen));
  const sum = createHash('sha256').update(payload).digest().subarray(28);
  return sum.equals(Buffer.from(b.subarray(payloadLen)));
}

export function nodeIdValid(s: string): boolean {
  return s.startsWith('NodeID-') && cb58Valid(s.slice(7), 20);
}

/** The one polling helper of the tests (test/helpers/proc.ts), with the simulator tests' short step. */
export function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 10_000, stepMs = 20): Promise<T> {
  return waitForAny(fn, timeoutMs, stepMs);
}

export async function control(controlUrl: string, body: unknown): Promise<RawResponse> {
  return post(controlUrl + '/sim/scenario', JSON.stringify(body));
}

/** A simulated node whose Health API already answers 200 (its first health run is done). */
export async function startReadySim(opts: SimOptions): Promise<SimNode> {
  const sim = await startSimNode(opts);
  // 30 s, not the default 10: its first health run waited 10 s once on this 2-core machine while other
  // suites ran npm ci and tsc beside it (test/sim/subnet-chains.test.ts); it takes well under a second alone.
  await waitFor(async () => (await raw(sim.url + '/ext/health')).status === 200, 30_000);
  return sim;
}

/** What a GET /ext/health at `url` meets: `status <code>`, or the connection error's code (ECONNREFUSED). */
export function refused(url: string): Promise<string> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: '/ext/health', agent: false }, (res) => {
      res.resume();
      resolve(`status ${res.statusCode}`);
    });
    req.setTimeout(2000, () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}
