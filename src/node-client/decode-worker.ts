import { parentPort } from 'node:worker_threads';
import { DECODERS, type DecoderName } from '../schemas/decoders.js';
import { envelopeResult } from './json-answer.js';

/**
 * A decode worker (decode-pool.ts): a JSON-RPC answer's bytes in, its result read by the named lean
 * reader out, off the exporter's event loop. Only a good answer is decoded here; anything else (not
 * JSON, an RPC error, a wrong shape) comes back as `ok: false` and is decoded again on the main thread,
 * where the one error path of the node client (json-answer.ts, with redaction) names the problem.
 */

export interface DecodeJob {
  readonly job: number;
  readonly decoder: DecoderName;
  readonly method: string;
  /** The JSON-RPC id the request carried. */
  readonly rpcId: number;
  readonly body: Uint8Array;
}

export type DecodeReply = { readonly job: number; readonly ok: true; readonly value: unknown } | { readonly job: number; readonly ok: false };

/** Pure: one job's reply. */
export function decodeJob(j: DecodeJob): DecodeReply {
  try {
    const text = Buffer.from(j.body.buffer, j.body.byteOffset, j.body.byteLength).toString('utf8');
    const result = envelopeResult(j.method, JSON.parse(text), j.rpcId, (s) => s);
    const parsed = DECODERS[j.decoder].safeParse(result);
    return parsed.success ? { job: j.job, ok: true, value: parsed.data } : { job: j.job, ok: false };
  } catch {
    return { job: j.job, ok: false };
  }
}

const port = parentPort;
if (port) port.on('message', (j: DecodeJob) => port.postMessage(decodeJob(j)));
