import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeMetrics } from '../../src/collectors/node-metrics.js';
import { cchainExecutionLag, executionLag } from '../../src/derive/cchain-execution-lag.js';
import { fakeClient, makeCtx } from '../collectors/fake.js';
import { snapshotWith } from './snapshot.js';

const lag = (accepted: number, executed: number) =>
  cchainExecutionLag.derive(snapshotWith({ 'node-metrics': { available: true, cchainExecution: { accepted, executed } } }), 0);

describe('derive: C-Chain execution lag (SAE)', () => {
  it.each([
    ['executed up to the last accepted block', 120, 120, 0],
    ['three accepted blocks wait for execution', 123, 120, 3],
    ['a queue of 40 blocks', 1040, 1000, 40],
    ['executed read one block ahead (the gauges were read one after the other): 0, not -1', 120, 121, 0],
  ])('behavior: %s', (_n, accepted, executed, want) => {
    expect(executionLag(accepted, executed)).toBe(want);
    expect(lag(accepted, executed)).toEqual([{ name: 'avax_cchain_execution_lag_blocks', labels: {}, value: want }]);
  });

  it('default: no series on a Coreth C-Chain, with the metrics API off, or before node-metrics ran', () => {
    expect(cchainExecutionLag.derive(snapshotWith({ 'node-metrics': { available: true, scheme: 'v1.11.8' } }), 0)).toEqual([]);
    expect(cchainExecutionLag.derive(snapshotWith({ 'node-metrics': { available: false } }), 0)).toEqual([]);
    expect(cchainExecutionLag.derive(snapshotWith({}), 0)).toEqual([]);
  });

  it("default: from a real v1.15.0 node's /ext/metrics after three transfers (accepted 3, executed 3): 0", async () => {
    const body = (JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/real-node-helicon/p6-final/n2.ext_metrics.json', import.meta.url)), 'utf8')) as { body: string }).body;
    const r = await nodeMetrics.collect(makeCtx(nodeMetrics, fakeClient({}, {}, { '/ext/metrics': body }).client).ctx);
    expect(cchainExecutionLag.derive(snapshotWith({ 'node-metrics': r.value }), 0)).toEqual([{ name: 'avax_cchain_execution_lag_blocks', labels: {}, value: 0 }]);
    // The same body with four more blocks accepted than executed.
    const behind = body.replace('avalanche_snowman_last_accepted_height{chain="C"} 3', 'avalanche_snowman_last_accepted_height{chain="C"} 7');
    const b = await nodeMetrics.collect(makeCtx(nodeMetrics, fakeClient({}, {}, { '/ext/metrics': behind }).client).ctx);
    expect(cchainExecutionLag.derive(snapshotWith({ 'node-metrics': b.value }), 0)).toEqual([{ name: 'avax_cchain_execution_lag_blocks', labels: {}, value: 4 }]);
  });
});
