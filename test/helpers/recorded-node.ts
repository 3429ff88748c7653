import { readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listening, startServer, type Listening } from './http-server.js';

/**
 * Replays the exchanges recorded from a real avalanchego v1.14.2 node
 * (test/fixtures/real-node-v1.14.2/, one JSON file per exchange, exactly as the node sent it; see the
 * README there). A request is answered with the recorded status, content type, Node-Id header and
 * body of the exchange with the same HTTP method, path, JSON-RPC method and params. The one change:
 * the JSON-RPC `id` of the recorded body (1) is replaced by the id of the request, as a node echoes it.
 *
 * `edit(file, body => body)` changes an answer for one test (the issue's "the one field changed that
 * the point is about"); `unmatched` lists requests that no recording answers (tests assert it is empty).
 */
export const REAL_NODE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'real-node-v1.14.2');
export const REAL_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

export interface Exchange {
  readonly file: string;
  readonly request: { method: string; path: string; headers: Record<string, string>; body: string | null };
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly recorded_at: string;
}

export function recordedExchange(file: string): Exchange {
  const raw = JSON.parse(readFileSync(join(REAL_NODE_DIR, file), 'utf8')) as Omit<Exchange, 'file'>;
  return { file, ...raw };
}

/** The recorded body of a JSON-RPC exchange, parsed: its `result` (or the whole GET body). */
export function recordedResult<T = any>(file: string): T {
  const ex = recordedExchange(file);
  const body = JSON.parse(ex.body) as { result?: T } & T;
  return ex.request.method === 'GET' ? (body as T) : (body.result as T);
}

interface Key {
  method: string;
  path: string;
  rpc?: string;
  params?: string;
}

function keyOf(method: string, path: string, body: string | null): Key | undefined {
  if (method !== 'POST' || !body) return { method, path };
  try {
    const call = JSON.parse(body) as { method?: unknown; params?: unknown };
    return { method, path, rpc: String(call.method), params: canonical(call.params ?? {}) };
  } catch {
    return undefined;
  }
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const same = (a: Key, b: Key) => a.method === b.method && a.path === b.path && a.rpc === b.rpc && a.params === b.params;

/** The recorded node; `stop()` refuses connections until `start()`. */
export interface RecordedNode extends Listening {
  readonly requests: { file?: string; method: string; path: string; rpc?: string }[];
  readonly unmatched: string[];
  /** Changes the body of one recorded answer for later requests (undefined = back to the recording). */
  edit(file: string, fn: ((body: string) => string) | undefined): void;
  /** Answers one file with a whole different exchange (status and body), e.g. an error. */
  replace(file: string, answer: { status: number; body: string; contentType?: string } | undefined): void;
}

/** GET /ext/metrics of the recorded node (Prometheus text, not a JSON exchange). */
const EXT_METRICS_FILE = 'ext-metrics-v1.14.2.txt';

/**
 * What the replay answers: the exchanges of one state of the node, the first one recorded (every
 * exchange recorded at the earliest `recorded_at`: a later recording of the same request, e.g. with a
 * peer, is another state), less the error cases (`err-*`, README: not answers to what the exporter asks).
 */
export function replayedExchanges(): Exchange[] {
  const all = readdirSync(REAL_NODE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map(recordedExchange);
  const first = all.map((e) => e.recorded_at).sort()[0];
  return all.filter((e) => e.recorded_at === first && !e.file.startsWith('err-'));
}

/**
 * The requests the replay answers, as the fault matrix routes them (collectors/define.ts matchesCall):
 * the `method` label (the JSON-RPC method, or `GET <path>`), the path and the JSON-RPC params.
 */
export function replayedRequests(): { method: string; path: string; params: Readonly<Record<string, unknown>> }[] {
  const out = replayedExchanges().map((e) => {
    const key = keyOf(e.request.method, e.request.path, e.request.body)!;
    const params = key.params === undefined ? {} : (JSON.parse(key.params) as Record<string, unknown>);
    return { method: key.rpc ?? `${e.request.method} ${e.request.path}`, path: e.request.path, params: Array.isArray(params) ? {} : params };
  });
  return [...out, { method: 'GET /ext/metrics', path: '/ext/metrics', params: {} }];
}

export async function startRecordedNode(): Promise<RecordedNode> {
  const index = replayedExchanges().map((e) => ({ e, key: keyOf(e.request.method, e.request.path, e.request.body)! }));
  const edits = new Map<string, (body: string) => string>();
  const replacements = new Map<string, { status: number; body: string; contentType?: string }>();
  const requests: RecordedNode['requests'] = [];
  const unmatched: string[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && path === '/ext/metrics') {
      // The node's own /ext/metrics, recorded as a text file at the same time (its headers were not
      // recorded: promhttp's text format 0.0.4 content type).
      requests.push({ file: EXT_METRICS_FILE, method: 'GET', path });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(readFileSync(join(REAL_NODE_DIR, EXT_METRICS_FILE), 'utf8'));
      return;
    }
    const key = keyOf(req.method ?? 'GET', path, body || null);
    const hit = key && index.find((i) => same(i.key, key));
    let id: unknown = 1;
    try {
      id = body ? (JSON.parse(body) as { id?: unknown }).id : 1;
    } catch {
      /* not JSON: the recording answers it as recorded */
    }
    requests.push({ file: hit?.e.file, method: req.method ?? '', path, rpc: key?.rpc });
    if (!hit) {
      unmatched.push(`${req.method} ${path} ${key?.rpc ?? ''} ${key?.params ?? ''}`.trim());
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
      return;
    }
    const ex = hit.e;
    const rep = replacements.get(ex.file);
    if (rep) {
      res.writeHead(rep.status, { 'content-type': rep.contentType ?? 'application/json; charset=utf-8', 'node-id': ex.headers['node-id'] ?? '' });
      res.end(rep.body.replace(/"id":1}/, `"id":${JSON.stringify(id)}}`));
      return;
    }
    let out = ex.body;
    // The id is the last member (gorilla/rpc) or follows "jsonrpc" (geth's /ext/bc/C/rpc).
    if (ex.request.method === 'POST') out = out.replace(/"id":1}(\n?)$/, `"id":${JSON.stringify(id)}}$1`).replace(/^\{"jsonrpc":"2\.0","id":1,/, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`);
    const edit = edits.get(ex.file);
    if (edit) out = edit(out);
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'node-id', 'vary']) if (ex.headers[h] !== undefined) headers[h] = ex.headers[h]!;
    res.writeHead(ex.status, headers);
    res.end(out);
  };

  return {
    ...listening(await startServer(handler)),
    requests,
    unmatched,
    edit(file, fn) {
      if (fn) edits.set(file, fn);
      else edits.delete(file);
    },
    replace(file, answer) {
      if (answer) replacements.set(file, answer);
      else replacements.delete(file);
    },
  };
}
