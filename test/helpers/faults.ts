/**
 * Fault injection and exposition checking for test/faults and test/property:
 * - `parseExposition`: a strict parser of the Prometheus text format 0.0.4 (the subset a scraper
 *   relies on: names, escaping, TYPE/HELP placement, grouping, duplicates, histogram consistency);
 * - `promtoolCheck`: `promtool check metrics` (a failure when missing in CI, a skip elsewhere);
 * - `startFaultNode`: a proxy in front of the fixture node that answers one collector's
 *   methods/paths with a fault and forwards everything else;
 * - the fault and route tables of the fault matrix.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';
import { startExporter, type Exporter } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { Exposition, TargetSegment } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/metrics/model.js';
import { wellFormedUnique } from '../../src/scheduler/target-runner.js';
import { fixtureNames, result as fixtureResult } from '../fixtures/load.js';
import { memoryLogger } from './log.js';

// ---------------------------------------------------------------------------------------------
// Exposition parser

export interface ParsedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly line: number;
}

export interface ParsedFamily {
  readonly name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  readonly samples: ParsedSample[];
}

export interface ParsedExposition {
  readonly families: Map<string, ParsedFamily>;
  readonly samples: ParsedSample[];
}

export class ExpositionError extends Error {
  override name = 'ExpositionError';
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const VALUE = /^(?:NaN|[+-]Inf|[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(s: string, where: string): number {
  if (!VALUE.test(s)) throw new ExpositionError(`${where}: invalid value ${JSON.stringify(s)}`);
  if (s === 'NaN') return Number.NaN;
  if (s === '+Inf') return Number.POSITIVE_INFINITY;
  if (s === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(s);
}

/** Canonical key of a series: name plus labels sorted by name. */
export function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  return `${name}${JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]))}`;
}

function parseSampleLine(line: string, where: string): { name: string; labels: Record<string, string>; value: number } {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new ExpositionError(`${where}: invalid metric name ${JSON.stringify(name)}`);
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    for (;;) {
      if (line[i] === '}') {
        i++;
        break;
      }
      const eq = line.indexOf('=', i);
      if (eq < 0) throw new ExpositionError(`${where}: label without "="`);
      const ln = line.slice(i, eq);
      if (!LABEL_NAME.test(ln)) throw new ExpositionError(`${where}: invalid label name ${JSON.stringify(ln)}`);
      if (ln in labels) throw new ExpositionError(`${where}: duplicate label ${ln}`);
      i = eq + 1;
      if (line[i] !== '"') throw new ExpositionError(`${where}: label value of ${ln} is not quoted`);
      i++;
      let v = '';
      for (;;) {
        if (i >= line.length) throw new ExpositionError(`${where}: unterminated label value of ${ln}`);
        const c = line[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\') {
          const n = line[i + 1];
          if (n === '\\') v += '\\';
          else if (n === '"') v += '"';
          else if (n === 'n') v += '\n';
          else throw new ExpositionError(`${where}: invalid escape \\${n ?? ''} in label ${ln}`);
          i += 2;
          continue;
        }
        v += c;
        i++;
      }
      labels[ln] = v;
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new ExpositionError(`${where}: expected "," or "}" after label ${ln}`);
    }
  }
  if (line[i] !== ' ') throw new ExpositionError(`${where}: expected one space before the value`);
  const rest = line.slice(i + 1).split(' ');
  if (rest.length > 2 || rest[0] === '') throw new ExpositionError(`${where}: expected "value [timestamp]", got ${JSON.stringify(line.slice(i + 1))}`);
  const value = parseValue(rest[0]!, where);
  if (rest.length === 2 && !/^-?\d+$/.test(rest[1]!)) throw new ExpositionError(`${where}: invalid timestamp ${JSON.stringify(rest[1])}`);
  return { name, labels, value };
}

/** The family a sample name belongs to, given the TYPEs declared so far. */
function familyName(sampleName: string, declared: Map<string, ParsedFamily>): string {
  if (declared.has(sampleName)) return sampleName;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const base = sampleName.slice(0, -suffix.length);
    const f = declared.get(base);
    if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return base;
  }
  return sampleName;
}

/**
 * Parses a text exposition strictly. Throws ExpositionError on: bad names, unquoted or badly
 * escaped label values, duplicate labels, raw newlines in values (a line that does not parse),
 * TYPE after samples or twice, HELP twice, a family split in two, duplicate series, histograms
 * whose buckets decrease or whose +Inf bucket differs from _count, summaries without quantile.
 */
