import { HttpError, NodeClientError, RpcError } from './errors.js';

/**
 * A call is a value that says everything about itself (viem's actions): its endpoint, its method, its
 * params, the schema of its answer and the node's NORMAL states in which it has no answer (an older
 * version without the method, an API that is off, a node that is not a validator). Collectors declare
 * their calls in their own files; the runner performs them (collectors/define.ts `ctx.call`), logs
 * each normal state once when it starts and ends, and counts it as `normal_state`; the fault matrix,
 * the method → schema table, the request budget and the docs read the declarations.
 */

/** What the client uses of a schema: a zod schema, or a lean reader (src/schemas/lean.ts). */
export interface AnswerSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** A normal state of the node for a call: no answer, and nothing wrong. */
export interface NormalState {
  /** Recognises the error answer that is this state. */
  readonly when: (err: NodeClientError) => boolean;
  /** What it means and what the exporter does about it: logged once when it starts, and in the docs. */
  readonly says: string;
}

/**
 * Whose answer it is. `node`: this node's own (its health, peers, height, its view of a validator).
 * `network`: the same from every node of one network (the validator set, supply, fees, the chain
 * list): asked once per interval per network of one target that answers, and shared with every
 * target of that network (scheduler/network-answers.ts).
 */
export type CallScope = 'node' | 'network';

interface CallCommon<N extends string> {
  /** The `method` label of avax_rpc_requests_total: the JSON-RPC method, or `GET <path>`. */
  readonly method: string;
  readonly scope: CallScope;
  /** Path prefix of every request of the call (the endpoint, or its fixed part). */
  readonly pathPrefix: string;
  readonly normal: { readonly [K in N]: NormalState };
  /**
   * Tells this call's requests apart from another collector's call of the same method, by their
   * JSON-RPC params (platform-validators passes nodeIDs, the full list does not).
   */
  readonly recognise?: (wireParams: Readonly<Record<string, unknown>>) => boolean;
  /**
   * The node refuses it until its chains are bootstrapped although it is no chain route (a chain route,
   * /ext/bc/... or /ext/index/..., answers 503 until then anyway): a failure then is the bootstrap's, which
   * AvalancheChainNotBootstrapped pages, not the collector's (monitoring/collector-facts.ts).
   */
  readonly untilBootstrapped?: boolean;
}

/** A JSON-RPC call; `P` its typed params. */
export interface RpcCall<P, T, N extends string = never> extends CallCommon<N> {
  readonly kind: 'rpc';
  readonly endpoint: (params: P) => string;
  /** The JSON-RPC params sent (geth-style methods take an array). */
  readonly wire: (params: P) => unknown;
  readonly result: AnswerSchema<T>;
}

/** A GET of the Health API: 200 and 503 both carry the JSON report. */
export interface HealthCall<T, N extends string = never> extends CallCommon<N> {
  readonly kind: 'health';
  readonly path: string;
  readonly result: AnswerSchema<T>;
}

/** A GET of a text body streamed to a sink (the node's Prometheus text at /ext/metrics). */
export interface TextCall<N extends string = never> extends CallCommon<N> {
  readonly kind: 'text';
  readonly path: string;
}

export type Call<P = any, T = any, N extends string = string> = RpcCall<P, T, N> | HealthCall<T, N> | TextCall<N>;

/** What `ctx.call` gives: the value, a declared normal state, or a failure. Never throws. */
export type Answer<T, N extends string = never> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly normal: N; readonly error: NodeClientError }
  | { readonly ok: false; readonly normal?: undefined; readonly error: Error };

/** The params of a text call: the sink of the decoded body and a verdict on the whole of it. */
export interface TextParams {
  readonly sink: (chunk: string) => void;
  /** Called once the body ended: a problem with it (e.g. not one sample line), or undefined. */
  readonly check?: () => string | undefined;
}

type ParamsOf<C> = C extends RpcCall<infer P, any, any> ? P : C extends TextCall<any> ? TextParams : void;
type ValueOf<C> = C extends RpcCall<any, infer T, any> ? T : C extends HealthCall<infer T, any> ? { status: number; body: T } : C extends TextCall<any> ? void : never;
type NormalOf<C> = C extends CallCommon<infer N> ? N : never;
/** The answer type of a call declaration. */
export type AnswerOf<C> = Answer<ValueOf<C>, NormalOf<C>>;
export type { ParamsOf };

/** What a JSON-RPC call declares (see RpcCall), but its normal states. */
interface RpcCallDecl<P, T> {
  method: string;
  endpoint: string | ((params: P) => string);
  /** Fixed part of a computed endpoint (default: the endpoint). */
  pathPrefix?: string;
  /** Default: the params as given, `{}` when none. */
  wire?: (params: P) => unknown;
  result: AnswerSchema<T>;
  recognise?: (wireParams: Readonly<Record<string, unknown>>) => boolean;
  /** Default `node`. */
  scope?: CallScope;
  untilBootstrapped?: boolean;
}

/**
 * A JSON-RPC call. `absent: 'why'` is the one normal state most calls have, the method (or its API)
 * absent on this node: `normal: { absent: absent('why') }` in short.
 */
