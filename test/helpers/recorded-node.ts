import { readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listening, startServer, type Listening } from './http-server.js';

/**
 * Replays the exchanges recorded from a real avalanchego node, v1.15.0 (Helicon active), v1.14.2, v1.12.2 or v1.11.7
 * (test/fixtures/real-node-v<version>/, one JSON file per exchange, exactly as the node sent it; see the
 * README there). A request is answered with the recorded status, content type, Node-Id header and
 * body of the exchange with the same HTTP method, path (with its query), JSON-RPC method and params.
 * The one change: the JSON-RPC `id` of the recorded body (1) is replaced by the id of the request, as a
 * node echoes it.
 *
 * The methods a version lacks were recorded too, as that node's own error answers (v1.11.7's
 * `info.upgrades.json`: `rpc: can't find method "info.Upgrades"`), and are replayed as recorded;
 * `unknownMethodBody(version, method)` is the answer of that node to any method it does not have (its
 * `err-unknown-method-info.json`, gorilla/rpc naming the method with its method part capitalised). A
 * request no recording has is answered only when the caller says which recorded exchange the node
 * would answer it with, and why (`sameAs`); any other is listed in `unmatched` and answered 404.
 *
 * `edit(file, body => body)` changes an answer for one test (the issue's "the one field changed that
 * the point is about"); `unmatched` lists requests that no recording answers (tests assert it is empty).
 */
export const RECORDED_VERSIONS = ['1.15.0', '1.14.2', '1.12.2', '1.11.7'] as const;
export type RecordedVersion = (typeof RECORDED_VERSIONS)[number];
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const recordedNodeDir = (version: RecordedVersion): string => join(FIXTURES, `real-node-v${version}`);
export const REAL_NODE_DIR = recordedNodeDir('1.14.2');
/** The genesis validator staker1 of the local network: every recorded node is this one. */
export const REAL_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

export interface Exchange {
  readonly file: string;
  readonly request: { method: string; path: string; headers: Record<string, string>; body: string | null };
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly recorded_at: string;
}

export function recordedExchange(file: string, version: RecordedVersion = '1.14.2'): Exchange {
  const raw = JSON.parse(readFileSync(join(recordedNodeDir(version), file), 'utf8')) as Omit<Exchange, 'file'>;
  return { file, ...raw };
}

/** The recorded body of a JSON-RPC exchange, parsed: its `result` (or the whole GET body). */
export function recordedResult<T = any>(file: string, version: RecordedVersion = '1.14.2'): T {
  const ex = recordedExchange(file, version);
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
  readonly version: RecordedVersion;
  readonly requests: { file?: string; method: string; path: string; rpc?: string }[];
  readonly unmatched: string[];
  /** Changes the body of one recorded answer for later requests (undefined = back to the recording). */
  edit(file: string, fn: ((body: string) => string) | undefined): void;
  /** Answers one file with a whole different exchange (status and body), e.g. an error. */
  replace(file: string, answer: { status: number; body: string; contentType?: string } | undefined): void;
}

export interface RecordedNodeOptions {
  /** Default '1.14.2'. */
  version?: RecordedVersion;
  /**
   * Requests that no recording has, each answered with the recorded exchange `file` of the same
   * version (the caller's comment says why the node would answer them alike).
   */
  sameAs?: readonly { readonly rpc: string; readonly params: Readonly<Record<string, unknown>>; readonly file: string }[];
}

/**
 * GET /ext/metrics of the v1.14.2 and v1.15.0 nodes: a text file recorded at the same time (its headers were not
 * recorded: promhttp's text format 0.0.4 content type). The other versions recorded it as an exchange.
 */
const EXT_METRICS_TEXT: Partial<Record<RecordedVersion, string>> = { '1.14.2': 'ext-metrics-v1.14.2.txt', '1.15.0': 'ext-metrics.txt' };