export function parseExposition(text: string): ParsedExposition {
  const families = new Map<string, ParsedFamily>();
  const samples: ParsedSample[] = [];
  if (text === '') return { families, samples };
  if (!text.endsWith('\n')) throw new ExpositionError('exposition does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  const seen = new Set<string>();
  const closed = new Set<string>();
  let current: string | undefined;
  const enter = (fam: string, where: string) => {
    if (current === fam) return;
    if (closed.has(fam)) throw new ExpositionError(`${where}: family ${fam} appears in two separate groups`);
    if (current !== undefined) closed.add(current);
    current = fam;
  };
  lines.forEach((line, idx) => {
    const where = `line ${idx + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!m) return; // a plain comment
      const [, kw, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) throw new ExpositionError(`${where}: invalid metric name in ${kw}`);
      enter(name!, where);
      let f = families.get(name!);
      if (!f) families.set(name!, (f = { name: name!, type: 'untyped', samples: [] }));
      if (kw === 'TYPE') {
        if (!TYPES.has(rest)) throw new ExpositionError(`${where}: unknown type ${JSON.stringify(rest)}`);
        if ((f as { typed?: boolean }).typed) throw new ExpositionError(`${where}: second TYPE for ${name}`);
        if (f.samples.length > 0) throw new ExpositionError(`${where}: TYPE for ${name} after its samples`);
        f.type = rest as ParsedFamily['type'];
        (f as { typed?: boolean }).typed = true;
      } else {
        if (f.help !== undefined) throw new ExpositionError(`${where}: second HELP for ${name}`);
        if (/\\(?![\\n])/.test(rest.replace(/\\\\/g, ''))) throw new ExpositionError(`${where}: invalid escape in HELP`);
        f.help = rest.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
      }
      return;
    }
    const s = parseSampleLine(line, where);
    const famName = familyName(s.name, families);
    enter(famName, where);
    let f = families.get(famName);
    if (!f) families.set(famName, (f = { name: famName, type: 'untyped', samples: [] }));
    const key = seriesKey(s.name, s.labels);
    if (seen.has(key)) throw new ExpositionError(`${where}: duplicate series ${line}`);
    seen.add(key);
    if (f.type === 'histogram' && s.name === `${famName}_bucket` && s.labels['le'] === undefined) throw new ExpositionError(`${where}: bucket without le`);
    if (f.type === 'histogram' && s.name === famName) throw new ExpositionError(`${where}: histogram sample without _bucket/_sum/_count`);
    if (f.type === 'summary' && s.name === famName && s.labels['quantile'] === undefined) throw new ExpositionError(`${where}: summary sample without quantile`);
    const parsed: ParsedSample = { ...s, line: idx + 1 };
    f.samples.push(parsed);
    samples.push(parsed);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return { families, samples };
}

function checkHistogram(f: ParsedFamily): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number }>();
  const groupOf = (labels: Readonly<Record<string, string>>) => {
    const { le: _le, ...rest } = labels;
    const k = seriesKey('', rest);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { buckets: [] }));
    return g;
  };
  for (const s of f.samples) {
    if (s.name === `${f.name}_bucket`) groupOf(s.labels).buckets.push([parseValue(s.labels['le']!, `le of ${f.name}`), s.value]);
    else if (s.name === `${f.name}_count`) groupOf(s.labels).count = s.value;
  }
  for (const [k, g] of groups) {
    const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new ExpositionError(`histogram ${f.name}${k}: buckets decrease`);
    }
    const inf = sorted.at(-1);
    if (!inf || inf[0] !== Number.POSITIVE_INFINITY) throw new ExpositionError(`histogram ${f.name}${k}: no +Inf bucket`);
    if (g.count !== undefined && g.count !== inf[1]) throw new ExpositionError(`histogram ${f.name}${k}: +Inf bucket ${inf[1]} != _count ${g.count}`);
  }
}

/** The samples of `name` whose labels include `labels`. */
export function find(p: ParsedExposition, name: string, labels: Record<string, string> = {}): ParsedSample[] {
  return p.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The single value of `name` with `labels`, or undefined. Throws when several series match. */
export function value(p: ParsedExposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const m = find(p, name, labels);
  if (m.length > 1) throw new Error(`${m.length} series of ${name} match ${JSON.stringify(labels)}`);
  return m[0]?.value;
}

// ---------------------------------------------------------------------------------------------
// promtool

const PROM_CLIENT_LINT = /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

export const HAS_PROMTOOL = spawnSync('promtool', ['--version']).status === 0;

/**
 * `promtool check metrics` on `text`: 'ok', or 'skipped' when promtool is missing outside CI.
 * Throws with promtool's words when it complains (any output counts, lint included).
 */
export function promtoolCheck(text: string | Buffer): 'ok' | 'skipped' {
  if (!HAS_PROMTOOL) {
    if (process.env['CI']) throw new Error('promtool is not installed (required in CI)');
    return 'skipped';
  }
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 10_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  // prom-client's default process metrics name three gauges nodejs_active_*_total: a lint
  // complaint (exit status 3) about a dependency's names, not about this exporter's output.
  const lines = out === '' ? [] : out.split('\n').filter((l) => !PROM_CLIENT_LINT.test(l));
  const lintOnly = r.status === 3 && lines.length === 0;
  if ((r.status !== 0 && !lintOnly) || lines.length > 0) throw new Error(`promtool check metrics failed (status ${r.status}): ${out.slice(0, 2000)}`);
  return 'ok';
}

// ---------------------------------------------------------------------------------------------
// Fault node

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

export interface FaultNode {
  readonly url: string;
  readonly port: number;
  /** Requests answered with the fault, by method label. */
  readonly faulted: Map<string, number>;
  /** Every request received, by method label. */
  readonly seen: Map<string, number>;
  setFault(match: (r: RequestInfo) => boolean, handler: FaultHandler): void;
  clearFault(): void;
  /** Stop listening (connections refused), dropping open connections; `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A proxy in front of `upstreamUrl`; requests that match the current fault get the fault instead. */
export async function startFaultNode(upstreamUrl: string): Promise<FaultNode> {
  const faulted = new Map<string, number>();
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();
  const cache = new Map<string, { answer: UpstreamAnswer; envelope?: Record<string, unknown> }>();
  let fault: { match: (r: RequestInfo) => boolean; handler: FaultHandler } | undefined;
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
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
          res.writeHead(u.status, { 'content-type': u.contentType, 'node-id': 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv' });
          res.end(u.body);
        },
        () => res.destroy(),
      );
    });
  };

  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer(handler);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    faulted,
    seen,
    setFault(match, h) {
      fault = { match, handler: h };
    },
    clearFault() {
      fault = undefined;
    },
    stop,
    async start() {
      if (!server.listening) await listen(port);
    },
    close: stop,
  };
}

