// Issue 14 scenarios of the simulated node: a watched validation ends with or without its reward
// (getRewardUTXOs, getBalance), the minimum stake rises above the own stake, the P-Chain fee spikes.
// The UTXO bytes are checked here with the test's own reading of the P-Chain codec.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimNode } from '@avalanche-exporter/simulated-node';
import { result, rpc, startReadySim } from './helpers.js';

const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);
let sim: SimNode;
let clock = T0;

const own = async (): Promise<any> => (await result(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] })).validators[0];
const rewardUtxos = (txID: string) => result(sim.url, '/ext/bc/P', 'platform.getRewardUTXOs', { txID, encoding: 'hex' });
const balance = (addresses: string[]) => result(sim.url, '/ext/bc/P', 'platform.getBalance', { addresses });

/** Amount of a hex UTXO (codec 0, TransferOutput): checksum verified, amount at byte 74. */
function amountOf(hex: string): bigint {
  const all = Buffer.from(hex.slice(2), 'hex');
  const body = all.subarray(0, all.length - 4);
  expect(createHash('sha256').update(body).digest().subarray(28).equals(all.subarray(all.length - 4))).toBe(true);
  expect(body.readUInt16BE(0)).toBe(0);
  expect(body.readUInt32BE(70)).toBe(7);
  expect(body.length).toBe(74 + 8 + 8 + 4 + 4 + 20);
  return body.readBigUInt64BE(74);
}

beforeAll(async () => {
  // Validations with a fixed end (v1.14.2): an auto-renewed one's rewards are per cycle (test/sim/auto-renew.test.ts).
  sim = await startReadySim({ seed: 11, validators: 60, peers: 80, healthIntervalMs: 50, version: '1.14.2', now: () => clock });
});
afterAll(async () => {
  await sim?.close();
});

describe('reward outcome scenarios', () => {
  it('healthy: no reward UTXO for the current validation; the owner holds its seeded balance', async () => {
    const v = await own();
    expect(await rewardUtxos(v.txID)).toEqual({ numFetched: '0', utxos: [], encoding: 'hex' });
    const b = await balance(v.validationRewardOwner.addresses);
    expect(BigInt(b.balance)).toBeGreaterThan(0n);
    expect(b.balance).toBe(b.unlocked);
    expect(Object.keys(b)).toEqual(['balance', 'unlocked', 'lockedStakeable', 'lockedNotStakeable', 'balances', 'unlockeds', 'lockedStakeables', 'lockedNotStakeables', 'utxoIDs']);
    // An address without UTXOs: zeros, empty maps, utxoIDs null (a nil Go slice).
    const raw0 = await rpc(sim.url, '/ext/bc/P', 'platform.getBalance', { addresses: ['P-avax1d97s60esjz0kv0za4fsxk0gqrep2wkg89pr5r3'] });
    expect(raw0.body).toBe('{"jsonrpc":"2.0","result":{"balance":"0","unlocked":"0","lockedStakeable":"0","lockedNotStakeable":"0","balances":{},"unlockeds":{},"lockedStakeables":{},"lockedNotStakeables":{},"utxoIDs":null},"id":1}\n');
    const bad = await rpc(sim.url, '/ext/bc/P', 'platform.getBalance', { addresses: ['nope'] });
    expect(bad.json.error.message).toMatch(/^couldn't parse address "nope"/);
  });

  it('reward-paid: ends 60 s after the switch, re-staked with a new txID; the reward UTXOs pay the potential reward', async () => {
    await sim.setScenario('reward-paid');
    const before = await own();
    const owner = before.validationRewardOwner.addresses;
    const balanceBefore = BigInt((await balance(owner)).balance);
    expect(Number(before.endTime)).toBe(Math.floor(clock / 1000) + 60);
    clock += 61_000;
    const after = await own();
    expect(after.txID).not.toBe(before.txID);
    expect(Number(after.startTime)).toBe(Number(before.endTime));
    const r = await rewardUtxos(before.txID);
    expect(r.numFetched).toBe(String(r.utxos.length));
    const amounts = r.utxos.map(amountOf);
    expect(amounts[0]).toBe(BigInt(before.potentialReward));
    const paid = amounts.reduce((x: bigint, y: bigint) => x + y, 0n);
    expect(BigInt((await balance(owner)).balance) - balanceBefore).toBe(paid);
    expect((await rewardUtxos(after.txID)).utxos).toEqual([]);
  });

  it('reward-missed: ends the same way with no reward UTXO and an unchanged owner balance', async () => {
    await sim.setScenario('reward-missed');
    const before = await own();
    const b0 = (await balance(before.validationRewardOwner.addresses)).balance;
    clock += 61_000;
    expect((await own()).txID).not.toBe(before.txID);
    expect(await rewardUtxos(before.txID)).toEqual({ numFetched: '0', utxos: [], encoding: 'hex' });
    expect((await balance(before.validationRewardOwner.addresses)).balance).toBe(b0);
  });
});

describe('economics scenarios', () => {
  it('healthy: mainnet minimums and an idle fee state (numbers)', async () => {
    await sim.setScenario('healthy');
    expect(await result(sim.url, '/ext/bc/P', 'platform.getMinStake')).toEqual({ minValidatorStake: '2000000000000', minDelegatorStake: '25000000000' });
    expect(await result(sim.url, '/ext/bc/P', 'platform.getFeeState')).toMatchObject({ capacity: 1000000, excess: 0, price: 1 });
  });
  it('min-stake-raised: the minimum validator stake is above the own stake', async () => {
    await sim.setScenario('min-stake-raised');
    const m = await result(sim.url, '/ext/bc/P', 'platform.getMinStake');
    expect(BigInt(m.minValidatorStake)).toBeGreaterThan(BigInt((await own()).weight));
    expect(m.minDelegatorStake).toBe('25000000000');
  });
  it('fee-spike: price and excess up, capacity down', async () => {
    await sim.setScenario('fee-spike');
    expect(await result(sim.url, '/ext/bc/P', 'platform.getFeeState')).toMatchObject({ capacity: 120000, excess: 12000000, price: 256 });
    await sim.setScenario('healthy');
  });
});
