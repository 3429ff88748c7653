// The 'garbage' scenario: successful answers of the simulated node replaced in rotation by HTML,
// wrong types (numPeers: true, heights as objects), truncated JSON or result "OK", all HTTP 200.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type { HttpAnswer } from './json-rpc-envelope.js';

/** Wrong types for every value: numbers as objects, hex as numbers, times as 0, booleans as words. */
function mangle(v: unknown, key = ''): unknown {
  if (key === 'numPeers') return true;
  if (key === 'height' || key === 'index') return { value: v };
  if (typeof v === 'string') {
    if (/^[0-9]+(\.[0-9]+)?$/.test(v)) return { value: v };
    if (/^0x[0-9a-f]+$/.test(v)) return Number.parseInt(v.slice(2, 14), 16);
    if (/^\d{4}-\d\d-\d\dT/.test(v)) return 0;
    return v;
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return { length: v.length };
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = mangle(x, k);
    return out;
  }
  return v;
}

/** The i-th corruption (rotating over four kinds) of a successful answer. */
export function garble(a: HttpAnswer, counter: number): HttpAnswer {
  const headers = { ...a.headers, 'Content-Type': a.headers['Content-Type'] ?? 'application/json' };
  // The Prometheus text of /ext/metrics cut in half is still valid text (no client can tell): its
  // garbage is JSON instead, or nothing at all.
  if (/^text\/plain/.test(headers['Content-Type'] ?? '') && counter % 4 >= 2) {
    return { status: 200, headers, body: counter % 4 === 2 ? '' : '{"checks":"all good","healthy":"true"}\n' };
  }
  switch (counter % 4) {
    case 0:
      return { status: 200, headers, body: '<html><body><h1>502 Bad Gateway</h1></body></html>\n' };
    case 1: {
      try {
        const parsed = JSON.parse(a.body) as Record<string, unknown>;
        let out = 'result' in parsed ? { ...parsed, result: mangle(parsed['result']) } : mangle(parsed);
        // Nothing to mangle (e.g. info.acps {"acps":{}}): wrong types all the same, the result in an array.
        if (JSON.stringify(out) === JSON.stringify(parsed)) out = 'result' in parsed ? { ...parsed, result: [parsed['result']] } : [parsed];
        return { status: 200, headers, body: JSON.stringify(out) + '\n' };
      } catch {
        return { status: 200, headers, body: '{"jsonrpc":"2.0","result":true}\n' };
      }
    }
    case 2:
      return { status: 200, headers, body: a.body.slice(0, Math.max(1, Math.floor(a.body.length / 2))) };
    default: {
      let id = '1';
      try {
        const parsed = JSON.parse(a.body) as Record<string, unknown>;
        if ('id' in parsed) id = JSON.stringify(parsed['id']);
        else return { status: 200, headers, body: '{"checks":"all good","healthy":"true"}\n' };
      } catch {
        /* keep id 1 */
      }
      return { status: 200, headers, body: `{"jsonrpc":"2.0","result":"OK","id":${id}}\n` };
    }
  }
}
