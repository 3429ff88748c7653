// avalanchego's JSON-RPC layer (gorilla/rpc v2 json2 wrapped by utils/json/codec.go),
// reproduced on the wire: envelope checks, error codes and texts, notifications,
// raw id echo, key order and Go-style escaping (the avalanchego source, v1.14.2).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { isValidId, isValidNodeId } from './avalanche-ids.js';
import { escapeGoJson, goJson, goQuote } from './go-format.js';
import { compactRaw, decodeFirst, type Member } from './go-json-decoder.js';

export const ARG_ERROR =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** A method error: answered as code -32000 with this message. */
export class RpcError extends Error {}

/** A result that is already serialized JSON (used for large cached answers). */
export class RawJson {
  constructor(readonly json: string) {}
}

export type MethodFn = (args: Args) => unknown;
/** One service's methods: Go method name (e.g. "GetNodeID") -> implementation. */
export type Service = Record<string, MethodFn>;
/** service name (e.g. "info") -> its methods */
export type Services = Record<string, Service>;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** the decoded result, for scenarios that corrupt answers */
  ok?: boolean;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/** Decoded params with Go encoding/json semantics (case-insensitive field names). */
export class Args {
  constructor(private readonly obj: Record<string, unknown>) {}

  private get(name: string): unknown {
    if (Object.prototype.hasOwnProperty.call(this.obj, name)) return this.obj[name];
    const lower = name.toLowerCase();
    let found: unknown = undefined;
    for (const k of Object.keys(this.obj)) if (k.toLowerCase() === lower) found = this.obj[k];
    return found;
  }

  /** string field; absent or null -> '' */
  str(name: string): string {
    const v = this.get(name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new RpcError(ARG_ERROR);
    return v;
  }

  /** ids.ID field; absent or null -> null; invalid -> argument error */
  id(name: string): string | null {
    const v = this.get(name);
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || !isValidId(v)) throw new RpcError(ARG_ERROR);
    return v;
  }

  /** []ids.NodeID field; absent or null -> null */
  nodeIds(name: string): string[] | null {
    const v = this.get(name);
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v)) throw new RpcError(ARG_ERROR);
    for (const x of v) if (typeof x !== 'string' || !isValidNodeId(x)) throw new RpcError(ARG_ERROR);
    return v as string[];
  }

  /** []string field */
  strings(name: string): string[] {
    const v = this.get(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RpcError(ARG_ERROR);
    return v as string[];
  }

  /** json.Uint64: a number or a decimal string; absent -> null */
  uint(name: string): number | null {
    const v = this.get(name);
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
    if (typeof v === 'string' && /^[0-9]+$/.test(v)) return Number(v);
    throw new RpcError(ARG_ERROR);
  }

  raw(name: string): unknown {
    return this.get(name);
  }
}

function decodeParams(p: unknown): Args {
  if (p === undefined || p === null) return new Args({});
  if (Array.isArray(p)) {
    if (p.length === 0 || p[0] === null) return new Args({});
    if (typeof p[0] === 'object' && !Array.isArray(p[0])) return new Args(p[0] as Record<string, unknown>);
    throw new RpcError(ARG_ERROR);
  }
  if (typeof p === 'object') return new Args(p as Record<string, unknown>);
  throw new RpcError(ARG_ERROR);
}

function errorBody(code: number, message: string, dataJson: string, idJson: string): string {
  return `{"jsonrpc":"2.0","error":{"code":${code},"message":${escapeGoJson(goQuote(message))},"data":${dataJson}},"id":${idJson}}\n`;
}

const EMPTY_REQUEST = '{"jsonrpc":"","method":"","params":null,"id":null}';

function kindName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string, number, object
}

