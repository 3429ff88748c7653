import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeClient } from '../../src/node-client/index.js';
import { InfoPeersResult, InfoUptimeResult } from '../../src/schemas/info.js';
import { startMatrixNode } from '../helpers/fault-matrix.js';
import type { FaultNode } from '../helpers/fault-node.js';
import { FAULTS } from '../helpers/fault-table.js';

/**
 * Head-of-line blocking: with every connection of the pool held by requests that hang, the calls
 * queued behind them must not spend their own deadline in the queue (before the fix, one hanging
 * collector with 4 calls, e.g. chain-height, timed out every other collector with the default
 * --node.connections 4).
 */
describe('fault: requests queued behind hanging ones', () => {
  let node: FaultNode;
  beforeAll(async () => {
    node = await startMatrixNode();
  });
  afterAll(() => node?.close());

  it('get their whole deadline once a connection is free', async () => {
    node.setFault((r) => r.method === 'info.peers', FAULTS.headersTimeout.handler!);
    const results: string[] = [];
    const client = new NodeClient({ url: node.url, timeoutMs: 300, connections: 2, onRequest: (m, r) => results.push(`${m} ${r}`) });
    try {
      const hanging = [1, 2].map(() => client.rpc('/ext/info', 'info.peers', {}, InfoPeersResult).then(() => 'ok', (e: Error) => e.name));
      // Queued behind the two hanging calls for their full 300 ms, then answered at once.
      const queued = [1, 2, 3, 4].map(() => client.rpc('/ext/info', 'info.uptime', {}, InfoUptimeResult).then(() => 'ok', (e: Error) => e.name));
      expect(await Promise.all(hanging)).toEqual(['TimeoutError', 'TimeoutError']);
      expect(await Promise.all(queued)).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(results.filter((r) => r === 'info.uptime ok')).toHaveLength(4);
    } finally {
      node.clearFault();
      await client.close();
    }
  });

  it('still end with the caller\'s signal (the collector deadline) while they wait', async () => {
    node.setFault((r) => r.method === 'info.peers', FAULTS.headersTimeout.handler!);
    const results: string[] = [];
    const client = new NodeClient({ url: node.url, timeoutMs: 2_000, connections: 1, onRequest: (m, r) => results.push(`${m} ${r}`) });
    try {
      const hanging = client.rpc('/ext/info', 'info.peers', {}, InfoPeersResult).catch((e: Error) => e.name);
      const started = performance.now();
      const queued = await client.rpc('/ext/info', 'info.uptime', {}, InfoUptimeResult, { signal: AbortSignal.timeout(150) }).catch((e: Error) => e.name);
      expect(queued).toBe('TimeoutError');
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(results).toContain('info.uptime timeout');
      expect(await hanging).toBe('TimeoutError');
    } finally {
      node.clearFault();
      await client.close();
    }
  });
});
