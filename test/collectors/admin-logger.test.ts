import { describe, expect, it } from 'vitest';
import { adminLogger } from '../../src/collectors/admin-logger.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, testSlot } from './fake.js';

describe('admin-logger', () => {
  it('default: one series per logger with its written level', async () => {
    const { client, calls } = fakeClient({ '/ext/admin admin.getLoggerLevel': result('admin.getLoggerLevel', 'debug') });
    const { ctx } = makeCtx(adminLogger, client);
    const r = await adminLogger.collect(ctx);
    expect(r.errors).toEqual([]);
    assertContract('admin-logger', r.samples);
    expect(lines(r.samples)).toEqual(['avax_node_log_level{level="DEBUG",logger="C"} 1', 'avax_node_log_level{level="INFO",logger="main"} 1']);
    expect(calls).toMatchObject([{ endpoint: '/ext/admin', params: {} }]);
    expect(adminLogger.enabled).toBe(false);
    expect(adminLogger.nodeSpecific).toBe(true);
  });
  it('behavior: Admin API disabled (plain-text 404) → no series, no failure, logged once', async () => {
    const { client } = fakeClient({ 'admin.getLoggerLevel': new HttpError('admin.getLoggerLevel', 404, '404 page not found\n') });
    const slot = testSlot(adminLogger);
    const logged: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { ctx, lines: l } = makeCtx(adminLogger, client, { slot });
      const r = await adminLogger.collect(ctx);
      expect(r).toMatchObject({ samples: [], errors: [] });
      logged.push(...l);
    }
    expect(logged).toHaveLength(1);
  });
  it.each([
    ['error: a timeout', new TimeoutError('admin.getLoggerLevel', 5000)],
    ['error: a JSON-RPC error', new RpcError('admin.getLoggerLevel', -32000, 'boom')],
    ['error: an unknown level', { loggerLevels: { main: { logLevel: 'LOUD' } } }],
  ])('%s → failure, no series', async (_n, a) => {
    const { client } = fakeClient({ 'admin.getLoggerLevel': a });
    const { ctx } = makeCtx(adminLogger, client);
    const r = await adminLogger.collect(ctx);
    expect(r.samples).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });
});
