// Issue 27: the simulated 1.15.0 node's ACP-236 auto-renewed validators (simulated-node/src/auto-renew.ts): the own
// validator runs in cycles of 48 hours to 7 days, one after the other, under one txID, with v1.15.0's
// members after `signer`; some of the others are auto-renewed too; nothing of it before Helicon's activation
// or on v1.14.2. And what each cycle pays, as a real v1.15.0 node does (test/fixtures/real-node-helicon):
// the reward UTXOs under the cycle's RewardAutoRenewedValidatorTx, the weight grown by the re-staked share,
// an abort that pays back only what was re-staked before and the delegation fees. The UTXO bytes and the
// expected shares are read and recomputed here, with this file's own code.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rewardAutoRenewedTxId } from '@avalanche-exporter/simulated-node';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { rewardTxsOfBlocks } from '../helpers/helicon-recording.js';
import { result } from './helpers.js';

// Helicon on mainnet (v1.15.0's upgrade.Mainnet): the clocks below are after it.
const HELICON = Date.UTC(2026, 8, 22, 15) / 1000;

async function entries(version: '1.14.2' | '1.15.0', atMs: number, seed = 7) {
  const s = await startSimNode({ seed, validators: 60, peers: 60, version, now: () => atMs });
  try {
    const own = s.nodeId(0);
    const [mine] = (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [own] })).validators as Record<string, any>[];
    const all = (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', {})).validators as Record<string, any>[];
    return { mine: mine!, all };
  } finally {
    await s.close();
  }
}

describe('sim: ACP-236 auto-renewed validators (version 1.15.0)', () => {
  it('default: the own validator is auto-renewed: a cycle of 48 h to 7 d around now, nextPeriod = its length, a config owner and an auto-compound share', async () => {
    const now = Date.UTC(2026, 10, 14, 9, 21, 31);
    const { mine } = await entries('1.15.0', now);
    const [start, end] = [Number(mine['startTime']), Number(mine['endTime'])];
    expect(start).toBeLessThanOrEqual(now / 1000);
    expect(end).toBeGreaterThan(now / 1000);
    expect(end - start).toBeGreaterThanOrEqual(2 * 86400);
    expect(end - start).toBeLessThanOrEqual(7 * 86400);
    expect(mine['nextPeriod']).toBe(String(end - start));
    expect(['0', '300000', '1000000']).toContain(mine['autoCompoundRewardShares']);
    expect(mine['validatorAuthority']).toEqual({ locktime: '0', threshold: '1', addresses: mine['validationRewardOwner'].addresses });
    expect(start).toBeGreaterThan(HELICON); // registered after the activation
  });

  it('behavior: at the boundary the next cycle starts where the last ended, under the same txID', async () => {
    const t0 = Date.UTC(2026, 10, 14, 9, 21, 31);
    const a = (await entries('1.15.0', t0)).mine;
    const end = Number(a['endTime']);
    const before = (await entries('1.15.0', (end - 1) * 1000)).mine;
    const after = (await entries('1.15.0', end * 1000)).mine;
    expect(before['endTime']).toBe(String(end));
    expect(after['startTime']).toBe(String(end));
    expect(Number(after['endTime']) - end).toBe(Number(a['nextPeriod']));
    expect(after['txID']).toBe(before['txID']);
  });

  it('behavior: some of the others are auto-renewed (their fixed periods already follow one another), the rest are not', async () => {
    const { all } = await entries('1.15.0', Date.UTC(2026, 10, 14));
    const renewed = all.filter((v) => 'nextPeriod' in v);
    expect(renewed.length).toBeGreaterThan(all.length * 0.2);
    expect(renewed.length).toBeLessThan(all.length * 0.7);
    for (const v of renewed) expect(Number(v['nextPeriod'])).toBe(Number(v['endTime']) - Number(v['startTime']));
    for (const v of all.filter((x) => !('nextPeriod' in x))) expect(Object.keys(v)).not.toContain('autoCompoundRewardShares');
  });

  it('default: accruedDelegateeReward on every entry; the ACP-236 members only on the auto-renewed ones, all three or none', async () => {
    const { all } = await entries('1.15.0', Date.UTC(2026, 10, 14));
    const counts = new Set<number>();
    for (const v of all) {
      expect(v['accruedDelegateeReward'], v['nodeID']).toMatch(/^\d+$/);
      const members = ['validatorAuthority', 'nextPeriod', 'autoCompoundRewardShares'].filter((k) => k in v);
      expect([0, 3], v['nodeID']).toContain(members.length);
      counts.add(members.length);
    }
    expect([...counts].sort()).toEqual([0, 3]); // both kinds are there
  });

  it('behavior: none before Helicon is active, and none on v1.14.2', async () => {
    const early = await entries('1.15.0', (HELICON - 86400) * 1000);
    expect(early.all.filter((v) => 'nextPeriod' in v || 'validatorAuthority' in v)).toEqual([]);
    const v114 = await entries('1.14.2', Date.UTC(2026, 10, 14));
    expect(v114.all.filter((v) => 'nextPeriod' in v || 'autoCompoundRewardShares' in v)).toEqual([]);
  });
});