// ---------------------------------------------------------------------------------------------
// Fault table

/** Appears in bad answers; must never reach /metrics. */
export const MARKER = '424242';

/** Cap configured with --node.max-response-size in the matrix. */
export const MAX_RESPONSE = 64 * 1024;

const text = (status: number, body: string, type = 'text/plain; charset=utf-8'): FaultHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
};

const json = (body: (r: RequestInfo) => string): FaultHandler => (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body(req));
};

/** A JSON-RPC error answer (HTTP 200, code -32000, the Go error text) with the request's id. */
export function rpcErrorHandler(message: string): FaultHandler {
  return json((req) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: req.id }));
}

/** Wraps a result in a JSON-RPC envelope with the request's id; a GET gets the bare result. */
function answer(req: RequestInfo, result: unknown): string {
  return req.verb === 'POST' ? JSON.stringify({ jsonrpc: '2.0', result, id: req.id }) : JSON.stringify(result);
}

/**
 * Per method: a result of the right shape with wrong types, carrying MARKER where a lax parser
 * would coerce it into a value (Number([424242]) is 424242 in JavaScript).
 */
export const WRONG_TYPES: Record<string, unknown> = {
  'info.getNodeID': { nodeID: Number(MARKER), nodePOP: 'none' },
  'info.getNodeVersion': { version: Number(MARKER), databaseVersion: ['v1.4.5'], gitCommit: {}, vmVersions: { avm: Number(MARKER) } },
  'info.getNetworkID': { networkID: [Number(MARKER)] },
  'info.getNetworkName': { networkName: Number(MARKER) },
  'info.isBootstrapped': { isBootstrapped: 'true' },
  'info.peers': { numPeers: [Number(MARKER)], peers: [] },
  'info.uptime': { rewardingStakePercentage: [Number(MARKER)], weightedAveragePercentage: true },
  'platform.getCurrentValidators': {
    validators: [{ nodeID: 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv', weight: [Number(MARKER)], connected: 'true', uptime: { v: MARKER }, delegatorCount: Number(MARKER) }],
  },
  'platform.getHeight': { height: [Number(MARKER)] },
  eth_blockNumber: Number(MARKER),
  'avm.getHeight': { height: -Number(MARKER) },
  'platform.getTimestamp': { timestamp: Number(MARKER) },
  'index.getLastAccepted': { id: 'not-cb58', timestamp: Number(MARKER), index: [Number(MARKER)] },
  GET: { checks: { network: { error: Number(MARKER), contiguousFailures: `${MARKER}x` } }, healthy: 'false' },
};

const hold: FaultHandler = () => {
  // never answer: the client's deadline ends it
};

export interface FaultDef {
  readonly name: string;
  /** The `result` label these answers are counted under (per-collector overrides in the rows). */
  readonly result: 'network_error' | 'timeout' | 'http_error' | 'invalid_response' | 'rpc_error' | 'normal_state';
  /** Node-wide: the whole node is unreachable (refused); every collector fails. */
  readonly nodeWide?: boolean;
  /** Takes the node's deadline to show (timeouts). */
  readonly slow?: boolean;
  readonly handler?: FaultHandler;
}

const FAULT_DEFS = {
  refused: { name: 'connection refused', result: 'network_error', nodeWide: true },
  reset: {
    name: 'connection reset (RST, per route)',
    result: 'network_error',
    handler: (req, res) => {
      void req;
      res.socket?.resetAndDestroy();
    },
  },
  headersTimeout: { name: 'timeout before headers', result: 'timeout', slow: true, handler: hold },
  stall: {
    name: 'stall in the middle of the body',
    result: 'timeout',
    slow: true,
    handler: async (_req, res, upstream) => {
      const u = await upstream();
      const buf = Buffer.from(u.body);
      res.writeHead(200, { 'content-type': u.contentType, 'content-length': buf.length });
      res.write(buf.subarray(0, Math.floor(buf.length / 2)));
      // ...and nothing more: the connection stays open
    },
  },
  http500: { name: 'HTTP 500', result: 'http_error', handler: text(500, 'Internal Server Error\n') },
  http404: { name: 'HTTP 404 page not found', result: 'http_error', handler: text(404, '404 page not found\n') },
  http405: { name: 'HTTP 405 POST method required', result: 'http_error', handler: text(405, 'rpc: POST method required, received GET') },
  http415: { name: 'HTTP 415 unrecognized Content-Type', result: 'http_error', handler: text(415, 'rpc: unrecognized Content-Type: text/plain') },
  http403: { name: 'HTTP 403 invalid host', result: 'http_error', handler: text(403, 'invalid host specified\n') },
  http503: { name: 'HTTP 503 chain not bootstrapped', result: 'http_error', handler: text(503, 'API call rejected because chain is not done bootstrapping\n') },
  invalidJson: {
    name: 'invalid JSON',
    result: 'invalid_response',
    handler: json(() => `{"jsonrpc":"2.0","result":{"numPeers":"${MARKER}","height":"${MARKER}","healthy":true,`),
  },
  wrongTypes: {
    name: 'valid JSON with wrong types',
    result: 'invalid_response',
    handler: json((req) => answer(req, WRONG_TYPES[req.verb === 'GET' ? 'GET' : req.method])),
  },
  rpcError: {
    name: 'JSON-RPC error -32000',
    result: 'rpc_error',
    handler: json((req) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `fault injected ${MARKER}`, data: null }, id: req.id ?? 1 })),
  },
  idMismatch: {
    name: 'mismatched id',
    result: 'invalid_response',
    handler: async (req, res, upstream) => {
      const u = await upstream();
      const env = JSON.parse(u.body) as Record<string, unknown>;
      // A GET has no id: the health route gets a JSON-RPC envelope instead of a report.
      const out = req.verb === 'POST' ? { ...env, id: Number(req.id) + 1000 } : { jsonrpc: '2.0', result: env, id: 1000 };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    },
  },
  empty: { name: 'empty body', result: 'invalid_response', handler: json(() => '') },
  tooLargeDeclared: {
    name: 'body above the size cap (content-length)',
    result: 'invalid_response',
    handler: (req, res) => {
      const body = Buffer.from(answer(req, { pad: MARKER.repeat((MAX_RESPONSE * 1.5) / MARKER.length) }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    },
  },
  tooLargeChunked: {
    name: 'body above the size cap (chunked)',
    result: 'invalid_response',
    handler: (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: chunked
      const prefix = req.verb === 'POST' ? `{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"pad":"` : '{"pad":"';
      res.write(prefix);
      const chunk = MARKER.repeat(4096);
      let sent = 0;
      const more = () => {
        while (sent < MAX_RESPONSE * 2) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}}');
      };
      more();
    },
  },
  truncated: {
    name: 'truncated body (content-length larger than sent)',
    result: 'invalid_response',
    handler: async (_req, res, upstream) => {
      const u = await upstream();
      const buf = Buffer.from(u.body);
      res.writeHead(200, { 'content-type': u.contentType, 'content-length': buf.length + 100 });
      res.write(buf, () => res.socket?.end());
    },
  },
} satisfies Record<string, FaultDef>;

