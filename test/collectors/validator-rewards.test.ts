import { describe, expect, it } from 'vitest';
import type { CycleEnd, CycleSeen, WatchedSet } from '../../src/collectors/platform-validators.js';
import { END_SKEW_SECONDS, judgeCycle, RENEWAL_INTENT_SECONDS, track, validatorRewards, type SeenValidation } from '../../src/collectors/validator-rewards.js';
import { rewardAutoRenewedValidatorTxId } from '../../src/schemas/platform-rewards.js';
import { RpcError } from '../../src/node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf, testSlot } from './fake.js';
import { SELF } from '../fixtures/ids.js';

const TX = 'RHa2bsaYbrA2rJdm3zZ2CdEjjAQ7BgG4GHe7gjy9unK6zBUC7';
const OWNER = 'P-avax1d97s60esjz0kv0za4fsxk0gqrep2wkg89pr5r3';
const END = 1790000000; // endTime of primary-watched.json
const P = PRIMARY_NETWORK_ID;

const watchedEntry = () => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators;
const set = (validators = watchedEntry(), watched = [SELF]): WatchedSet => ({ subnet: P, watched, validators });
const value = (s: WatchedSet | null) => ({ 'platform-validators': { sets: s ? [s] : [] } });

/** Runs the collector twice on one state: active, then `after`; returns the second run and the calls. */
async function endedRun(rewardUtxos: unknown, after: WatchedSet, nowS = END + 30) {
  const slot = testSlot(validatorRewards);
  const { client, calls } = fakeClient({ 'platform.getBalance': result('platform.getBalance', 'default'), 'platform.getRewardUTXOs': rewardUtxos });
  const first = makeCtx(validatorRewards, client, { values: value(set()), slot, now: (END - 3600) * 1000 });
  const r1 = await validatorRewards.collect(first.ctx);
  const second = makeCtx(validatorRewards, client, { values: value(after), slot, now: nowS * 1000 });
  const r2 = await validatorRewards.collect(second.ctx);
  return { r1, r2, calls, log: second.lines };
}

describe('validator-rewards track', () => {
  const seen = (): Map<string, SeenValidation> => new Map();
  it('default: an active validation is remembered with its owner, potential reward and end', () => {
    const m = seen();
    expect(track(m, set(), END - 100)).toEqual([]);
    expect(m.get(TX)).toEqual({ txID: TX, nodeId: SELF, endTime: END, potentialRewardNavax: 57_534_246_575n, rewardOwner: [OWNER] });
  });
  it('behavior: gone after its end → ended; gone before its end → forgotten, never judged', () => {
    const m = seen();
    track(m, set(), END - 100);
    expect(track(m, set([]), END + 1).map((v) => v.txID)).toEqual([TX]);
    const early = seen();
    track(early, set(), END - 100);
    expect(track(early, set([]), END - END_SKEW_SECONDS - 1)).toEqual([]);
    expect(early.size).toBe(0);
    expect(track(early, set([]), END + 1)).toEqual([]);
  });
  it('behavior: replaced by a new txID of the same node (re-staked) → the old one ended', () => {
    const m = seen();
    track(m, set(), END - 100);
    const next = { ...watchedEntry()[0]!, txID: 'QZTN3KLK7b9mqAPjbvE5J1EpYCVE5i9xXSSRBDweph7fmLz7h', endTime: BigInt(END + 30 * 86400) };
    expect(track(m, set([next]), END + 5).map((v) => v.txID)).toEqual([TX]);
  });
  it('behavior: an auto-renewed validator is not a fixed validation: never judged by getRewardUTXOs(txID) (its cycles are)', () => {
    const m = seen();
    const auto = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'auto-renewed')).validators;
    expect(track(m, set(auto), 1779209600 - 100)).toEqual([]);
    expect(m.size).toBe(0);
    expect(track(m, set([]), 1779209600 + 100)).toEqual([]);
  });
  it('behavior: a node no longer watched is forgotten (bounded memory)', () => {
    const m = seen();
    track(m, set(), END - 100);
    expect(track(m, set([], ['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg']), END + 100)).toEqual([]);
    expect(m.size).toBe(0);
  });
});

