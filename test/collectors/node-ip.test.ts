import { describe, expect, it } from 'vitest';
import { nodeIp } from '../../src/collectors/node-ip.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { result } from '../fixtures/load.js';
import { fakeClient, makeCtx, testSlot } from './fake.js';

describe('node-ip', () => {
  it('default: publishes the advertised ip:port, no series of its own, logs the address once', async () => {
    const { client, calls } = fakeClient({ 'info.getNodeIP': result('info.getNodeIP', 'default') });
    const slot = testSlot(nodeIp);
    const logged: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { ctx, lines } = makeCtx(nodeIp, client, { slot });
      const r = await nodeIp.collect(ctx);
      expect(r).toEqual({ value: { ip: '198.51.100.23:9651' }, samples: [], errors: [] });
      logged.push(...lines);
    }
    expect(logged).toHaveLength(1);
    expect(calls.map((c) => c.endpoint)).toEqual(['/ext/info', '/ext/info', '/ext/info']);
    expect(nodeIp.nodeSpecific).toBe(true);
    expect(nodeIp.interval).toBe(300);
  });
  it.each([
    ['404', new HttpError('info.getNodeIP', 404, '404 page not found')],
    ['cannot find method', new RpcError('info.getNodeIP', -32000, 'rpc: can\'t find method "info.GetNodeIP"')],
  ])('behavior: absent (%s: public server) → ip empty, no failure', async (_n, err) => {
    const { client } = fakeClient({ 'info.getNodeIP': err });
    const r = await nodeIp.collect(makeCtx(nodeIp, client).ctx);
    expect(r).toEqual({ value: { ip: '' }, samples: [], errors: [] });
  });
  it.each([
    ['error: a timeout', new TimeoutError('info.getNodeIP', 5000)],
    ['error: not a string', { ip: 9651 }],
  ])('%s → failure and no value (the label is empty, never stale)', async (_n, a) => {
    const { client } = fakeClient({ 'info.getNodeIP': a });
    const r = await nodeIp.collect(makeCtx(nodeIp, client, { previous: { ip: '198.51.100.23:9651' } }).ctx);
    expect(r.value).toBeUndefined();
    expect(r.errors).toHaveLength(1);
  });
});