export type FaultName = keyof typeof FAULT_DEFS;
export const FAULTS: Readonly<Record<FaultName, FaultDef>> = FAULT_DEFS;

// ---------------------------------------------------------------------------------------------
// Collector routes: which requests belong to which collector

const methodIn =
  (...methods: string[]) =>
  (r: RequestInfo) =>
    methods.includes(r.method);

/** The requests of each collector (platform-validators and -full share a method: nodeIDs tells them apart). */
export const ROUTES: Record<string, (r: RequestInfo) => boolean> = {
  'node-info': methodIn('info.getNodeID', 'info.getNodeVersion', 'info.getNetworkID', 'info.getNetworkName'),
  health: (r) => r.verb === 'GET' && r.path.startsWith('/ext/health'),
  'info-is-bootstrapped': methodIn('info.isBootstrapped'),
  'info-peers': methodIn('info.peers'),
  'info-uptime': methodIn('info.uptime'),
  'platform-validators': (r) => r.method === 'platform.getCurrentValidators' && Array.isArray(r.params['nodeIDs']),
  'platform-validators-full': (r) => r.method === 'platform.getCurrentValidators' && !Array.isArray(r.params['nodeIDs']),
  'chain-height': methodIn('platform.getHeight', 'eth_blockNumber', 'avm.getHeight', 'platform.getTimestamp'),
  'index-last-accepted': (r) => r.path.startsWith('/ext/index/'),
  'info-upgrades': methodIn('info.upgrades'),
  'info-acps': methodIn('info.acps'),
  'platform-validator-fee': methodIn('platform.getValidatorFeeState'),
};

// ---------------------------------------------------------------------------------------------
// Matrix rows and the row runner

