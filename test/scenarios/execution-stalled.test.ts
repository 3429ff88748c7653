// The simulated v1.15.0 node after Helicon with its C-Chain's SAE executor stalled (execution-stalled), against
// the exporter: the node stays healthy and bootstrapped, nothing piles up in consensus, and the C-Chain's
// accepted height stops once SAE can no longer verify blocks (Tau, 5 s, after the executor stopped). The
// exporter's own execution series (SAE queue, executed height) are not asserted here: they are being added on
// the exporter's side; test/sim/helicon-sae.test.ts holds what the node answers.
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { metricOfA as m, useScenarioExporter } from '../helpers/scenario-exporter.js';

const { cycle } = useScenarioExporter({
  sim: { seed: 33, validators: 80, peers: 100, healthIntervalMs: 50, version: '1.15.0' },
  logger: memoryLogger('silent').logger,
  clock: Date.UTC(2026, 10, 28, 12, 0, 0),
  stepMs: 60_000,
});

describe('execution-stalled (1.15.0 after Helicon) against the exporter', () => {
  it('the C-Chain stops after its last verifiable block; the node stays healthy; healthy catches up', async () => {
    const a = await cycle('healthy');
    const b = await cycle('execution-stalled');
    const c = await cycle();
    const h = (t: string) => m(t, 'avax_node_last_accepted_height', { chain: 'C' })!;
    expect(h(b)).toBeGreaterThan(h(a));
    expect(h(c)).toBe(h(b));
    expect(m(c, 'avax_node_blocks_processing', { chain: 'C' })!).toBeLessThanOrEqual(1);
    expect(m(c, 'avax_node_healthy')).toBe(1);
    expect(m(c, 'avax_chain_bootstrapped', { chain: 'C' })).toBe(1);
    const d = await cycle('healthy');
    expect(h(d) - h(c)).toBeGreaterThan(60); // caught up: two minutes of blocks at 0.5 blocks/s
  });
});