describe('validator-rewards collector', () => {
  it('default: active validation → owner balance only; no getRewardUTXOs', async () => {
    const { client, calls } = fakeClient({ 'platform.getBalance': result('platform.getBalance', 'default') });
    const { ctx } = makeCtx(validatorRewards, client, { values: value(set()) });
    const r = await validatorRewards.collect(ctx);
    assertContract('validator-rewards', r.samples);
    expect(lines(r.samples)).toEqual([`avax_reward_owner_balance_avax{node_id="${SELF}"} 1257.534246575`]);
    expect(calls.map((c) => [c.method, c.params])).toEqual([['platform.getBalance', { addresses: [OWNER] }]]);
    expect(r.errors).toEqual([]);
  });
  it('behavior: the validation ends with its reward paid → last reward, end time, expected reward', async () => {
    const { r2, calls, log } = await endedRun(result('platform.getRewardUTXOs', 'default'), set([]));
    assertContract('validator-rewards', r2.samples);
    expect(valueOf(r2.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBe(58.034246575);
    expect(valueOf(r2.samples, 'avax_validator_last_reward_timestamp_seconds', { node_id: SELF })).toBe(END);
    expect(valueOf(r2.samples, 'avax_validator_last_potential_reward_avax', { node_id: SELF })).toBe(57.534246575);
    // The ended validation's owner is still asked for (the reward lands there).
    expect(valueOf(r2.samples, 'avax_reward_owner_balance_avax', { node_id: SELF })).toBe(1257.534246575);
    expect(calls.filter((c) => c.method === 'platform.getRewardUTXOs').map((c) => c.params)).toEqual([{ txID: TX, encoding: 'hex' }]);
    expect(log.filter((l) => l.level === 'info').map((l) => l.args[1])).toEqual(['watched validation ended, reward paid']);
  });
  it('behavior: ended without reward → last reward 0 and one warning; the outcome stays, looked up once', async () => {
    const { r2, calls, log } = await endedRun(result('platform.getRewardUTXOs', 'none'), set([]));
    expect(valueOf(r2.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBe(0);
    expect(valueOf(r2.samples, 'avax_validator_last_potential_reward_avax', { node_id: SELF })).toBe(57.534246575);
    expect(log.filter((l) => l.level === 'warn').map((l) => l.args[1])).toEqual(['watched validation ended without reward']);
    expect(calls.filter((c) => c.method === 'platform.getRewardUTXOs')).toHaveLength(1);
  });
  it('behavior: a failed lookup is an error and is retried next run; the method absent is a normal state', async () => {
    const failed = await endedRun(new RpcError('platform.getRewardUTXOs', -32000, 'couldn\'t get reward UTXOs: database closed'), set([]));
    expect(failed.r2.errors).toHaveLength(1);
    expect(valueOf(failed.r2.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBeUndefined();
    const absent = await endedRun(new RpcError('platform.getRewardUTXOs', -32000, 'rpc: can\'t find method "platform.GetRewardUTXOs"'), set([]));
    expect(absent.r2.errors).toEqual([]);
    expect(valueOf(absent.r2.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBeUndefined();
  });
  it('error: platform-validators failed → failing without a request; the last outcome stays; nothing watched → idle, no failure', async () => {
    const { r2 } = await endedRun(result('platform.getRewardUTXOs', 'none'), set([]));
    const slot = testSlot(validatorRewards);
    const { client, calls } = fakeClient({ 'platform.getRewardUTXOs': result('platform.getRewardUTXOs', 'none'), 'platform.getBalance': result('platform.getBalance', 'default') });
    await validatorRewards.collect(makeCtx(validatorRewards, client, { values: value(set()), slot, now: (END - 10) * 1000 }).ctx);
    await validatorRewards.collect(makeCtx(validatorRewards, client, { values: value(set([])), slot, now: (END + 10) * 1000 }).ctx);
    const before = calls.length;
    const failed = await validatorRewards.collect(makeCtx(validatorRewards, client, { values: { 'platform-validators': { sets: [], primaryFailed: true } }, slot, now: (END + 30) * 1000 }).ctx);
    expect(calls.length).toBe(before);
    expect(failed.errors.map((e) => e.message)).toEqual(['the watched validations are unknown: platform.getCurrentValidators failed in this cycle']);
    expect(lines(failed.samples)).toEqual(lines(r2.samples).filter((l) => !l.startsWith('avax_reward_owner_balance_avax')));
    const idle = await validatorRewards.collect(makeCtx(validatorRewards, client, { values: { 'platform-validators': { sets: [] } } }).ctx);
    expect(idle).toMatchObject({ samples: [], errors: [] });
    expect(calls.length).toBe(before);
  });
  it('error: getBalance failing fails the collector but keeps the outcome series; invalid owner addresses are not sent', async () => {
    const { client, calls } = fakeClient({ 'platform.getBalance': new RpcError('platform.getBalance', -32000, 'boom') });
    const entry = { ...watchedEntry()[0]!, rewardOwnerAddresses: ['P-avax1qself', OWNER] };
    const r = await validatorRewards.collect(makeCtx(validatorRewards, client, { values: value(set([entry])) }).ctx);
    expect(r.errors).toHaveLength(1);
    expect(calls[0]!.params).toEqual({ addresses: [OWNER] });
  });
  it('behavior: declared calls and request estimate', () => {
    expect(validatorRewards.reads).toEqual(['platform-validators']);
    expect(validatorRewards.requestsPerRun({ name: 'n', reference: false, validatorNodeIds: [], subnets: [], chains: [] }, {})).toBe(1);
    expect(validatorRewards.requestsPerRun({ name: 'n', reference: false, validatorNodeIds: ['a', 'b'], expectActive: true, subnets: [], chains: [] }, {})).toBe(3);
  });
});

// The cycles of a watched auto-renewed validator: the fixture's (auto-renewed.json, the same txID as TX).
const START = 1778000000;
const LEN = 1209600; // the 14-day cycle of platform.getCurrentValidators/auto-renewed.json
const W0 = 2_000_000_000_000n;
const POT = 57_534_246_575n; // its potential reward
const end = (k: number) => START + (k + 1) * LEN;
/** A cycle of the fixture validator as platform-validators would have seen it. */
const cycle = (over: Partial<CycleSeen> = {}): CycleSeen => ({ nodeId: SELF, txID: TX, start: START, end: end(0), weight: W0, potentialReward: POT, delegateeReward: 0n, nextPeriod: LEN, rewardOwner: [], firstWeight: W0, seenAt: end(0) - 10, ...over });

describe('validator-rewards judgeCycle: how a cycle of an auto-renewed validator (ACP-236) ended', () => {
  it('default: renewed → rewarded: the UTXOs (withdrawn) plus the weight growth (re-staked)', () => {
    expect(judgeCycle({ how: 'renewed', cycle: cycle(), weightAfter: W0 + 30n }, 70n)).toEqual({ rewarded: true, rewardNavax: 100n, restakedNavax: 30n, how: 'renewed' });
  });
  it('behavior: renewed after a missed cycle → rewarded, re-staked = potential + fees − withdrawn (a commit pays exactly that)', () => {
    expect(judgeCycle({ how: 'renewed', cycle: cycle({ delegateeReward: 10n }) }, POT / 2n)).toEqual({ rewarded: true, rewardNavax: POT + 10n, restakedNavax: POT + 10n - POT / 2n, how: 'renewed (re-staked inferred)' });
  });
  it('behavior: left with nextPeriod 0 → a graceful exit when it paid potential + re-staked before + fees; less → an abort', () => {
    const c = cycle({ nextPeriod: 0, weight: W0 + 400n, delegateeReward: 25n });
    expect(judgeCycle({ how: 'left', cycle: c }, POT + 400n + 25n)).toEqual({ rewarded: true, rewardNavax: POT + 25n, restakedNavax: 0n, how: 'exit' });
    // An abort returns the re-staked 400 and the fees 25, not the cycle's potential: no reward for the cycle.
    expect(judgeCycle({ how: 'left', cycle: c }, 400n + 25n)).toEqual({ rewarded: false, returnedNavax: 425n });
  });
  it('behavior: left although it was going to renew, with UTXOs enough for a commit: disputed (getTxStatus decides); last seen long before its end: the UTXOs alone', () => {
    const e: CycleEnd = { how: 'left', cycle: cycle() };
    expect(judgeCycle(e, POT)).toEqual({ rewarded: undefined });
    expect(judgeCycle(e, POT - 1n)).toEqual({ rewarded: false, returnedNavax: POT - 1n });
    const blind: CycleEnd = { how: 'left', cycle: cycle({ seenAt: end(0) - RENEWAL_INTENT_SECONDS - 1 }) };
    expect(judgeCycle(blind, POT)).toMatchObject({ rewarded: true, how: 'exit' });
  });
});

describe('validator-rewards: a disputed cycle end asks platform.getTxStatus of its reward tx', () => {
  const RID = rewardAutoRenewedValidatorTxId(TX, end(0))!;
  const utxos = result('platform.getRewardUTXOs', 'default'); // 57.534246575 + 0.5 AVAX ≥ POT
  const ends: CycleEnd[] = [{ how: 'left', cycle: cycle() }];
  async function judged(status: unknown) {
    const slot = testSlot(validatorRewards);
    const { client, calls } = fakeClient({ 'platform.getRewardUTXOs': utxos, 'platform.getTxStatus': status, 'platform.getBalance': result('platform.getBalance', 'default') });
    const values = { 'platform-validators': { sets: [set([])], cycleEnds: ends } } as never;
    const first = makeCtx(validatorRewards, client, { slot, values, now: (end(0) + 30) * 1000 });
    const r1 = await validatorRewards.collect(first.ctx);
    const r2 = await validatorRewards.collect(makeCtx(validatorRewards, client, { slot, values, now: (end(0) + 330) * 1000 }).ctx);
    const asked = calls.filter((c) => c.method !== 'platform.getBalance').map((c) => `${c.method} ${(c.params as { txID: string }).txID}`);
    return { r1, r2, asked, log: first.lines };
  }
  it('default: Committed → the exit was rewarded; Aborted → reward 0 and one warning', async () => {
    const committed = await judged(result('platform.getTxStatus', 'committed'));
    expect(committed.asked).toEqual([`platform.getRewardUTXOs ${RID}`, `platform.getTxStatus ${RID}`]);
    expect(valueOf(committed.r1.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBe(58.034246575);
    const aborted = await judged(result('platform.getTxStatus', 'aborted'));
    expect(valueOf(aborted.r1.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBe(0);
    expect(aborted.log.filter((l) => l.level === 'warn').map((l) => l.args[1])).toEqual(['watched validation ended without reward']);
    expect(aborted.asked).toHaveLength(2); // judged once, not again the next run
  });
  it('behavior: Unknown, or the method absent → the last config decides: it was renewing and was removed: reward 0, one warning; an error → asked again next run', async () => {
    for (const [status, why] of [
      [result('platform.getTxStatus', 'unknown'), 'removed (last seen renewing; getTxStatus Unknown)'],
      [new RpcError('platform.getTxStatus', -32601, 'rpc: can\'t find method "platform.GetTxStatus"'), 'removed (last seen renewing; getTxStatus absent)'],
    ] as const) {
      const u = await judged(status);
      expect(valueOf(u.r1.samples, 'avax_validator_last_reward_avax', { node_id: SELF })).toBe(0);
      expect(u.log.filter((l) => l.level === 'warn').map((l) => [l.args[1], (l.args[0] as Record<string, unknown>)['how']])).toEqual([['watched validation ended without reward', why]]);
      expect(u.asked).toHaveLength(2);
    }
    const failing = await judged(new RpcError('platform.getTxStatus', -32000, 'database closed'));
    expect(failing.r1.errors).toHaveLength(1);
    expect(failing.asked).toHaveLength(4);
  });
});
