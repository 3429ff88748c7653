// HTTP-level behaviour of the simulated node before any method runs, as avalanchego's HTTP server
// and gorilla/rpc answer it: 404 text, 403 for a host not allowed, 405 / 415 on JSON-RPC routes,
// 413 for a too large body; reading bodies and writing answers.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type http from 'node:http';
import net from 'node:net';
import { handleRpcBody, type HttpAnswer, type Services } from './json-rpc-envelope.js';

export const TEXT = 'text/plain; charset=utf-8';
export const NOT_FOUND: HttpAnswer = {
  status: 404,
  headers: { 'Content-Type': TEXT, 'X-Content-Type-Options': 'nosniff' },
  body: '404 page not found\n',
};
const MAX_BODY = 16 * 1024 * 1024;

/** net/http's http.Error: text with a trailing newline. */
export function httpError(status: number, msg: string): HttpAnswer {
  return { status, headers: { 'Content-Type': TEXT, 'X-Content-Type-Options': 'nosniff' }, body: msg + '\n' };
}

/** gorilla rpc's WriteError for 405/415: text, no trailing newline. */
function rpcTransportError(status: number, msg: string): HttpAnswer {
  return { status, headers: { 'Content-Type': TEXT }, body: msg };
}

/** --http-allowed-hosts=localhost: IP literals and an empty Host are always allowed. */
export function hostAllowed(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined || hostHeader === '') return true;
  let host = hostHeader;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end > 0 ? host.slice(1, end) : host;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && host.indexOf(':') === colon) host = host.slice(0, colon);
  }
  if (net.isIP(host) !== 0) return true;
  return host.toLowerCase() === 'localhost';
}

/** A gorilla/rpc JSON-RPC route: POST only, Content-Type application/json, then the envelope. */
export function rpcEndpoint(req: http.IncomingMessage, body: string, services: Services): HttpAnswer {
  const method = req.method ?? 'GET';
  if (method !== 'POST') return rpcTransportError(405, `rpc: POST method required, received ${method}`);
  let ct = req.headers['content-type'] ?? '';
  const semi = ct.indexOf(';');
  if (semi !== -1) ct = ct.slice(0, semi);
  if (ct.toLowerCase() !== 'application/json') return rpcTransportError(415, `rpc: unrecognized Content-Type: ${ct}`);
  return handleRpcBody(body, services);
}

/** The request body as text, or null when it exceeds the limit. */
export async function readBody(req: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) return null;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function send(res: http.ServerResponse, a: HttpAnswer, extra: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(a.status, { ...extra, ...a.headers });
  res.end(a.body);
}