export interface Row {
  readonly collector: string;
  readonly fault: FaultName;
  /** Shown in the test name. */
  readonly label: string;
  /** The `result` the faulted requests must be counted under ('ok': not a fault after all). */
  readonly result: FaultDef['result'] | 'ok';
  /** Per-method exceptions to `result` (e.g. node-info's getNodeID 404 is a normal state: a public server). */
  readonly resultByMethod?: Readonly<Record<string, FaultDef['result']>>;
  /** avax_collector_success of the collector while the fault lasts (1 = tolerated). */
  readonly success: 0 | 1;
  /** Narrower than the collector's route (e.g. info.getNodeID only). */
  readonly match?: (r: RequestInfo) => boolean;
  /** Replaces the fault's handler (exception rows with a specific body). */
  readonly handler?: FaultHandler;
  /**
   * Checks on /metrics while the fault lasts. Default: none of the collector's own families
   * (nothing from a bad answer, nothing stale).
   */
  readonly during?: (p: ParsedExposition) => void;
}

export const COLLECTOR_NAMES = Object.keys(ROUTES);

/** Fixture cases of the node behind the fault proxy: open ACPs, so that info-acps has series to lose. */
export const FAULT_FIXTURES: Readonly<Record<string, string>> = { 'info.acps': 'open' };

/** Families a collector produces (from the descriptor table). */
export function familiesOf(collector: string): string[] {
  return DESCRIPTORS.filter((d) => d.collector === collector).map((d) => d.name);
}

/**
 * One row per (collector, fault). The exceptions, explicitly:
 * - connection refused is node-wide (a TCP port refuses every request, not one method): every
 *   collector fails and avax_up is 0; the per-route variant is the reset row (RST on the
 *   collector's requests only), where the other collectors stay at 1;
 * - health is a GET API: a JSON-RPC error body or an id-mismatched envelope is not a health
 *   report (schema mismatch → invalid_response, not rpc_error);
 * - index-last-accepted tolerates the plain-text 404 (index not enabled): success 1,
 *   avax_index_available 0 for every route, no other index series, counted as normal_state;
 * - info-acps and platform-validator-fee treat a 404 like an absent method (older node, API
 *   disabled): success 1 and none of their series, counted as normal_state;
 * - node-info: a 404 on info.getNodeID is a public server (normal_state); the other three calls fail.
 */
export function matrixRows(faults: readonly FaultName[]): Row[] {
  const rows: Row[] = [];
  for (const fault of faults) {
    for (const collector of COLLECTOR_NAMES) {
      const f: FaultDef = FAULTS[fault];
      let result: Row['result'] = f.result;
      let success: 0 | 1 = 0;
      let during: Row['during'];
      let resultByMethod: Row['resultByMethod'];
      if (collector === 'health' && (fault === 'rpcError' || fault === 'idMismatch')) result = 'invalid_response';
      if (collector === 'index-last-accepted' && fault === 'http404') {
        success = 1;
        result = 'normal_state';
        during = indexUnavailable;
      }
      if ((collector === 'info-acps' || collector === 'platform-validator-fee') && fault === 'http404') {
        success = 1;
        result = 'normal_state';
      }
      if (collector === 'node-info' && fault === 'http404') resultByMethod = { 'info.getNodeID': 'normal_state' };
      rows.push({ collector, fault, label: f.name, result, success, during, resultByMethod });
    }
  }
  return rows;
}

/** Index routes answered 404 or "empty": available 0 on every route, no index values. */
export function indexUnavailable(p: ParsedExposition): void {
  const avail = find(p, 'avax_index_available');
  expect(avail.map((s) => `${s.labels['chain']}/${s.labels['kind']}=${s.value}`).sort()).toEqual(['C/block=0', 'P/block=0', 'X/block=0']);
  expect(find(p, 'avax_index_last_accepted_index')).toEqual([]);
  expect(find(p, 'avax_index_last_accepted_timestamp_seconds')).toEqual([]);
}

export const TARGET = 'fault';

/**
 * Node deadline of the rows whose fault is a timeout. The other rows never wait for a deadline,
 * and use a longer one so that a loaded machine (CI, parallel test files) cannot make a good
 * answer late.
 */
export const SLOW_NODE_TIMEOUT = '200ms';
export const NODE_TIMEOUT = '2s';

/** Exporter flags of the matrix: node deadline, 1 s collector deadline, 64 KiB cap, every collector every cycle. */
export function matrixArgv(nodeUrl: string, extra: string[] = [], nodeTimeout = NODE_TIMEOUT): string[] {
  return [
    '--node.url', nodeUrl,
    '--node.name', TARGET,
    '--node.timeout', nodeTimeout,
    '--node.max-response-size', '64KiB',
    // Every default interval (15 s-5 m) rounds up to the 5 m base: every collector runs every cycle.
    '--collection.interval', '5m',
    '--collection.timeout', '1s',
    '--web.listen-address', '127.0.0.1:0',
    '--web.disable-exporter-metrics',
    ...extra,
  ];
}

export interface Scraped extends ParsedExposition {
  readonly text: string;
}