export function rpcCall<P = void, T = unknown>(d: RpcCallDecl<P, T> & { absent: string; normal?: undefined }): RpcCall<P, T, 'absent'>;
export function rpcCall<P = void, T = unknown, const N extends string = never>(d: RpcCallDecl<P, T> & { normal?: { readonly [K in N]: NormalState }; absent?: undefined }): RpcCall<P, T, N>;
export function rpcCall<P, T, N extends string>(d: RpcCallDecl<P, T> & { normal?: { readonly [K in N]: NormalState }; absent?: string }): RpcCall<P, T, N> {
  const endpoint = typeof d.endpoint === 'string' ? ((fixed: string) => () => fixed)(d.endpoint) : d.endpoint;
  const pathPrefix = d.pathPrefix ?? (typeof d.endpoint === 'string' ? d.endpoint : '/');
  const normal = d.absent !== undefined ? { absent: absent(d.absent) } : (d.normal ?? {});
  return Object.freeze({
    kind: 'rpc',
    method: d.method,
    scope: d.scope ?? 'node',
    endpoint,
    pathPrefix,
    wire: d.wire ?? ((p: P) => (p === undefined ? {} : p)),
    result: d.result,
    normal: normal as { readonly [K in N]: NormalState },
    recognise: d.recognise,
    ...(d.untilBootstrapped ? { untilBootstrapped: true } : {}),
  });
}

export function healthCall<T, const N extends string = never>(d: { path: string; result: AnswerSchema<T>; normal?: { readonly [K in N]: NormalState } }): HealthCall<T, N> {
  return Object.freeze({ kind: 'health', scope: 'node', method: `GET ${d.path}`, path: d.path, pathPrefix: d.path, result: d.result, normal: (d.normal ?? {}) as { readonly [K in N]: NormalState } });
}

export function textCall<const N extends string = never>(d: { path: string; normal?: { readonly [K in N]: NormalState } }): TextCall<N> {
  return Object.freeze({ kind: 'text', scope: 'node', method: `GET ${d.path}`, path: d.path, pathPrefix: d.path, normal: (d.normal ?? {}) as { readonly [K in N]: NormalState } });
}

/** The declared normal state an error is, if any. */
export function normalStateOf(call: Call, err: unknown): string | undefined {
  if (!(err instanceof NodeClientError)) return undefined;
  for (const [name, state] of Object.entries(call.normal) as [string, NormalState][]) {
    try {
      if (state.when(err)) return name;
    } catch {
      // A matcher that throws recognises nothing.
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The normal states most calls share

/** "The method or the API is not there": HTTP 404 (API disabled, route absent) or an unknown method/service. */
export function isNotFound(err: unknown): boolean {
  if (err instanceof HttpError) return err.status === 404;
  if (err instanceof RpcError) return /can't find (method|service)/.test(err.rpcMessage);
  return false;
}

/** The method (or its API) is absent on this node: `why` says when it exists or what turns it on. */
export function absent(why: string): NormalState {
  return { when: isNotFound, says: `not available on this node (${why}): no series from it` };
}

/** A params field this node's version cannot decode (`couldn't unmarshal an argument`, docs/avalanchego-wire.md §7). */
export function isUnreadableParams(err: unknown): boolean {
  return err instanceof RpcError && /couldn't unmarshal an argument/.test(err.rpcMessage);
}

// ---------------------------------------------------------------------------------------------
// Performing a call

/** What performCall needs of the client (the NodeClient; tests pass a fake of the same shape). */
export interface CallTransport {
  rpc<T>(endpoint: string, method: string, params: unknown, schema: AnswerSchema<T>, opts: { signal?: AbortSignal; normal?: (err: NodeClientError) => boolean }): Promise<T>;
  healthGet<T>(path: string, schema: AnswerSchema<T>, opts: { signal?: AbortSignal; normal?: (err: NodeClientError) => boolean }): Promise<{ status: number; body: T }>;
  textGet(path: string, sink: (chunk: string) => void, opts: { signal?: AbortSignal; normal?: (err: NodeClientError) => boolean; check?: () => string | undefined }): Promise<void>;
}

/** Performs a call: its value, its declared normal state, or its failure (never throws). */
export async function performCall<C extends Call>(client: CallTransport, call: C, params: ParamsOf<C>, signal: AbortSignal): Promise<AnswerOf<C>> {
  const normal = (err: NodeClientError) => normalStateOf(call, err) !== undefined;
  try {
    let value: unknown;
    if (call.kind === 'rpc') {
      value = await client.rpc(call.endpoint(params), call.method, call.wire(params), call.result, { signal, normal });
    } else if (call.kind === 'health') {
      value = await client.healthGet(call.path, call.result, { signal, normal });
    } else {
      const p = params as TextParams;
      value = await client.textGet(call.path, p.sink, { signal, normal, check: p.check });
    }
    return { ok: true, value } as AnswerOf<C>;
  } catch (raw) {
    const error = raw instanceof Error ? raw : new Error(String(raw));
    const state = normalStateOf(call, error);
    return (state !== undefined ? { ok: false, normal: state, error } : { ok: false, error }) as AnswerOf<C>;
  }
}

/** The failures among answers (normal states are not failures). */
export function failures(answers: readonly Answer<unknown, string>[]): Error[] {
  const out: Error[] = [];
  for (const a of answers) if (!a.ok && a.normal === undefined) out.push(a.error);
  return out;
}