/**
 * Versions whose every exchange is of one state of the node: v1.15.0's recording asked one call at a time
 * over 90 seconds (10:37:30 to 10:38:57, each exchange with its own `recorded_at`) of a network on which nothing
 * happened (its README: before any transaction; P, X and C at height 0).
 */
const ONE_STATE: ReadonlySet<RecordedVersion> = new Set(['1.15.0']);

/** gorilla/rpc's service.method name as it quotes it: the method part capitalised. */
const goMethodName = (m: string) => m.replace(/\.(.)/, (_x, c: string) => `.${c.toUpperCase()}`);

/** The body a node of this version answers to a JSON-RPC `method` it does not have (id 1). */
export function unknownMethodBody(version: RecordedVersion, method: string): string {
  const recorded = recordedExchange('err-unknown-method-info.json', version).body;
  const quoted = /can't find method \\"[^\\]*\\"/;
  if (!quoted.test(recorded)) throw new Error(`no unknown-method answer recorded for v${version}`);
  return recorded.replace(quoted, () => `can't find method \\"${goMethodName(method)}\\"`);
}

/**
 * What the replay of a version answers: the exchanges of one state of the node, the first one recorded
 * (every exchange recorded at the earliest `recorded_at`: a later recording of the same request, e.g.
 * with a peer, is another state; every exchange of a ONE_STATE version), less the error cases (`err-*`,
 * README: not answers to what the exporter asks). Sorted by file name.
 */
export function replayedExchanges(version: RecordedVersion = '1.14.2'): Exchange[] {
  const all = readdirSync(recordedNodeDir(version))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => recordedExchange(f, version));
  const first = all.map((e) => e.recorded_at).sort()[0];
  return all.filter((e) => (ONE_STATE.has(version) || e.recorded_at === first) && !e.file.startsWith('err-'));
}

/**
 * The requests the replay of a version answers, as the fault matrix routes them (collectors/define.ts
 * matchesCall): the `method` label (the JSON-RPC method, or `GET <path>`), the path and the JSON-RPC params.
 */
export function replayedRequests(version: RecordedVersion = '1.14.2'): { method: string; path: string; params: Readonly<Record<string, unknown>> }[] {
  const out = replayedExchanges(version).map((e) => {
    const key = keyOf(e.request.method, e.request.path, e.request.body)!;
    const params = key.params === undefined ? {} : (JSON.parse(key.params) as Record<string, unknown>);
    return { method: key.rpc ?? `${e.request.method} ${e.request.path}`, path: e.request.path, params: Array.isArray(params) ? {} : params };
  });
  return EXT_METRICS_TEXT[version] ? [...out, { method: 'GET /ext/metrics', path: '/ext/metrics', params: {} }] : out;
}

export async function startRecordedNode(opts: RecordedNodeOptions = {}): Promise<RecordedNode> {
  const version = opts.version ?? '1.14.2';
  const dir = recordedNodeDir(version);
  const index = replayedExchanges(version).map((e) => ({ e, key: keyOf(e.request.method, e.request.path, e.request.body)! }));
  for (const a of opts.sameAs ?? []) {
    const key = { method: 'POST', path: recordedExchange(a.file, version).request.path, rpc: a.rpc, params: canonical(a.params) };
    if (index.some((i) => same(i.key, key))) throw new Error(`${a.rpc} ${key.params} was recorded from v${version}: replay the recording`);
    index.push({ e: recordedExchange(a.file, version), key });
  }
  const edits = new Map<string, (body: string) => string>();
  const replacements = new Map<string, { status: number; body: string; contentType?: string }>();
  const requests: RecordedNode['requests'] = [];
  const unmatched: string[] = [];
  const extMetricsText = EXT_METRICS_TEXT[version];

  const handler = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && path === '/ext/metrics' && extMetricsText) {
      requests.push({ file: extMetricsText, method: 'GET', path });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(readFileSync(join(dir, extMetricsText), 'utf8'));
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
    version,
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
