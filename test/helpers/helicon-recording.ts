import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { NetworkError, RpcError } from '../../src/node-client/index.js';

/**
 * The recording of a real auto-renewed validator (avalanchego v1.15.0-fuji-rc.4, Helicon active) through
 * its cycles: test/fixtures/real-node-helicon/ (README there). One folder per point of the timeline, one
 * JSON per exchange as sent (`{request, status, headers, body, recorded_at, elapsed_ms}`, `body` parsed; a
 * stopped node's: `{request, status: null, error, recorded_at}`; `*.raw.json`: a raw block, not an exchange,
 * left out); `n2.*` asked of node2 (the auto-renewed
 * validator), `n1.*` of node1 (the genesis validator). Read as recorded, nothing edited.
 */
export const HELICON_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'real-node-helicon');

/** node2, the auto-renewed validator, and node1, the genesis validator (99.98 % of the stake). */
export const NODE2 = 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ';
export const NODE1 = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

/** The points of the timeline in recording order: run 1, then run 2. */
export const RUN1 = ['p0-before-tx', 'p1-right-after-tx', 'p2-mid-cycle1', 'p3-after-renewal1', 'p3b-mid-cycle2', 'p4-after-renewal2', 'p4b-after-set-period0', 'p5-after-exit', 'p6-final'] as const;
export const RUN2 = ['r2-p1-after-add', 'r2-p2-node2-down', 'r2-p3-after-restart', 'r2-p4-before-cycle-end', 'r2-p5-after-cycle-end'] as const;
export type Point = (typeof RUN1)[number] | (typeof RUN2)[number];

export interface HeliconExchange {
  readonly file: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly recordedAtMs: number;
  /** The JSON-RPC result, when the node answered one. */
  readonly result?: unknown;
  /** The JSON-RPC error the node answered, or the connection error of a stopped node. */
  readonly error?: { readonly code?: number; readonly message: string };
}

function read(point: Point, file: string): HeliconExchange {
  const raw = JSON.parse(readFileSync(join(HELICON_DIR, point, file), 'utf8')) as {
    request?: { body: { method: string; params?: Record<string, unknown> } | null };
    body?: unknown;
    /** A stopped node: the connection error, no status, no body. */
    error?: string;
    recorded_at?: string;
  };
  const base = { file, method: raw.request?.body?.method ?? '', params: raw.request?.body?.params ?? {}, recordedAtMs: Date.parse(raw.recorded_at ?? '') };
  if (typeof raw.error === 'string') return { ...base, error: { message: raw.error } };
  const body = raw.body as { result?: unknown; error?: { code: number; message: string } };
  return body.error ? { ...base, error: body.error } : { ...base, result: body.result };
}

/** Every exchange of `node` ('n1' or 'n2') at `point`. */
export function exchanges(point: Point, node: 'n1' | 'n2' = 'n2'): HeliconExchange[] {
  return readdirSync(join(HELICON_DIR, point))
    .filter((f) => f.startsWith(`${node}.`) && f.endsWith('.json') && !f.endsWith('.raw.json'))
    .sort()
    .map((f) => read(point, f));
}

/** The one exchange of `node` at `point` whose file is `<node>.<name>.json`. */
export function exchange(point: Point, name: string, node: 'n1' | 'n2' = 'n2'): HeliconExchange {
  return read(point, `${node}.${name}.json`);
}

/** A JSON-RPC proposal of a cycle's end: the RewardAutoRenewedValidatorTx of a P-Chain block, as recorded. */
export interface RewardTxOfBlock {
  readonly height: number;
  readonly id: string;
  readonly txID: string;
  readonly timestamp: number;
}

/** The RewardAutoRenewedValidatorTx of every recorded proposal block (pblocks-run1.json, pblocks-run2.json). */
export function rewardTxsOfBlocks(): RewardTxOfBlock[] {
  const out: RewardTxOfBlock[] = [];
  for (const f of ['pblocks-run1.json', 'pblocks-run2.json']) {
    const blocks = JSON.parse(readFileSync(join(HELICON_DIR, f), 'utf8')) as Record<string, { response: { result: { block: { height: number; tx?: { id: string; unsignedTx: { txID?: string; timestamp?: number } } } } } }>;
    for (const b of Object.values(blocks)) {
      const tx = b.response.result.block.tx;
      if (tx?.unsignedTx.txID === undefined || tx.unsignedTx.timestamp === undefined) continue;
      out.push({ height: b.response.result.block.height, id: tx.id, txID: tx.unsignedTx.txID, timestamp: tx.unsignedTx.timestamp });
    }
  }
  return out;
}

/**
 * Answers for test/collectors/fake.ts's fakeClient from what node2 answered at `point`: each JSON-RPC method
 * recorded there, the exchange whose params equal the request's (the recorded error as an RpcError, a
 * stopped node's as a NetworkError). A request of `methods` (or of any method recorded there) that nothing
 * recorded answers is listed in `unrecorded` (and fails: tests assert the list is empty).
 */
export function recordedAnswers(point: Point, methods: readonly string[], node: 'n1' | 'n2' = 'n2'): { answers: Record<string, (params: unknown) => unknown>; unrecorded: string[] } {
  const all = exchanges(point, node).filter((x) => x.method !== '');
  const unrecorded: string[] = [];
  const answers: Record<string, (params: unknown) => unknown> = {};
  for (const method of new Set([...methods, ...all.map((x) => x.method)])) {
    answers[method] = (params: unknown) => {
      const x = all.find((e) => e.method === method && isDeepStrictEqual(e.params, params ?? {}));
      if (x === undefined) {
        unrecorded.push(`${point} ${method} ${JSON.stringify(params)}`);
        return new Error(`not recorded at ${point}: ${method} ${JSON.stringify(params)}`);
      }
      if (x.error?.code !== undefined) return new RpcError(method, x.error.code, x.error.message);
      if (x.error) return new NetworkError(method, 'ECONNREFUSED');
      return x.result;
    };
  }
  return { answers, unrecorded };
}