export async function scrapeParsed(baseUrl: string): Promise<Scraped> {
  const r = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  const text = await r.text();
  return { text, ...parseExposition(text) };
}

type Counts = Map<string, Map<string, number>>;

export function rpcCounts(p: ParsedExposition): Counts {
  const out: Counts = new Map();
  for (const s of find(p, 'avax_rpc_requests_total', { target: TARGET })) {
    const m = s.labels['method']!;
    if (!out.has(m)) out.set(m, new Map());
    out.get(m)!.set(s.labels['result']!, s.value);
  }
  return out;
}

function delta(after: Counts, before: Counts, method: string, result?: string): number {
  const sum = (c: Counts) => {
    const m = c.get(method);
    if (!m) return 0;
    if (result) return m.get(result) ?? 0;
    let n = 0;
    for (const v of m.values()) n += v;
    return n;
  };
  return sum(after) - sum(before);
}

/** No label value and no collector value anywhere in /metrics carries the marker of a bad answer. */
export function expectNoMarker(p: ParsedExposition): void {
  const runner = new Set(DESCRIPTORS.filter((d) => d.collector === 'runner').map((d) => d.name));
  const leaks = p.samples.filter((s) => {
    const fam = familyName(s.name, p.families);
    return Object.values(s.labels).some((v) => v.includes(MARKER)) || (!runner.has(fam) && String(s.value).includes(MARKER));
  });
  expect(leaks.map((s) => `${s.name} ${JSON.stringify(s.labels)} ${s.value}`)).toEqual([]);
}

async function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(t);
  }
}

/** One cycle (optionally with a scrape while it runs: the server answers from the last snapshot), then a scrape after it. */
async function cycle(exp: Exporter, scrapeWhileRunning = false): Promise<Scraped> {
  const running = exp.collectOnce();
  if (scrapeWhileRunning) await scrapeParsed(exp.url);
  await bounded(running, 5_000, 'collection cycle');
  const p = await scrapeParsed(exp.url);
  expectNoMarker(p);
  return p;
}

function successOf(p: ParsedExposition): Record<string, number | undefined> {
  return Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, value(p, 'avax_collector_success', { target: TARGET, collector: c })]));
}

/** The collector_failed lines, for assertion messages. */
function failures(lines: Record<string, unknown>[]): string {
  return events(lines, 'collector_failed')
    .map((l) => `${String(l['collector'])}: ${String(l['err'])}`)
    .join('\n');
}

function events(lines: Record<string, unknown>[], event: string): Record<string, unknown>[] {
  return lines.filter((l) => l['event'] === event);
}

/**
 * Runs one matrix row against a fresh exporter: a good cycle, three cycles with the fault, one
 * good cycle again. Checks /metrics (served and valid in every cycle, promtool once), success
 * per collector, the `result` of every faulted request, one log line per state change, recovery,
 * and that nothing of the bad answers is exported.
 */
