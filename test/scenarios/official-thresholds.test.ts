// Issue 27 (items 5 and 6): the simulated node's scenarios behind the Builders Hub alerts and the bootstrap
// progress series, against the real exporter (in process, cycles driven by collectOnce, one injected clock
// for the simulator and the exporter). node-metrics runs every 60 s: each step below is at least that.
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { metricOfA as m, useScenarioExporter } from '../helpers/scenario-exporter.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const log = memoryLogger('warn');
const { cycle } = useScenarioExporter({
  sim: { seed: 27, validators: 80, peers: 100, healthIntervalMs: 50 },
  logger: log.logger,
  clock: Date.UTC(2026, 2, 2, 8, 0, 0),
  stepMs: 60_000,
});

describe('Builders Hub thresholds and bootstrap progress: scenarios against the exporter', () => {
  it('bad-blocks: the C-Chain bad block counter grows by 6 a minute; healthy: it stays', async () => {
    const a = await cycle('bad-blocks');
    const b = await cycle(undefined, 300_000);
    const grew = m(b, 'avax_node_cchain_bad_blocks_total')! - m(a, 'avax_node_cchain_bad_blocks_total')!;
    expect(grew).toBeGreaterThanOrEqual(29);
    expect(grew).toBeLessThanOrEqual(31);
    const c = await cycle('healthy');
    const d = await cycle(undefined, 300_000);
    expect(m(d, 'avax_node_cchain_bad_blocks_total')).toBe(m(c, 'avax_node_cchain_bad_blocks_total'));
  });

  it('consensus-slow: 18 blocks processing on every chain while heights still grow; healthy: 0 or 1', async () => {
    const a = await cycle('consensus-slow');
    const b = await cycle();
    for (const chain of ['P', 'X', 'C']) {
      expect(m(b, 'avax_node_blocks_processing', { chain })).toBe(18);
      expect(m(b, 'avax_node_bootstrap_finished', { chain })).toBe(1);
    }
    expect(m(b, 'avax_node_last_accepted_height', { chain: 'C' })).toBeGreaterThan(m(a, 'avax_node_last_accepted_height', { chain: 'C' })!);
    const h = await cycle('healthy');
    expect(m(h, 'avax_node_blocks_processing', { chain: 'C' })).toBeLessThanOrEqual(1);
  });

  it('unhealthy-network: the primary network stake connected falls below 80 %; healthy: above', async () => {
    expect(m(await cycle('healthy'), 'avax_subnet_connected_stake_ratio', { subnet: PRIMARY })).toBeGreaterThan(0.8);
    const text = await cycle('unhealthy-network');
    expect(m(text, 'avax_subnet_connected_stake_ratio', { subnet: PRIMARY })).toBeLessThan(0.8);
    await cycle('healthy');
  });

  it('bootstrapping: blocks fetched (C 300/s, P and X 100/s) and executed at half the pace; bootstrapped: neither grows', async () => {
    const a = await cycle('bootstrapping');
    const b = await cycle();
    const d = (text: string, from: string, name: string, chain: string) => m(text, name, { chain })! - m(from, name, { chain })!;
    expect(d(b, a, 'avax_node_bootstrap_fetched_blocks_total', 'C')).toBeCloseTo(18_000, -2);
    expect(d(b, a, 'avax_node_bootstrap_fetched_blocks_total', 'P')).toBeCloseTo(6_000, -2);
    expect(d(b, a, 'avax_node_bootstrap_executed_blocks_total', 'C')).toBeCloseTo(9_000, -2);
    expect(m(b, 'avax_node_bootstrap_finished', { chain: 'C' })).toBe(0);
    const c = await cycle('healthy');
    const e = await cycle();
    expect(d(e, c, 'avax_node_bootstrap_fetched_blocks_total', 'C')).toBe(0);
  });
});
