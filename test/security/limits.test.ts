import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/server/server.js';
import { waitFor } from '../helpers/proc.js';
import { startServer, type Running } from './server-helpers.js';

/** Raw request on a new socket; resolves with everything the server sent once it closes (or after `waitMs`). */
function raw(port: number, data: string, waitMs = 3000): Promise<{ text: string; closed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const s = connect(port, '127.0.0.1', () => s.write(data));
    let text = '';
    s.on('data', (d) => (text += d));
    const t = setTimeout(() => {
      s.destroy();
      resolve({ text, closed: false, ms: Date.now() - started });
    }, waitMs);
    s.on('close', () => {
      clearTimeout(t);
      resolve({ text, closed: true, ms: Date.now() - started });
    });
    s.on('error', () => {});
  });
}

describe('HTTP server limits', () => {
  it('behavior: defaults: 16 KiB of headers, 10 s for headers, 30 s per request, checked every second', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxHeaderSize: 16 * 1024, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxHeadersCount: 100, connectionsCheckingIntervalMs: 1000 });
  });

  it('error: a slow client that never finishes its headers is cut off (408, connection closed)', async () => {
    const srv = await startServer({ limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, connectionsCheckingIntervalMs: 50 } });
    try {
      const started = Date.now();
      const sock: Socket = connect(srv.port, '127.0.0.1');
      let text = '';
      sock.on('data', (d) => (text += d));
      sock.on('error', () => {});
      const closed = new Promise<number>((r) => sock.on('close', () => r(Date.now() - started)));
      sock.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
      // Slowloris: one header byte every 100 ms, never the final empty line.
      const drip = setInterval(() => !sock.destroyed && sock.write('X-Slow: a\r\n'), 100);
      const ms = await closed;
      clearInterval(drip);
      expect(ms).toBeLessThan(3000);
      expect(text).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await srv.close();
    }
  });

  it('error: oversized request headers → 431', async () => {
    const srv = await startServer();
    try {
      const big = 'x'.repeat(20 * 1024);
      const r = await raw(srv.port, `GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
      expect(r.text).toMatch(/^HTTP\/1\.1 431/);
      // Just under the limit is fine.
      const ok = await fetch(`http://127.0.0.1:${srv.port}/metrics`, { headers: { 'x-big': 'x'.repeat(12 * 1024) } });
      expect(ok.status).toBe(200);
    } finally {
      await srv.close();
    }
  });

  it('error: more concurrent scrapes than --web.max-concurrent-scrapes → 503; capacity comes back when they end', async () => {
    // A 32 MiB body and clients that never read: each scrape stays in flight (socket buffers are full).
    const srv = await startServer({ maxConcurrentScrapes: 2 }, `# ${'x'.repeat(32 * 1024 * 1024)}\n`);
    const holders: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const s = connect(srv.port, '127.0.0.1', () => s.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'));
        s.on('error', () => {});
        s.pause();
        holders.push(s);
      }
      // Once both are in flight, every further scrape is refused.
      const refused = await waitFor(async () => {
        const r = await fetch(`http://127.0.0.1:${srv.port}/metrics`);
        const body = await r.text();
        return r.status === 503 ? { r, body } : undefined;
      }, 10_000, 20);
      expect(refused.r.headers.get('retry-after')).toBe('1');
      expect(refused.body).toContain('too many concurrent scrapes');
      expect((await fetch(`http://127.0.0.1:${srv.port}/probe?target=a`)).status).toBe(503);
      // Non-scrape paths are not counted.
      expect((await fetch(`http://127.0.0.1:${srv.port}/healthz`)).status).toBe(200);
      for (const s of holders) s.destroy();
      await waitFor(async () => (await fetch(`http://127.0.0.1:${srv.port}/metrics`, { method: 'HEAD' })).status === 200, 5000, 20);
    } finally {
      for (const s of holders) s.destroy();
      await srv.close();
    }
  });

  describe('methods', () => {
    let srv: Running;
    beforeAll(async () => {
      srv = await startServer({ reload: async () => {} });
    });
    afterAll(() => srv?.close());

    it('error: only GET and HEAD on data paths and the landing page (405 with Allow)', async () => {
      for (const path of ['/metrics', '/probe?target=a', '/', '/healthz']) {
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
          const r = await fetch(`http://127.0.0.1:${srv.port}${path}`, { method });
          expect(r.status, `${method} ${path}`).toBe(405);
          expect(r.headers.get('allow')).toBe('GET, HEAD');
          expect(await r.text()).not.toContain('avax_up');
        }
      }
      const trace = await raw(srv.port, 'TRACE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(trace.text).toMatch(/^HTTP\/1\.1 405/);
      expect((await fetch(`http://127.0.0.1:${srv.port}/metrics`, { method: 'HEAD' })).status).toBe(200);
      // The lifecycle endpoint is POST only.
      expect((await fetch(`http://127.0.0.1:${srv.port}/-/reload`)).status).toBe(405);
      expect((await fetch(`http://127.0.0.1:${srv.port}/-/reload`, { method: 'POST' })).status).toBe(200);
    });
  });
});