export async function runFaultRow(node: FaultNode, row: Row, extraArgv: string[] = []): Promise<void> {
  const f: FaultDef = FAULTS[row.fault];
  const nodeWide = !!f.nodeWide;
  const log = memoryLogger('info');
  const { config } = loadConfig({ argv: matrixArgv(node.url, extraArgv, f.slow ? SLOW_NODE_TIMEOUT : NODE_TIMEOUT), env: {} });
  const exp = await startExporter({ config, logger: log.logger, schedule: false });
  node.clearFault();
  try {
    // Good cycle: every collector succeeds and exports its series.
    const base = await cycle(exp);
    expect(successOf(base), failures(log.lines())).toEqual(Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, 1])));
    const own = familiesOf(row.collector);
    const baseFamilies = own.filter((n) => base.families.has(n)).sort();
    expect(baseFamilies.length, `baseline exports ${row.collector} series`).toBeGreaterThan(0);
    const before = rpcCounts(base);

    // Fault.
    node.faulted.clear();
    if (nodeWide) await node.stop();
    else node.setFault(row.match ?? ROUTES[row.collector]!, (row.handler ?? f.handler)!);
    let linesAfterFirst = 0;
    let last: Scraped | undefined;
    for (let i = 1; i <= 3; i++) {
      const p = await cycle(exp, i === 1);
      last = p;
      const success = successOf(p);
      expect(success[row.collector], `cycle ${i}: success of ${row.collector}`).toBe(row.success);
      if (nodeWide) {
        expect(Object.values(success).every((v) => v === 0), `cycle ${i}: node-wide fault fails every collector`).toBe(true);
        expect(value(p, 'avax_up', { target: TARGET })).toBe(0);
      } else {
        for (const c of COLLECTOR_NAMES) if (c !== row.collector) expect(success[c], `cycle ${i}: ${c} is not affected; ${failures(log.lines())}`).toBe(1);
        expect(value(p, 'avax_up', { target: TARGET })).toBe(1);
      }
      if (row.during) row.during(p);
      else for (const fam of own) expect(p.families.has(fam), `cycle ${i}: ${fam} is not exported during the fault`).toBe(false);
      const mine = log.lines().filter((l) => l['collector'] === row.collector);
      if (i === 1) linesAfterFirst = mine.length;
      else expect(mine.length, `cycle ${i}: no new log line of ${row.collector} (one per state change)`).toBe(linesAfterFirst);
    }
    expect(promtoolCheck(last!.text)).toMatch(/ok|skipped/);

    // Counted under the right result.
    const after = rpcCounts(last!);
    if (nodeWide) {
      let total = 0;
      for (const m of after.keys()) {
        const d = delta(after, before, m);
        total += d;
        expect(delta(after, before, m, f.result), `${m}: every request is ${f.result}`).toBe(d);
      }
      expect(total).toBeGreaterThanOrEqual(3 * COLLECTOR_NAMES.length);
    } else {
      expect(node.faulted.size, 'the fault was served').toBeGreaterThan(0);
      const resultOf = (m: string) => row.resultByMethod?.[m] ?? row.result;
      for (const [m, n] of node.faulted) {
        expect(n).toBeGreaterThanOrEqual(3);
        expect(delta(after, before, m, resultOf(m)), `${m}: ${n} faulted requests counted as ${resultOf(m)}`).toBe(n);
      }
      // Everything else answered ok.
      for (const m of after.keys()) {
        const failedHere = resultOf(m) === 'ok' ? 0 : (node.faulted.get(m) ?? 0);
        expect(delta(after, before, m) - delta(after, before, m, 'ok'), `${m}: no other failures`).toBe(failedHere);
      }
    }

    // One log line for the state change (none when tolerated), nothing for the others.
    const failed = events(log.lines(), 'collector_failed');
    const expectedFailed = nodeWide ? COLLECTOR_NAMES : row.success === 0 ? [row.collector] : [];
    expect(failed.map((l) => l['collector']).sort()).toEqual([...expectedFailed].sort());
    if (!nodeWide && row.success === 0) expect(failed[0]!['result']).toBe(row.result);

    // Recovery on the next good answer.
    node.clearFault();
    if (nodeWide) await node.start();
    const rec = await cycle(exp);
    expect(successOf(rec), failures(log.lines())).toEqual(Object.fromEntries(COLLECTOR_NAMES.map((c) => [c, 1])));
    expect(own.filter((n) => rec.families.has(n)).sort()).toEqual(baseFamilies);
    const recovered = events(log.lines(), 'collector_recovered').map((l) => l['collector']);
    expect(recovered.sort()).toEqual([...expectedFailed].sort());
    if (row.collector === 'index-last-accepted') expect(find(rec, 'avax_index_available').every((s) => s.value === 1)).toBe(true);
  } finally {
    node.clearFault();
    if (nodeWide) await node.start().catch(() => {});
    await exp.stop();
  }
}

/** One throw-away cycle, so that the first row does not pay for module loading and JIT warm-up. */
export async function warmUp(nodeUrl: string): Promise<void> {
  const { config } = loadConfig({ argv: matrixArgv(nodeUrl, [], '5s'), env: {} });
  const exp = await startExporter({ config, logger: memoryLogger('silent').logger, schedule: false });
  await exp.collectOnce();
  await exp.stop();
}

// ---------------------------------------------------------------------------------------------
// Mutated node answers (property tests)

/**
 * Strings that break naive code: escaping (quotes, backslashes, newlines, an injected sample),
 * non-ASCII and lone surrogates (JSON can carry "\ud800"), NaN-like and huge numerals, bad times.
 */
export const NASTY_STRINGS: readonly string[] = [
  '', ' ', '"', '\\', '\n', '\r\n', '\\n', '\\"', 'a"b\\c\nd', '"}\nfake_metric{a="b"} 1\n# TYPE x gauge', '} 1\n',
  'ünïcödé', '日本語', '😀', 'e\u0301', '\u202e', '\ud800', '\udfff', '\u0000', '\u2028', '\t', '\u00a0',
  'NaN', '-NaN', 'Infinity', '-Infinity', '+Inf', '1e309', '-1e309', '-0', '0x', '0x1g', '-1', '1.5', ' 42', '42 ',
  '18446744073709551616', '99999999999999999999999', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999+23:59',
  '2026-02-30T00:00:00Z', 'null', 'true', '__proto__', 'constructor',
];

const LONG = 'x'.repeat(70_000);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('"', '\\', '\n', 'n', 'é', '😀', '{', '}', ',', '=', ' ', 'a', '#'), maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constant(LONG) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, -1.5, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, -(2 ** 63)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

const DROP = Symbol('drop');

/** How often (weight against 100) each kind of mutation happens at each node of an answer. */
export interface MutationRates {
  /** A leaf replaced by a nasty value or retyped; an object or array replaced by a leaf. */
  readonly leaf: number;
  /** An object field dropped or renamed (health check names, VM names), an unknown field added. */
  readonly field: number;
  /** An array losing elements or having them twice (the same peer twice). */
  readonly array: number;
}

/**
 * A mutation of a JSON value. Separate rates give answers that are still valid but odd in one
 * way (only duplicated elements, only renamed keys, only nasty strings), as well as broken ones.
 */
