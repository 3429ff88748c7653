// The transport loads undici's Pool, request API and error classes without the rest of undici
// (src/node-client/undici-pool.ts): they must be the very classes undici exports, and a Pool must send a
// request through the attached API.
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { errors, loaded, Pool } from '../../src/node-client/undici-pool.js';

describe('undici-pool', () => {
  it('default: the Pool and the error classes are the ones undici exports', () => {
    // the undici of package-lock.json has the layout: a new one that moved the files lands here (memory only)
    expect(loaded).toBe('lean');
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(Pool).toBe(undici.Pool);
    expect(errors).toBe(undici.errors);
    expect(errors.ResponseContentLengthMismatchError).toBe(undici.errors.ResponseContentLengthMismatchError);
  });

  it('default: a Pool sends a request with the attached request API (loopback)', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 1 });
    try {
      const res = await pool.request({ path: '/', method: 'GET', signal: AbortSignal.timeout(5_000) });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toBe('ok');
    } finally {
      await pool.close();
      await new Promise((r) => server.close(r));
    }
  });
});
