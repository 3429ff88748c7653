// The C-chain's geth-style JSON-RPC on /ext/bc/C/rpc (coreth): a different
// envelope from avalanchego's own APIs (key order jsonrpc, id, result; batches
// allowed; -32601 for unknown methods; hex quantities).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
import { derivedBytes } from './deterministic-random.js';
import type { HttpAnswer } from './json-rpc-envelope.js';
import type { NodeModel } from './node-model.js';

const HEADERS = { 'Content-Type': 'application/json' };
const ACCEPTED_TYPES = ['application/json', 'application/json-rpc', 'application/jsonrequest'];

const hex = (n: number): string => '0x' + n.toString(16);

/** Geth's HTTP-level checks. Returns an answer when the request is rejected. */
export function ethPrecheck(method: string, contentType: string | undefined, bodyLength: number): HttpAnswer | null {
  if (method === 'GET' && bodyLength === 0) return { status: 200, headers: {}, body: '' };
  if (method === 'PUT' || method === 'DELETE') {
    return { status: 405, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'method not allowed\n' };
  }
  const mt = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!ACCEPTED_TYPES.includes(mt)) {
    return {
      status: 415,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: 'invalid content type, only application/json is supported\n',
    };
  }
  return null;
}

function blockObject(m: NodeModel, h: number): Record<string, unknown> {
  const ts = Math.floor(m.acceptedAtMs('C', h) / 1000);
  return {
    baseFeePerGas: '0x5d21dba00',
    difficulty: '0x1',
    extraData: '0x',
    gasLimit: '0xe4e1c0',
    gasUsed: hex(21000 * (h % 40)),
    hash: '0x' + derivedBytes(`cblk/${m.seed}/${h}`, 32).toString('hex'),
    miner: '0x0100000000000000000000000000000000000000',
    number: hex(h),
    parentHash: '0x' + derivedBytes(`cblk/${m.seed}/${h - 1}`, 32).toString('hex'),
    timestamp: hex(ts),
    transactions: [],
  };
}

function callOne(m: NodeModel, req: unknown): Record<string, unknown> | null {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) {
    return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } };
  }
  const r = req as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(r, 'id') && r['id'] !== null;
  const id = hasId ? r['id'] : null;
  const method = r['method'];
  if (typeof method !== 'string' || r['jsonrpc'] !== '2.0') {
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } };
  }
  let result: unknown;
  switch (method) {
    case 'eth_blockNumber':
      result = hex(m.height('C'));
      break;
    case 'eth_chainId':
      result = '0xa86a';
      break;
    case 'net_version':
      result = '43114';
      break;
    case 'eth_syncing':
      result = false;
      break;
    case 'web3_clientVersion':
      result = 'v1.14.2';
      break;
    case 'eth_getBlockByNumber': {
      const p = Array.isArray(r['params']) ? (r['params'] as unknown[]) : [];
      const tag = p[0];
      const cur = m.height('C');
      let h: number | null = null;
      if (tag === 'latest' || tag === 'pending' || tag === 'accepted' || tag === undefined) h = cur;
      else if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) h = parseInt(tag.slice(2), 16);
      else return { jsonrpc: '2.0', id, error: { code: -32602, message: 'invalid argument 0: hex string without 0x prefix' } };
      result = h !== null && h <= cur ? blockObject(m, h) : null;
      break;
    }
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
  }
  if (!hasId) return null; // notification
  return { jsonrpc: '2.0', id, result };
}

export function handleEthBody(m: NodeModel, body: string): HttpAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {
      status: 200,
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }) + '\n',
    };
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) {
      return {
        status: 200,
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } }) + '\n',
      };
    }
    const out = parsed.map((x) => callOne(m, x)).filter((x): x is Record<string, unknown> => x !== null);
    return { status: 200, headers: HEADERS, body: out.length ? JSON.stringify(out) + '\n' : '', ok: true };
  }
  const one = callOne(m, parsed);
  if (!one) return { status: 200, headers: {}, body: '' };
  return { status: 200, headers: HEADERS, body: JSON.stringify(one) + '\n', ok: !('error' in one) };
}
