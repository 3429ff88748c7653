/**
 * A proxy in front of a node (the fixture node) that answers the requests matching the current fault
 * with that fault and forwards everything else; it can also stop listening (connection refused).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SELF } from '../fixtures/ids.js';
import { listening, startServer, type Listening } from './http-server.js';

export interface RequestInfo {
  readonly verb: string;
  readonly path: string;
  /** The `method` label: the JSON-RPC method, or `GET <path>`. */
  readonly method: string;
  readonly id: unknown;
  readonly params: Record<string, unknown>;
  readonly body: string;
}

export interface UpstreamAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export type FaultHandler = (req: RequestInfo, res: ServerResponse, upstream: () => Promise<UpstreamAnswer>) => void | Promise<void>;

/** The proxy; `stop()` refuses connections (dropping open ones) until `start()`. */
export interface FaultNode extends Listening {
  /** Requests answered with the fault, by method label. */
  readonly faulted: Map<string, number>;
  /** Every request received, by method label. */
  readonly seen: Map<string, number>;
  setFault(match: (r: RequestInfo) => boolean, handler: FaultHandler): void;
  clearFault(): void;
}

/** A proxy in front of `upstreamUrl`; requests that match the current fault get the fault instead. */
export async function startFaultNode(upstreamUrl: string): Promise<FaultNode> {
  const faulted = new Map<string, number>();
  const seen = new Map<string, number>();
  const cache = new Map<string, { answer: UpstreamAnswer; envelope?: Record<string, unknown> }>();
  let fault: { match: (r: RequestInfo) => boolean; handler: FaultHandler } | undefined;
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  const handler = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    let method = `${req.method} ${path}`;
    let id: unknown = null;
    let params: Record<string, unknown> = {};
    if (req.method === 'POST') {
      try {
        const call = JSON.parse(body) as { method?: unknown; id?: unknown; params?: unknown };
        if (typeof call.method === 'string') method = call.method;
        id = call.id;
        if (call.params && typeof call.params === 'object' && !Array.isArray(call.params)) params = call.params as Record<string, unknown>;
      } catch {
        // forwarded as is
      }
    }
    const info: RequestInfo = { verb: req.method ?? 'GET', path, method, id, params, body };
    bump(seen, method);
    const upstream = async (): Promise<UpstreamAnswer> => {
      // The fixture node answers deterministically: one round trip per distinct call, then the
      // cached answer with this request's id (halves the work of a matrix row).
      const key = JSON.stringify([req.method, req.url, req.headers['content-type'], method, params]);
      let hit = cache.get(key);
      if (!hit) {
        const r = await fetch(upstreamUrl + (req.url ?? '/'), {
          method: req.method,
          headers: req.headers['content-type'] ? { 'content-type': String(req.headers['content-type']) } : {},
          body: req.method === 'POST' ? body : undefined,
        });
        const answer = { status: r.status, contentType: r.headers.get('content-type') ?? 'application/json', body: await r.text() };
        let envelope: Record<string, unknown> | undefined;
        try {
          const j = JSON.parse(answer.body) as unknown;
          if (req.method === 'POST' && j && typeof j === 'object' && !Array.isArray(j) && 'id' in j) envelope = j as Record<string, unknown>;
        } catch {
          // not JSON: served as is
        }
        hit = { answer, envelope };
        if (req.method === 'GET' || envelope) cache.set(key, hit);
      }
      const { answer, envelope } = hit;
      return envelope ? { ...answer, body: `${JSON.stringify({ ...envelope, id })}\n` } : answer;
    };
    const f = fault;
    if (f && f.match(info)) {
      bump(faulted, method);
      Promise.resolve(f.handler(info, res, upstream)).catch(() => res.destroy());
      return;
    }
    upstream().then(
      (u) => {
        res.writeHead(u.status, { 'content-type': u.contentType, 'node-id': SELF });
        res.end(u.body);
      },
      () => res.destroy(),
    );
  };

  return {
    ...listening(await startServer(handler)),
    faulted,
    seen,
    setFault(match, h) {
      fault = { match, handler: h };
    },
    clearFault() {
      fault = undefined;
    },
  };
}
