import type { AnswerSchema } from './call.js';
import { parseJsonInPieces } from './json-in-pieces.js';
import { type BodyContext, htmlSummary, InvalidResponseError, notAnApi, RpcError, SchemaError } from './errors.js';

/**
 * Reading JSON answers: the body as JSON, the JSON-RPC 2.0 envelope as avalanchego sends it
 * (docs/avalanchego-wire.md §1, §7), and the result against the call's schema. Pure: text in, value or a
 * NodeClientError out; `redact` cuts credentials out of anything quoted from the body.
 */

export function parseJson(method: string, res: { status: number; text: string; chunks?: readonly Buffer[] }, redact: (s: string) => string, context: BodyContext): unknown {
  // A big answer in pieces of at most 64 KB, never one string above 128 KB (json-in-pieces.ts); anything it does not read, as one text.
  const inPieces = res.chunks ? parseJsonInPieces(res.chunks) : undefined;
  if (inPieces !== undefined) return inPieces;
  const text = res.text;
  if (text.trim() === '') throw new InvalidResponseError(method, 'empty body');
  try {
    return JSON.parse(text);
  } catch (cause) {
    // V8 quotes a piece of the body in the SyntaxError message.
    const msg = cause instanceof Error ? cause.message : String(cause);
    const clean = redact(msg);
    // An HTML page where JSON was expected: a web server or proxy answers at this URL, not avalanchego.
    const summary = htmlSummary(text.slice(0, 64 * 1024), context.contentType);
    const html = summary === undefined ? undefined : redact(summary);
    const reason = html ? `HTTP ${res.status} with ${html} instead of JSON${notAnApi(context.expected)}` : 'body is not JSON';
    throw new InvalidResponseError(method, reason, { cause: clean === msg ? cause : new SyntaxError(clean) });
  }
}

/** The `result` of a JSON-RPC 2.0 answer to request `id`, or the RpcError it carries. */
export function envelopeResult(method: string, json: unknown, id: number, redact: (s: string) => string): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidResponseError(method, 'not a JSON-RPC object');
  const env = json as Record<string, unknown>;
  if (env['jsonrpc'] !== '2.0') throw new InvalidResponseError(method, 'jsonrpc is not "2.0"');
  const hasError = env['error'] !== undefined && env['error'] !== null;
  // JSON-RPC 2.0: an error answer carries "id": null when the request could not be read
  // (avalanchego's -32700 parse error does exactly that).
  const idOk = env['id'] === id || env['id'] === String(id) || (hasError && env['id'] === null);
  if (!idOk) throw new InvalidResponseError(method, `id mismatch (sent ${id})`);
  if (hasError) {
    const e = env['error'] as Record<string, unknown>;
    if (typeof e !== 'object' || typeof e['code'] !== 'number' || typeof e['message'] !== 'string') {
      throw new InvalidResponseError(method, 'malformed error object');
    }
    throw new RpcError(method, e['code'], redact(e['message']));
  }
  if (!('result' in env)) throw new InvalidResponseError(method, 'neither result nor error');
  return env['result'];
}

/** The value against the call's schema; the first three issues name what is wrong where. */
export function validate<T>(method: string, schema: AnswerSchema<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new SchemaError(method, issues, { cause: parsed.error });
  }
  return parsed.data;
}
