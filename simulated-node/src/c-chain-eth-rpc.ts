// The C-chain's geth-style JSON-RPC on /ext/bc/C/rpc (Coreth; SAE's RPC once the C-Chain runs SAE, 1.15.0 after
// Helicon: sae-execution.ts): a different envelope from avalanchego's own APIs (key order jsonrpc, id, result;
// batches allowed; -32601 for unknown methods; hex quantities).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { derivedBytes } from './deterministic-random.js';
import type { HttpAnswer } from './json-rpc-envelope.js';
import type { NodeModel } from './node-model.js';
import { BASE_FEE_WEI, GAS_TARGET, blockTimeMs, chargedGas, executedHeight, saeActive, saeState, settledHeight, txCount, worstCaseGas } from './sae-execution.js';

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

const blockHash = (m: NodeModel, h: number): string => '0x' + derivedBytes(`cblk/${m.seed}/${h}`, 32).toString('hex');

function blockObject(m: NodeModel, h: number): Record<string, unknown> {
  const ts = Math.floor(m.acceptedAtMs('C', h) / 1000);
  return {
    baseFeePerGas: '0x5d21dba00',
    difficulty: '0x1',
    extraData: '0x',
    gasLimit: '0xe4e1c0',
    gasUsed: hex(21000 * (h % 40)),
    hash: blockHash(m, h),
    miner: '0x0100000000000000000000000000000000000000',
    number: hex(h),
    parentHash: blockHash(m, h - 1),
    timestamp: hex(ts),
    transactions: [],
  };
}

const ZERO32 = '0x' + '0'.repeat(64);
/** The root of an empty trie (no transactions, no receipts) and the hash of no uncles. */
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_UNCLES = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
const derived = (label: string): string => '0x' + derivedBytes(label, 32).toString('hex');

/**
 * A block of the C-Chain under SAE as its RPC marshals it (members sorted: geth marshals a map), in the recorded
 * v1.15.0 node's shape: the SAE header fields (`settledHeight`, … the block's claim on settlement), the gas limit
 * of a block (ω_B = R·Tau·Lambda = 2 × 1e6 × 5 × 2), `gasUsed` = its worst-case gas. `pending` (the last executed
 * block by default) has no hash, miner or nonce.
 */
function saeBlockObject(m: NodeModel, h: number, pending: boolean): Record<string, unknown> {
  const ms = blockTimeMs(m, h);
  const n = txCount(h);
  const settled = settledHeight(m, h, h - 1);
  const settledMs = blockTimeMs(m, settled) + Math.floor(chargedGas(settled) / (2 * GAS_TARGET / 1000));
  return {
    baseFeePerGas: hex(BASE_FEE_WEI),
    blobGasUsed: '0x0',
    blockExtraData: '0x',
    blockGasCost: '0x0',
    difficulty: '0x0',
    excessBlobGas: '0x0',
    extDataGasUsed: '0x0',
    extDataHash: ZERO32,
    extraData: '0x',
    gasLimit: hex(2 * GAS_TARGET * 10),
    gasUsed: hex(worstCaseGas(h)),
    hash: pending ? null : blockHash(m, h),
    logsBloom: '0x' + '0'.repeat(512),
    // ACP-226: e^(excess / 2^20) ms, 2 s (the simulated C-Chain's block every 2 s)
    minDelayExcess: '0x799d4c',
    minPriceExponent: '0x0',
    miner: pending ? null : '0x' + '0'.repeat(40),
    mixHash: ZERO32,
    nonce: pending ? null : '0x0000000000000000',
    number: hex(h),
    parentBeaconBlockRoot: ZERO32,
    parentHash: blockHash(m, h - 1),
    receiptsRoot: n ? derived(`crcpt/${m.seed}/${h}`) : EMPTY_ROOT,
    settledExcess: '0x0',
    settledGasNumerator: '0x0',
    settledGasUnix: hex(Math.floor(settledMs / 1000)),
    settledHeight: hex(settled),
    sha3Uncles: EMPTY_UNCLES,
    size: hex(604 + 111 * n),
    stateRoot: derived(`cstate/${m.seed}/${h}`),
    targetExponent: '0x0',
    timestamp: hex(Math.floor(ms / 1000)),
    timestampMilliseconds: hex(ms),
    totalDifficulty: '0x0',
    transactions: Array.from({ length: n }, (_, i) => derived(`ctx/${m.seed}/${h}/${i}`)),
    transactionsRoot: n ? derived(`ctxroot/${m.seed}/${h}`) : EMPTY_ROOT,
    uncles: [],
  };
}

const BAD_TAG = { code: -32602, message: 'invalid argument 0: hex string without 0x prefix' };

/**
 * eth_getBlockByNumber. Coreth: latest, pending and accepted are the last accepted block (v1.15.0's Coreth also
 * safe and finalized: coreth rpc/types.go; the older profiles keep refusing them as before). SAE
 * (blocks.ResolveRPCNumber): latest and pending the last executed block, safe and finalized the last settled one,
 * a number up to the last accepted one that block, a later one null.
 */
function getBlockByNumber(m: NodeModel, tag: unknown): { result: unknown } | { error: typeof BAD_TAG } {
  const number = typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag) ? parseInt(tag.slice(2), 16) : null;
  if (saeActive(m)) {
    const s = saeState(m);
    const named: Record<string, number> = { latest: s.executed, pending: s.executed, safe: s.settled, finalized: s.settled, earliest: 0 };
    const h = tag === undefined ? s.executed : typeof tag === 'string' && tag in named ? named[tag]! : number;
    if (h === null || h === undefined) return { error: BAD_TAG };
    return { result: h <= s.accepted ? saeBlockObject(m, h, tag === 'pending') : null };
  }
  const cur = m.height('C');
  const coreth = ['latest', 'pending', 'accepted', ...(m.profile.saeFromUnix !== null ? ['safe', 'finalized'] : [])];
  const h = tag === undefined || (typeof tag === 'string' && coreth.includes(tag)) ? cur : number;
  if (h === null) return { error: BAD_TAG };
  return { result: h <= cur ? blockObject(m, h) : null };
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
  const sae = saeActive(m);
  let result: unknown;
  switch (method) {
    case 'eth_blockNumber':
      // SAE: the last executed block ("latest"); Coreth: the last accepted one.
      result = hex(sae ? executedHeight(m) : m.height('C'));
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
    case 'eth_gasPrice':
      // SAE's estimate: the base fee and a tip of 1 wei (the recorded 0x34630b8a01 = 225 gwei + 1).
      if (!sae) return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
      result = hex(BASE_FEE_WEI + 1);
      break;
    case 'eth_getBlockByNumber': {
      const p = Array.isArray(r['params']) ? (r['params'] as unknown[]) : [];
      const out = getBlockByNumber(m, p[0]);
      if ('error' in out) return { jsonrpc: '2.0', id, error: out.error };
      result = out.result;
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