function isUpperRune(c: string): boolean {
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

/**
 * Handles one POST body on an avalanchego JSON-RPC endpoint (after the HTTP
 * method and Content-Type checks, which the server does).
 */
export function handleRpcBody(body: string, services: Services): HttpAnswer {
  const dec = decodeFirst(body);
  if (!dec.ok) {
    return { status: 200, headers: { ...JSON_HEADERS }, body: errorBody(-32700, dec.error, EMPTY_REQUEST, 'null') };
  }
  if (dec.kind === 'null') {
    // Decoding null into the request struct is a no-op: empty version -> -32600, no id -> no answer.
    return { status: 200, headers: {}, body: '' };
  }
  if (dec.kind !== 'object') {
    const msg = `json: cannot unmarshal ${dec.kind} into Go value of type json2.serverRequest`;
    return { status: 200, headers: { ...JSON_HEADERS }, body: errorBody(-32700, msg, EMPTY_REQUEST, 'null') };
  }

  // Go matches field names case-insensitively; the last occurrence wins.
  const pick = (name: string): Member | undefined => {
    let m: Member | undefined;
    for (const x of dec.members) if (x.key.toLowerCase() === name) m = x;
    return m;
  };
  const mVersion = pick('jsonrpc');
  const mMethod = pick('method');
  const mParams = pick('params');
  const mId = pick('id');

  const version = mVersion && typeof mVersion.value === 'string' ? mVersion.value : '';
  const method = mMethod && typeof mMethod.value === 'string' ? mMethod.value : '';
  const paramsJson = mParams && mParams.raw !== 'null' ? compactRaw(mParams.raw) : 'null';
  const idJson = mId && mId.raw !== 'null' ? compactRaw(mId.raw) : null;

  for (const [m, field] of [
    [mVersion, 'jsonrpc'],
    [mMethod, 'method'],
  ] as const) {
    if (m && m.value !== null && typeof m.value !== 'string') {
      const msg = `json: cannot unmarshal ${kindName(m.value)} into Go struct field serverRequest.${field} of type string`;
      const data = `{"jsonrpc":${goJson(version)},"method":${goJson(method)},"params":${paramsJson},"id":${idJson ?? 'null'}}`;
      return { status: 200, headers: { ...JSON_HEADERS }, body: errorBody(-32700, msg, data, 'null') };
    }
  }

  if (version !== '2.0') {
    if (idJson === null) return { status: 200, headers: {}, body: '' };
    const data = `{"jsonrpc":${goJson(version)},"method":${goJson(method)},"params":${paramsJson},"id":${idJson}}`;
    return { status: 200, headers: { ...JSON_HEADERS }, body: errorBody(-32600, 'jsonrpc must be 2.0', data, idJson) };
  }

  const answerError = (message: string): HttpAnswer =>
    idJson === null
      ? { status: 200, headers: {}, body: '' }
      : { status: 200, headers: { ...JSON_HEADERS }, body: errorBody(-32000, message, 'null', idJson) };

  // utils/json/codec.go: the first letter after the dot must be lower case; it is upper-cased.
  let goMethod = method;
  const sections = method.split('.');
  if (sections.length >= 2) {
    const cls = sections[0] as string;
    const fn = method.slice(cls.length + 1);
    const first = [...fn][0];
    if (first !== undefined) {
      if (isUpperRune(first)) return answerError('method must start with a non-uppercase letter');
      goMethod = `${cls}.${first.toUpperCase()}${fn.slice(first.length)}`;
    }
  }
  const parts = goMethod.split('.');
  if (parts.length !== 2) return answerError(`rpc: service/method request ill-formed: ${goQuote(goMethod)}`);
  const service = services[parts[0] as string];
  if (!service || !Object.prototype.hasOwnProperty.call(services, parts[0] as string)) {
    return answerError(`rpc: can't find service ${goQuote(goMethod)}`);
  }
  const fn = Object.prototype.hasOwnProperty.call(service, parts[1] as string) ? service[parts[1] as string] : undefined;
  if (!fn) return answerError(`rpc: can't find method ${goQuote(goMethod)}`);

  let result: unknown;
  try {
    const args = decodeParams(mParams ? mParams.value : undefined);
    result = fn(args);
  } catch (e) {
    return answerError(e instanceof Error ? e.message : String(e));
  }
  if (idJson === null) return { status: 200, headers: { 'X-Content-Type-Options': 'nosniff' }, body: '' };
  const resultJson = result instanceof RawJson ? escapeGoJson(result.json) : goJson(result);
  return {
    status: 200,
    headers: { ...JSON_HEADERS, 'X-Content-Type-Options': 'nosniff' },
    body: `{"jsonrpc":"2.0","result":${resultJson},"id":${idJson}}\n`,
    ok: true,
  };
}