export function mutated(v: unknown, r: MutationRates, depth = 0): fc.Arbitrary<unknown> {
  const keep = fc.constant(v);
  if (depth > 8 || (r.leaf === 0 && r.field === 0 && r.array === 0)) return keep;
  const w = (weight: number, arbitrary: fc.Arbitrary<unknown>) => ({ weight, arbitrary });
  if (Array.isArray(v)) {
    const elems = fc.tuple(...v.map((x) => mutated(x, r, depth + 1)));
    return fc.oneof(
      w(100, elems),
      w(r.array, elems.chain((a) => fc.subarray(a))),
      w(r.array, elems.map((a) => [...a, ...a])),
      w(r.leaf, nastyValue),
      w(r.leaf, fc.constant(null)),
    );
  }
  if (v !== null && typeof v === 'object') {
    const fields = Object.entries(v).map(
      ([k, x]) =>
        fc.tuple(fc.oneof(w(100, fc.constant(k)), w(r.field, nastyString)), fc.oneof(w(100, mutated(x, r, depth + 1)), w(r.field, fc.constant(DROP)))) as fc.Arbitrary<
          [string, unknown]
        >,
    );
    const extra = fc.oneof(w(100, fc.constant(undefined)), w(r.field, fc.tuple(nastyString, nastyValue))) as fc.Arbitrary<[string, unknown] | undefined>;
    const obj = fc.tuple(fc.tuple(...fields), extra).map(([fs, x]) => {
      const out: Record<string, unknown> = {};
      for (const [k, val] of [...fs, ...(x ? [x] : [])]) if (val !== DROP) Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
      return out;
    });
    return fc.oneof(w(100, obj), w(r.leaf, nastyValue), w(r.leaf, fc.constant(null)));
  }
  if (typeof v === 'string') {
    return fc.oneof(w(100, keep), w(3 * r.leaf, nastyString), w(r.leaf, nastyString.map((n) => v + n)), w(r.leaf, nastyNumber), w(r.leaf, nastyValue));
  }
  if (typeof v === 'number') {
    return fc.oneof(w(100, keep), w(2 * r.leaf, nastyNumber), w(r.leaf, fc.constant(String(v))), w(r.leaf, nastyString), w(r.leaf, nastyValue));
  }
  return fc.oneof(w(100, keep), w(r.leaf, nastyValue), w(r.leaf, fc.constant(String(v))));
}

const RATES: readonly MutationRates[] = [
  { leaf: 0, field: 0, array: 0 },
  { leaf: 2, field: 0, array: 0 },
  { leaf: 8, field: 0, array: 0 },
  { leaf: 25, field: 0, array: 0 },
  { leaf: 0, field: 10, array: 0 },
  { leaf: 0, field: 0, array: 100 },
  { leaf: 3, field: 3, array: 10 },
  { leaf: 20, field: 20, array: 20 },
];

/** What a node may send back: mutations of every fixture of `method`, through JSON (as on the wire). */
export function mutatedAnswer(method: string): fc.Arbitrary<unknown> {
  const cases = fixtureNames(method);
  return fc
    .tuple(fc.constantFrom(...cases), fc.constantFrom(...RATES))
    .chain(([c, rates]) => mutated(fixtureResult(method, c), rates))
    .map((x) => (x === undefined ? null : JSON.parse(JSON.stringify(x))));
}

/** A label value as it comes out of the exposition bytes (UTF-8: lone surrogates become U+FFFD). */
export function wireString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/**
 * Renders samples like the runner does (`target` label added, label values made well-formed,
 * repeated series dropped), assembles the exposition, takes it through UTF-8 bytes, parses it,
 * and checks that every series comes back with its labels and value. Returns the text.
 */
export function renderRoundTrip(samples: readonly Sample[], target = TARGET): string {
  const withTarget = wellFormedUnique(samples, target);
  const seg = new TargetSegment(withTarget);
  expect(seg.unknown).toEqual([]);
  const e = new Exposition();
  e.setTarget(target, seg);
  const text = wireString(e.assemble().text);
  const parsed = parseExposition(text);
  expect(parsed.samples.length).toBe(withTarget.length);
  const byKey = new Map(parsed.samples.map((s) => [seriesKey(s.name, s.labels), s.value]));
  for (const s of withTarget) {
    const got = byKey.get(seriesKey(s.name, s.labels));
    expect(got, `${s.name} ${JSON.stringify(s.labels).slice(0, 200)} round-trips`).toBeDefined();
    if (Number.isNaN(s.value)) expect(got).toBeNaN();
    else expect(got).toBe(s.value === 0 ? 0 : s.value);
  }
  // Every input series is there, its label values as UTF-8 carries them.
  for (const s of samples) {
    const labels = Object.fromEntries(Object.entries({ target, ...s.labels }).map(([k, v]) => [k, wireString(v)]));
    expect(byKey.has(seriesKey(s.name, labels)), `${s.name} ${JSON.stringify(labels).slice(0, 200)} is exported`).toBe(true);
  }
  return text;
}
