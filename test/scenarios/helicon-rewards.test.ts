// ACP-236 rewards against the exporter: a simulated 1.15.0 node whose own validator is auto-renewed (seed 5:
// 30 % of each cycle re-staked, delegations), in process, on one injected clock. Each cycle end is judged as
// the real node settles it (test/fixtures/real-node-helicon): a renewal is rewarded with the UTXOs of the
// cycle's RewardAutoRenewedValidatorTx plus the weight growth; an abort (reward-missed, reward-missed-watched)
// pays no reward for the cycle and warns once. The expected figures are read from what the simulator answers
// (its own reward tx IDs: simulated-node/src/rewards.ts, checked against the real ones in test/sim/auto-renew.test.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rewardAutoRenewedTxId } from '@avalanche-exporter/simulated-node';
import { memoryLogger } from '../helpers/log.js';
import { metricOfA as m, useScenarioExporter } from '../helpers/scenario-exporter.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const log = memoryLogger('info');
const pair = useScenarioExporter({ sim: { seed: 5, validators: 60, peers: 80, healthIntervalMs: 50, version: '1.15.0' }, logger: log.logger, clock: Date.UTC(2026, 10, 14, 9, 21, 31) }); // after Helicon (2026-09-22)

async function post(method: string, params: unknown): Promise<any> {
  const r = await fetch(pair.sim.nodeUrl(0) + '/ext/bc/P', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await r.json()) as { result: unknown }).result;
}
const own = async (): Promise<Record<string, any>> => (await post('platform.getCurrentValidators', { nodeIDs: [pair.sim.nodeId(0)] })).validators[0];
/** What getRewardUTXOs of `id` pays, nAVAX (the amount of each hex UTXO, read by hand: u64 at byte 74). */
const paidUnder = async (id: string): Promise<bigint> =>
  ((await post('platform.getRewardUTXOs', { txID: id, encoding: 'hex' })).utxos as string[]).reduce((t, h) => {
    const body = Buffer.from(h.slice(2, -8), 'hex');
    expect(createHash('sha256').update(body).digest().subarray(28).toString('hex')).toBe(h.slice(-8));
    return t + body.readBigUInt64BE(74);
  }, 0n);
const avax = (n: bigint) => Number(n) / 1e9;
const warnings = () => log.lines().filter((l) => l['msg'] === 'watched validation ended without reward');
/** Half way through the own cycle in progress: a scenario that ends it 60 s later leaves it a potential reward. */
async function toMidCycle(): Promise<void> {
  const v = await own();
  pair.setNow(((Number(v['startTime']) + Number(v['endTime'])) / 2) * 1000);
  await pair.cycle(undefined, 0);
}

/** Across the end of the own cycle in progress: a cycle 20 s before it and one 20 s after; the validator before both (`v`) and just before the end (`last`), the end, and the exposition after. */
async function acrossCycleEnd(): Promise<{ v: Record<string, any>; end: number; last: Record<string, any>; text: string }> {
  const v = await own();
  const end = Number(v['endTime']);
  pair.setNow((end - 20) * 1000);
  await pair.cycle(undefined, 0);
  const last = await own();
  pair.setNow((end + 20) * 1000);
  const text = await pair.cycle(undefined, 0);
  return { v, end, last, text };
}

describe('ACP-236 rewards (simulated 1.15.0) against the exporter', () => {
  it('default: the auto-renew config as series: 30 % re-staked, a 1-of-1 authority, the delegation fees accrued in the cycle', async () => {
    const text = await pair.cycle();
    const v = await own();
    const l = { subnet: PRIMARY, node_id: pair.sim.nodeId(0) };
    expect(m(text, 'avax_validator_auto_renewed', l)).toBe(1);
    expect(m(text, 'avax_validator_auto_compound_reward_ratio', l)).toBe(Number(v['autoCompoundRewardShares']) / 1e6);
    expect(m(text, 'avax_validator_auto_compound_reward_ratio', l)).toBe(0.3);
    expect([m(text, 'avax_validator_authority_threshold', l), m(text, 'avax_validator_authority_addresses', l)]).toEqual([1, 1]);
    expect(m(text, 'avax_validator_accrued_delegatee_reward_avax', l)).toBeGreaterThan(0);
  });

  it('default: a renewal: last reward = the UTXOs of the cycle\'s reward tx + the weight growth, re-staked = the growth; no warning', async () => {
    const { v: a, end, last: before, text } = await acrossCycleEnd();
    const after = await own();
    expect([after['txID'], after['startTime']]).toEqual([a['txID'], String(end)]);
    const growth = BigInt(after['weight']) - BigInt(before['weight']);
    const paid = await paidUnder(rewardAutoRenewedTxId(a['txID'], end));
    expect(growth).toBeGreaterThan(0n);
    expect(paid).toBeGreaterThan(0n);
    const n = { node_id: pair.sim.nodeId(0) };
    expect(m(text, 'avax_validator_last_reward_avax', n)).toBeCloseTo(avax(paid + growth), 9);
    expect(m(text, 'avax_validator_last_reward_restaked_avax', n)).toBeCloseTo(avax(growth), 9);
    expect(m(text, 'avax_validator_last_reward_timestamp_seconds', n)).toBe(end);
    expect(m(text, 'avax_validator_last_potential_reward_avax', n)).toBeCloseTo(avax(BigInt(before['potentialReward'])), 9);
    expect(warnings()).toEqual([]);
  });

  it('behavior: reward-missed (an abort of a registration of its own): reward 0 against the cycle\'s potential, one warning; the new registration goes on', async () => {
    await toMidCycle();
    await pair.cycle('reward-missed');
    const { v, end, last, text } = await acrossCycleEnd();
    expect((await own())['txID']).not.toBe(v['txID']);
    // What came back is the delegation fees only: less than the potential reward the cycle showed.
    expect(await paidUnder(rewardAutoRenewedTxId(v['txID'], end))).toBeLessThan(BigInt(last['potentialReward']));
    const n = { node_id: pair.sim.nodeId(0) };
    expect(m(text, 'avax_validator_last_reward_avax', n)).toBe(0);
    expect(m(text, 'avax_validator_last_potential_reward_avax', n)).toBeCloseTo(avax(BigInt(last['potentialReward'])), 9);
    expect(m(text, 'avax_validator_last_reward_timestamp_seconds', n)).toBe(end);
    expect(warnings()).toHaveLength(1);
    await pair.cycle(undefined, 60_000);
    expect(warnings()).toHaveLength(1); // judged once
  });

  it('behavior: reward-missed-watched (the registration watched all along, rewards re-staked before the exporter saw it, returned by the abort): still reward 0', async () => {
    await pair.cycle('healthy');
    await toMidCycle();
    await pair.cycle('reward-missed-watched');
    const { v, end, last, text } = await acrossCycleEnd();
    const returned = await paidUnder(rewardAutoRenewedTxId(v['txID'], end));
    // The UTXOs alone look like a commit (months of re-staked rewards, more than the potential reward):
    expect(returned).toBeGreaterThan(BigInt(last['potentialReward']));
    const n = { node_id: pair.sim.nodeId(0) };
    expect(m(text, 'avax_validator_last_reward_avax', n)).toBe(0);
    expect(m(text, 'avax_validator_last_reward_timestamp_seconds', n)).toBe(end);
    const w = warnings();
    expect(w).toHaveLength(2);
    // The simulator's getTxStatus does not know reward txs: the last config seen decided (renewing, removed).
    expect(w[1]!['how']).toBe('removed (last seen renewing; getTxStatus Unknown)');
  });
});
