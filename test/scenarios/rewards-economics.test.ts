// Issue 14 items 2 and 3 against the real exporter (in process, cycles driven by collectOnce): the
// simulated node ends the watched validation with and without its reward, raises the minimum stake
// above the validator's own stake and spikes the P-Chain fee; each test sees the series change. The
// simulator and the exporter share one injected clock, so a validation's end is reached by moving it.
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { metricOfA as m, useScenarioExporter } from '../helpers/scenario-exporter.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
let own = '';
const log = memoryLogger('info');
// Validations with a fixed end (v1.14.2); the cycles of an auto-renewed one: test/scenarios/helicon-rewards.test.ts.
const pair = useScenarioExporter({ sim: { seed: 23, validators: 80, peers: 100, healthIntervalMs: 50, version: '1.14.2' }, logger: log.logger, clock: Date.UTC(2026, 4, 14, 9, 21, 31) });
const { cycle } = pair;
beforeAll(() => {
  own = pair.sim.nodeId(0);
});

/** network-economics asks one method per run in turn: three more cycles after a switch refresh all four. */
async function refreshEconomics(): Promise<string> {
  await cycle();
  await cycle();
  return cycle();
}

describe('issue 14 scenarios against the exporter', () => {
  it('healthy: economics series, the owner balance, no reward outcome yet', async () => {
    const text = await cycle('healthy');
    for (const c of ['validator-rewards', 'network-economics']) expect(m(text, 'avax_collector_success', { collector: c }), c).toBe(1);
    expect(m(text, 'avax_network_min_validator_stake_avax')).toBe(2000);
    expect(m(text, 'avax_network_min_delegator_stake_avax')).toBe(25);
    const supply = m(text, 'avax_network_supply_avax')!;
    const stake = m(text, 'avax_network_total_stake_avax')!;
    expect(stake).toBeGreaterThan(0);
    expect(stake / supply).toBeLessThan(1);
    expect(m(text, 'avax_pchain_gas_price_navax')).toBe(1);
    expect(m(text, 'avax_pchain_gas_capacity')).toBe(1_000_000);
    expect(m(text, 'avax_reward_owner_balance_avax', { node_id: own })).toBeGreaterThan(12);
    expect(text).not.toMatch(/^avax_validator_last_reward_avax\{/m);
  });

  it('reward-paid: the validation ends, the reward it showed is paid and lands at the owner', async () => {
    const before = await cycle('reward-paid');
    const potential = m(before, 'avax_validator_potential_reward_avax', { subnet: PRIMARY, node_id: own })!;
    const end = m(before, 'avax_validator_end_timestamp_seconds', { subnet: PRIMARY, node_id: own })!;
    const balance = m(before, 'avax_reward_owner_balance_avax', { node_id: own })!;
    expect(potential).toBeGreaterThan(0);
    expect(end - pair.now() / 1000).toBeLessThanOrEqual(60);
    pair.setNow(end * 1000 + 1000);
    const after = await cycle();
    const paid = m(after, 'avax_validator_last_reward_avax', { node_id: own })!;
    expect(paid).toBeGreaterThanOrEqual(potential);
    expect(m(after, 'avax_validator_last_potential_reward_avax', { node_id: own })).toBe(potential);
    expect(m(after, 'avax_validator_last_reward_timestamp_seconds', { node_id: own })).toBe(end);
    expect(m(after, 'avax_reward_owner_balance_avax', { node_id: own })! - balance).toBeCloseTo(paid, 6);
    // re-staked: a new validation is active
    expect(m(after, 'avax_validator_end_timestamp_seconds', { subnet: PRIMARY, node_id: own })).toBeGreaterThan(end);
    expect(m(after, 'avax_collector_success', { collector: 'validator-rewards' })).toBe(1);
  });

  it('reward-missed: the next validation ends without reward → last reward 0, the expected one kept, one warning', async () => {
    const before = await cycle('reward-missed');
    const potential = m(before, 'avax_validator_potential_reward_avax', { subnet: PRIMARY, node_id: own })!;
    const end = m(before, 'avax_validator_end_timestamp_seconds', { subnet: PRIMARY, node_id: own })!;
    pair.setNow(end * 1000 + 1000);
    const after = await cycle();
    expect(m(after, 'avax_validator_last_reward_avax', { node_id: own })).toBe(0);
    expect(m(after, 'avax_validator_last_potential_reward_avax', { node_id: own })).toBe(potential);
    expect(m(after, 'avax_validator_last_reward_timestamp_seconds', { node_id: own })).toBe(end);
    expect(log.lines().filter((l) => l['msg'] === 'watched validation ended without reward')).toHaveLength(1);
    // the outcome is final: later cycles do not ask again
    await cycle();
    expect(log.lines().filter((l) => l['msg'] === 'watched validation ended without reward')).toHaveLength(1);
  });

  it('min-stake-raised: the minimum validator stake is above the validator own stake', async () => {
    await cycle('min-stake-raised');
    const text = await refreshEconomics();
    const min = m(text, 'avax_network_min_validator_stake_avax')!;
    expect(min).toBeGreaterThan(m(text, 'avax_validator_stake_avax', { subnet: PRIMARY, node_id: own })!);
    await cycle('healthy');
    expect(m(await refreshEconomics(), 'avax_network_min_validator_stake_avax')).toBe(2000);
  });

  it('fee-spike: P-Chain gas price up, capacity down', async () => {
    await cycle('fee-spike');
    const text = await refreshEconomics();
    expect(m(text, 'avax_pchain_gas_price_navax')).toBe(256);
    expect(m(text, 'avax_pchain_gas_excess')).toBe(12_000_000);
    expect(m(text, 'avax_pchain_gas_capacity')).toBe(120_000);
    await cycle('healthy');
    expect(m(await refreshEconomics(), 'avax_pchain_gas_price_navax')).toBe(1);
  });
});