/** Amounts of hex UTXOs (codec 0, TransferOutput, one owner): checksum verified, [txID, index, amount]. */
function utxos(hex: string[]): [string, number, bigint][] {
  return hex.map((h) => {
    const all = Buffer.from(h.slice(2), 'hex');
    const body = all.subarray(0, all.length - 4);
    expect(createHash('sha256').update(body).digest().subarray(28).equals(all.subarray(all.length - 4))).toBe(true);
    expect(body.readUInt32BE(70)).toBe(7);
    return [body.subarray(2, 34).toString('hex'), body.readUInt32BE(34), body.readBigUInt64BE(74)];
  });
}
/** reward.Split's remainder: what is paid out of `amount` at `shares` millionths re-staked. */
const paidOut = (amount: bigint, shares: number) => ((1_000_000n - BigInt(shares)) * amount) / 1_000_000n;

describe('sim: what each auto-renewed cycle pays (version 1.15.0, as a real v1.15.0 node)', () => {
  const T0 = Date.UTC(2026, 10, 14, 9, 21, 31); // after Helicon (2026-09-22)
  async function withSim<T>(seed: number, f: (s: SimNode, clock: { ms: number }) => Promise<T>): Promise<T> {
    const clock = { ms: T0 };
    const s = await startSimNode({ seed, validators: 60, peers: 60, version: '1.15.0', now: () => clock.ms });
    try {
      return await f(s, clock);
    } finally {
      await s.close();
    }
  }
  const own = async (s: SimNode) => (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [s.nodeId(0)] })).validators[0] as Record<string, any>;
  const rewardUtxos = async (s: SimNode, txID: string) => (await result(s.url, '/ext/bc/P', 'platform.getRewardUTXOs', { txID, encoding: 'hex' })) as { numFetched: string; utxos: string[] };
  const balance = async (s: SimNode, addresses: string[]) => BigInt((await result(s.url, '/ext/bc/P', 'platform.getBalance', { addresses })).balance);
  /** The own validator a second before the end of `v`'s cycle (`last`) and a second after it (`next`), the clock left there. */
  const acrossEnd = async (s: SimNode, clock: { ms: number }, v: Record<string, any>) => {
    const end = Number(v['endTime']);
    clock.ms = (end - 1) * 1000;
    const last = await own(s);
    clock.ms = (end + 1) * 1000;
    return { end, last, next: await own(s) };
  };

  it('default: the reward tx ID of a cycle is computed as the real node did (the recorded proposal blocks)', () => {
    for (const b of rewardTxsOfBlocks()) expect(rewardAutoRenewedTxId(b.txID, b.timestamp)).toBe(b.id);
  });

  it('default: a renewal pays the withdrawn shares under the cycle\'s reward tx (validation, then delegation fees) and grows the weight by the rest; nothing under the txID', async () => {
    // seed 5: 30 % re-staked, delegations (fees accrue).
    await withSim(5, async (s, clock) => {
      const a = await own(s);
      const shares = Number(a['autoCompoundRewardShares']);
      expect(shares).toBe(300_000);
      const end = Number(a['endTime']);
      clock.ms = end * 1000;
      const last = await own(s); // the first second of the next cycle: the ended one is gone
      expect([last['txID'], last['startTime']]).toEqual([a['txID'], String(end)]);
      clock.ms = (end - 1) * 1000;
      const before = await own(s);
      const balanceBefore = await balance(s, a['validationRewardOwner'].addresses);
      clock.ms = (end + 1) * 1000;
      const after = await own(s);
      const p = BigInt(before['potentialReward']);
      const rid = rewardAutoRenewedTxId(a['txID'], end);
      const paid = utxos((await rewardUtxos(s, rid)).utxos);
      expect(paid.map(([, i]) => i)).toEqual([0, 1]);
      expect(paid[0]![2]).toBe(paidOut(p, shares));
      // A commit settles all of it: paid out + re-staked = potential + the fees at the cycle's end, which are
      // those of a second before, or a step more (the simulator's fee rate is rounded to a millionth).
      const growth = BigInt(after['weight']) - BigInt(before['weight']);
      const fees = growth + paid[0]![2] + paid[1]![2] - p;
      const feesBefore = BigInt(before['accruedDelegateeReward']);
      expect(fees).toBeGreaterThanOrEqual(feesBefore);
      expect(fees - feesBefore).toBeLessThanOrEqual(BigInt(before['delegatorWeight']) / 1_000_000n);
      expect(paid[1]![2]).toBe(paidOut(fees, shares));
      expect((await rewardUtxos(s, a['txID'])).numFetched).toBe('0');
      expect(await balance(s, a['validationRewardOwner'].addresses)).toBe(balanceBefore + paid[0]![2]);
      // The next cycle's potential reward follows the grown weight.
      expect(BigInt(after['potentialReward'])).toBeGreaterThan(p);
    });
  });

  it('behavior: all re-staked (autoCompoundRewardShares 1,000,000): no UTXO, the weight grows by the potential reward and the fees', async () => {
    await withSim(2, async (s, clock) => {
      const a = await own(s);
      expect(a['autoCompoundRewardShares']).toBe('1000000');
      const { end, last: before, next: after } = await acrossEnd(s, clock, a);
      expect((await rewardUtxos(s, rewardAutoRenewedTxId(a['txID'], end))).numFetched).toBe('0');
      expect(BigInt(after['weight']) - BigInt(before['weight'])).toBeGreaterThanOrEqual(BigInt(before['potentialReward']) + BigInt(before['accruedDelegateeReward']));
    });
  });

  it('behavior: reward-paid ends the cycle 60 s after the switch with a renewal (same txID); reward-missed with an abort of a registration of its own: only the fees, then a new txID', async () => {
    await withSim(5, async (s, clock) => {
      await s.setScenario('reward-paid');
      const a = await own(s);
      const end = Number(a['endTime']);
      expect(end).toBe(Math.floor(clock.ms / 1000) + 60);
      clock.ms = (end + 1) * 1000;
      const b = await own(s);
      expect([b['txID'], b['startTime']]).toEqual([a['txID'], String(end)]);
      expect(BigInt(b['weight'])).toBeGreaterThan(BigInt(a['weight']));
      expect(utxos((await rewardUtxos(s, rewardAutoRenewedTxId(a['txID'], end))).utxos)[0]![2]).toBe(paidOut(BigInt(a['potentialReward']), 300_000));

      await s.setScenario('reward-missed');
      const m = await own(s);
      expect(m['txID']).not.toBe(b['txID']);
      const { end: mEnd, last, next: n } = await acrossEnd(s, clock, m);
      expect(n['txID']).not.toBe(m['txID']);
      expect([n['startTime'], n['weight']]).toEqual([String(mEnd), last['weight']]); // registered again: its stake, nothing re-staked yet
      const aborted = utxos((await rewardUtxos(s, rewardAutoRenewedTxId(m['txID'], mEnd))).utxos);
      // Nothing was re-staked in that registration: the fees only, to the delegation owner (index 0).
      expect(aborted.map(([, i]) => i)).toEqual([0]);
      expect(aborted[0]![2]).toBeGreaterThanOrEqual(BigInt(last['accruedDelegateeReward']));
      expect(aborted[0]![2]).toBeLessThan(BigInt(last['potentialReward']));
    });
  });

  it('behavior: reward-missed-watched aborts the registration current at the switch: back come the shares it re-staked before (weight − stake) and the fees, not the potential reward', async () => {
    await withSim(5, async (s, clock) => {
      const healthy = await own(s);
      await s.setScenario('reward-missed-watched');
      const a = await own(s);
      expect(a['txID']).toBe(healthy['txID']);
      const { end, last, next } = await acrossEnd(s, clock, a);
      expect(next['txID']).not.toBe(a['txID']);
      const restakedBefore = BigInt(last['weight']) - BigInt(next['weight']); // the new registration: the stake alone
      expect(restakedBefore).toBeGreaterThan(0n);
      const back = utxos((await rewardUtxos(s, rewardAutoRenewedTxId(a['txID'], end))).utxos);
      expect(back.map(([, i]) => i)).toEqual([0, 1]);
      const total = back.reduce((t, [, , x]) => t + x, 0n);
      expect(total).toBeGreaterThanOrEqual(restakedBefore + BigInt(last['accruedDelegateeReward']));
      expect(total).toBeLessThan(restakedBefore + BigInt(last['accruedDelegateeReward']) + BigInt(last['potentialReward']));
    });
  });
});
