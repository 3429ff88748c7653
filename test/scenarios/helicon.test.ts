// Issue 27 items 1 and 2: a simulated node after Helicon (version 1.15.0: heliconTime in the past, the own
// validator auto-renewed with avalanchego master's ACP-236 members) beside a v1.14.2 node (no such members,
// Helicon unscheduled), against the exporter: the requirement each node's rules set, the cycle boundary,
// whether the requirement can still be met, the downtime budget; and rewards-lost on the Helicon node (the
// cycle cannot meet its 90 %: removed at its end). The simulator is the independent oracle: the expected
// values are recomputed here from what it answers, not from the exporter's code.
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { metric } from '../helpers/proc.js';
import { useScenarioExporter } from '../helpers/scenario-exporter.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
// An injected clock, halfway through the Helicon node's 72-hour cycle (seed 27: 2026-11-27T17:36Z to
// 2026-11-30T17:36Z; asserted below). On the wall clock the tests met whatever point of the cycle the run
// fell on: near its end the best reachable uptime is the uptime so far, and the healthy node's weighted
// average dips for a minute now and then to 0.905 (a few validators' peers disconnected), so "healthy is
// reachable" failed once (CI of 2026-11-27, 17:2xZ, 1 h before the boundary). Halfway, healthy (≥ 0.88)
// still reaches 90 % (best ≥ 0.94) and rewards-lost (~0.6) cannot (best ≈ 0.8).
const CLOCK = Date.UTC(2026, 10, 29, 6, 38, 0);
const pair = useScenarioExporter({
  sim: { seed: 27, nodes: 2, validators: 120, peers: 150, healthIntervalMs: 50, versions: ['1.15.0', '1.14.2'] },
  clock: CLOCK,
  logger: memoryLogger('silent').logger,
  targets: () => [
    { name: 'helicon', node: 0 },
    { name: 'v1142', node: 1 },
  ],
});

const m = (text: string, target: string, name: string, labels: Record<string, string> = {}) => metric(text, name, { target, ...labels });
/** One cycle on the injected clock (one minute later each time), node 0 switched to `scenario` when given. */
const cycle = async (scenario?: 'healthy' | 'rewards-lost', node = 0) => {
  if (scenario) await pair.sim.setScenario(scenario, node);
  return pair.cycle(undefined, 60_000);
};
const nowS = () => pair.now() / 1000;

/** The own entry as the node answers it, and its info.uptime weighted average. */
async function ownEntry(node: number): Promise<{ v: Record<string, string>; u: number }> {
  const post = async (path: string, method: string, params?: unknown) =>
    ((await (await fetch(pair.sim.nodeUrl(node) + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: any }).result;
  const [v] = (await post('/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [pair.sim.nodeId(node)] })).validators;
  return { v, u: Number((await post('/ext/info', 'info.uptime')).weightedAveragePercentage) / 100 };
}

describe('Helicon (simulated 1.15.0) beside v1.14.2', () => {
  it('healthy: the auto-renewed cycle at 90 %, its boundary, next period, reachable requirement and downtime budget', async () => {
    await cycle();
    const text = await cycle();
    const own = { subnet: PRIMARY, node_id: pair.sim.nodeId(0) };
    const { v, u } = await ownEntry(0);
    const start = Number(v['startTime']);
    const end = Number(v['endTime']);
    expect(Number(v['nextPeriod'])).toBe(end - start); // the next cycle as long as this one
    expect(end - start).toBeGreaterThanOrEqual(2 * 86400); // ACP-273: 48 hours at least
    // The clock is where this file says: between 30 % and 70 % of the cycle.
    expect((nowS() - start) / (end - start)).toBeGreaterThan(0.3);
    expect((nowS() - start) / (end - start)).toBeLessThan(0.7);
    expect(m(text, 'helicon', 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBeLessThan(nowS());
    expect(m(text, 'helicon', 'avax_validator_auto_renewed', own)).toBe(1);
    expect(m(text, 'helicon', 'avax_validator_uptime_requirement_ratio', own)).toBe(0.9);
    expect(m(text, 'helicon', 'avax_validator_cycle_end_timestamp_seconds', own)).toBe(end);
    expect(m(text, 'helicon', 'avax_validator_next_period_seconds', own)).toBe(end - start);
    expect(m(text, 'helicon', 'avax_validator_uptime_requirement_reachable', own)).toBe(1);
    // (u·elapsed + remaining) / duration − 0.9, times the duration, at the cycle's clock.
    const now = nowS();
    const want = (u * (now - start) + (end - now)) - 0.9 * (end - start);
    expect(m(text, 'helicon', 'avax_validator_downtime_budget_seconds', own)).toBeCloseTo(want, -3);
    expect(m(text, 'helicon', 'avax_validator_downtime_budget_seconds', own)).toBeGreaterThan(0);
    // The cycle ends within days, but it renews: the end-of-validation alert must not take it for an end.
    expect(end - now).toBeLessThan(8 * 86400);
  });

  it('healthy: the v1.14.2 node has no ACP-236 members: not auto-renewed, 80 %, its validation end as the boundary', async () => {
    const text = await cycle();
    const own = { subnet: PRIMARY, node_id: pair.sim.nodeId(1) };
    const { v } = await ownEntry(1);
    expect(Object.keys(v)).not.toContain('nextPeriod');
    expect(m(text, 'v1142', 'avax_validator_auto_renewed', own)).toBe(0);
    expect(m(text, 'v1142', 'avax_validator_next_period_seconds', own)).toBe(0); // a fixed end: no next period
    expect(m(text, 'v1142', 'avax_validator_uptime_requirement_ratio', own)).toBe(0.8);
    expect(m(text, 'v1142', 'avax_validator_cycle_end_timestamp_seconds', own)).toBe(Number(v['endTime']));
    expect(m(text, 'v1142', 'avax_validator_uptime_requirement_reachable', own)).toBe(1);
    expect(m(text, 'v1142', 'avax_validator_downtime_budget_seconds', own)).toBeGreaterThan(0.1 * (Number(v['endTime']) - Number(v['startTime'])));
  });

  it('rewards-lost on the Helicon node: the cycle cannot reach 90 % any more → unreachable, no downtime left; then healthy again', async () => {
    const text = await cycle('rewards-lost', 0);
    const own = { subnet: PRIMARY, node_id: pair.sim.nodeId(0) };
    const { v, u } = await ownEntry(0);
    const now = nowS();
    const best = (u * (now - Number(v['startTime'])) + (Number(v['endTime']) - now)) / (Number(v['endTime']) - Number(v['startTime']));
    expect(best).toBeLessThan(0.9);
    expect(m(text, 'helicon', 'avax_validator_auto_renewed', own)).toBe(1);
    expect(m(text, 'helicon', 'avax_validator_uptime_requirement_reachable', own)).toBe(0);
    expect(m(text, 'helicon', 'avax_validator_downtime_budget_seconds', own)).toBe(0);
    expect(m(text, 'helicon', 'avax_validator_next_period_seconds', own)).toBeGreaterThan(0); // renewing: a forced exit
    const back = await cycle('healthy', 0);
    expect(m(back, 'helicon', 'avax_validator_uptime_requirement_reachable', own)).toBe(1);
  });
});
