/**
 * The faults of the fault matrix (what a node or a proxy can send back) and the routes telling which
 * requests belong to which collector.
 */
import { COLLECTORS } from '../../src/collectors/index.js';
import { matchesCall } from '../../src/collectors/define.js';
import type { FaultHandler, RequestInfo } from './fault-node.js';

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
  /**
   * The `result` when it answers a GET API (the Health API, /ext/metrics: the calls that are not
   * JSON-RPC), where the fault is no failure of its own kind: a JSON-RPC envelope is not a health
   * report nor the Prometheus text format.
   */
  readonly resultOnGet?: 'invalid_response';
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
    resultOnGet: 'invalid_response',
    handler: json((req) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `fault injected ${MARKER}`, data: null }, id: req.id ?? 1 })),
  },
  idMismatch: {
    name: 'mismatched id',
    result: 'invalid_response',
    resultOnGet: 'invalid_response',
    handler: async (req, res, upstream) => {
      const u = await upstream();
      let env: Record<string, unknown> | string;
      try {
        env = JSON.parse(u.body) as Record<string, unknown>;
      } catch {
        env = u.body; // a text GET (/ext/metrics)
      }
      // A GET has no id: the health route gets a JSON-RPC envelope instead of a report.
      const out = req.verb === 'POST' && typeof env === 'object' ? { ...env, id: Number(req.id) + 1000 } : { jsonrpc: '2.0', result: env, id: 1000 };
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

/**
 * The requests of each collector, from the calls it declares (defineCollector `calls`):
 * platform-validators and -full share a method, their declared params tell them apart.
 */
export const ROUTES: Record<string, (r: RequestInfo) => boolean> = Object.fromEntries(
  COLLECTORS.map((c) => [c.name, (r: RequestInfo) => matchesCall(c.calls, r)]),
);
