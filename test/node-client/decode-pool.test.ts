// The decode workers (src/node-client/decode-pool.ts): a big answer decoded by a worker thread gives the
// value the main thread would have decoded; every answer a worker cannot read comes back and fails on
// the main thread with the error it always had; small answers, unnamed schemas and a pool of size 0 never
// reach a worker. The workers are the real ones (dist/node-client/decode-worker.js: `npm test` builds first).
import { afterEach, describe, expect, it } from 'vitest';
import { DecodePool } from '../../src/node-client/decode-pool.js';
import { decodeJob } from '../../src/node-client/decode-worker.js';
import { InvalidResponseError, RpcError, SchemaError } from '../../src/node-client/errors.js';
import { DECODERS, decoderNameOf } from '../../src/schemas/decoders.js';
import { InfoPeersLean, InfoUptimeResult } from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsLean } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { failure, rpcError, rpcResult, sendJson, useServer } from './server.js';

const h = useServer();
const pools: DecodePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
function pool(size: number, minBytes = 0): DecodePool {
  const p = new DecodePool({ size, minBytes, onFailure: (err) => { throw err; } });
  pools.push(p);
  return p;
}

/** info.peers with `copies` times the default fixture's peers: about 0.6 MB at 400 (a mainnet answer). */
function bigPeers(copies: number): unknown {
  const r = result('info.peers', 'default');
  const peers = Array.from({ length: copies }, () => r.peers).flat();
  return { numPeers: String(peers.length), peers };
}

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const envelope = (result: unknown, id = 7) => ({ jsonrpc: '2.0', id, result });

describe('decodeJob (what a worker does, pure)', () => {
  it('default: a good answer gives the value the reader gives on the main thread', () => {
    const r = result('platform.getCurrentValidators', 'primary-full');
    const out = decodeJob({ job: 1, decoder: 'platform.getCurrentValidators', method: 'platform.getCurrentValidators', rpcId: 7, body: bytes(envelope(r)) });
    const inPlace = PlatformGetCurrentValidatorsLean.safeParse(r);
    expect(inPlace.success).toBe(true);
    expect(out).toEqual({ job: 1, ok: true, value: inPlace.success ? inPlace.data : undefined });
  });

  it.each([
    ['not JSON', new TextEncoder().encode('<html>oops</html>')],
    ['an RPC error', bytes({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'nope' } })],
    ['another id', bytes(envelope(result('info.peers', 'default'), 8))],
    ['a wrong shape', bytes(envelope({ numPeers: 'x', peers: 'y' }))],
  ])('fault: %s comes back to be decoded in place', (_what, body) => {
    expect(decodeJob({ job: 2, decoder: 'info.peers', method: 'info.peers', rpcId: 7, body })).toEqual({ job: 2, ok: false });
  });

  it('default: every named reader is the one a declared call uses, and only those are named', () => {
    for (const [name, reader] of Object.entries(DECODERS)) expect(decoderNameOf(reader), name).toBe(name);
    expect(decoderNameOf(InfoUptimeResult)).toBeUndefined();
  });
});

describe('DecodePool (real worker threads)', () => {
  it('default: a big answer is decoded by a worker, with the same value as in place', async () => {
    const p = pool(1, 64 * 1024);
    const answer = bigPeers(400);
    const body = bytes(envelope(answer));
    expect(body.byteLength).toBeGreaterThan(64 * 1024);
    const r = await p.decode('info.peers', 7, InfoPeersLean, body);
    const inPlace = InfoPeersLean.safeParse(answer);
    expect(r).toEqual({ job: 1, ok: true, value: inPlace.success ? inPlace.data : undefined });
    expect(p.stats()).toEqual({ decoded: 1, returned: 0, workers: 1 });
  });

  it('default: small bodies, schemas without a named reader and a pool of size 0 stay on the main thread', () => {
    const small = bytes(envelope(result('info.peers', 'default')));
    expect(pool(1, 64 * 1024).decode('info.peers', 7, InfoPeersLean, small)).toBeUndefined();
    expect(pool(1).decode('info.uptime', 7, InfoUptimeResult, small)).toBeUndefined();
    const none = pool(0);
    expect(none.decode('info.peers', 7, InfoPeersLean, small)).toBeUndefined();
    expect(none.stats().workers).toBe(0);
  });

  it('default: jobs spread over the workers and all come back (bounded: 40 jobs, 2 workers)', async () => {
    const p = pool(2);
    const answer = bigPeers(20);
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => p.decode('info.peers', i, InfoPeersLean, bytes(envelope(answer, i)))!));
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(p.stats()).toEqual({ decoded: 40, returned: 0, workers: 2 });
  });

  it('fault: closing the pool hands its pending jobs back to be decoded in place', async () => {
    const p = pool(1);
    const pending = p.decode('info.peers', 7, InfoPeersLean, bytes(envelope(bigPeers(400))))!;
    await p.close();
    expect(await pending).toEqual({ job: 1, ok: false });
    expect(p.decode('info.peers', 7, InfoPeersLean, bytes(envelope(bigPeers(1))))).toBeUndefined();
  });
});

describe('NodeClient with decode workers: what a collector gets is unchanged', () => {
  it('default: a big info.peers answer through a worker equals the answer decoded in place', async () => {
    const answer = bigPeers(400);
    h.srv.handle((_req, res, body) => sendJson(res, rpcResult(body, answer)));
    const p = pool(1, 64 * 1024);
    const viaWorker = await h.client({ decoders: p }).rpc('/ext/info', 'info.peers', {}, InfoPeersLean);
    const inPlace = await h.client().rpc('/ext/info', 'info.peers', {}, InfoPeersLean);
    expect(viaWorker).toEqual(inPlace);
    expect(p.stats().decoded).toBe(1);
  });

  it('fault: a big answer of the wrong shape fails with the same SchemaError as in place', async () => {
    const answer = bigPeers(400) as { peers: { nodeID: unknown }[] };
    answer.peers[17]!.nodeID = 42;
    h.srv.handle((_req, res, body) => sendJson(res, rpcResult(body, answer)));
    const p = pool(1, 64 * 1024);
    const viaWorker = await failure(h.client({ decoders: p }).rpc('/ext/info', 'info.peers', {}, InfoPeersLean), SchemaError);
    const inPlace = await failure(h.client().rpc('/ext/info', 'info.peers', {}, InfoPeersLean), SchemaError);
    expect(viaWorker.message).toBe(inPlace.message);
    expect(viaWorker.message).toContain('peers.17.nodeID');
    expect(p.stats()).toEqual({ decoded: 0, returned: 1, workers: 1 });
  });

  it('fault: a big RPC error and a big body that is not JSON fail as in place', async () => {
    const p = pool(1);
    h.srv.handle((_req, res, body) => sendJson(res, rpcError(body, -32000, `couldn't get peers: ${'x'.repeat(100_000)}`)));
    const rpc = await failure(h.client({ decoders: p }).rpc('/ext/info', 'info.peers', {}, InfoPeersLean), RpcError);
    expect(rpc.rpcMessage).toMatch(/^couldn't get peers/);
    h.srv.handle((_req, res) => sendJson(res, `{"jsonrpc":"2.0","id":1,"result":${'['.repeat(70_000)}`));
    await failure(h.client({ decoders: p }).rpc('/ext/info', 'info.peers', {}, InfoPeersLean), InvalidResponseError);
    expect(p.stats().returned).toBe(2);
  });
});
