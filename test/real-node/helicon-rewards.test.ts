/**
 * The reward outcome of a real auto-renewed validator (ACP-236), cycle by cycle, on the answers a real
 * avalanchego v1.15.0-fuji-rc.4 gave (test/fixtures/real-node-helicon, replayed point by point as recorded:
 * test/helpers/helicon-recording.ts): platform-validators follows the cycles, validator-rewards asks
 * getRewardUTXOs of each cycle's reward tx and judges it. Run 1: two renewals (50 % re-staked) and a
 * graceful exit (period 0); run 2: a cycle below 90 % that ended with an abort. What the node did is in the
 * recording itself (the weights, the UTXOs, the proposal blocks); the expected figures below are read from it.
 */
import { describe, expect, it } from 'vitest';
import { platformValidators } from '../../src/collectors/platform-validators.js';
import { validatorRewards } from '../../src/collectors/validator-rewards.js';
import { navaxToAvax } from '../../src/schemas/primitives.js';
import { fakeClient, makeCtx, testSlot, valueOf, type LogLine } from '../collectors/fake.js';
import { exchange, NODE2, recordedAnswers, RUN1, RUN2, type Point } from '../helpers/helicon-recording.js';
import type { Sample } from '../../src/model.js';

const HELICON = 1607144400; // info.upgrades heliconTime of the recorded network (2020-12-05T05:00:00Z)
const METHODS = ['platform.getCurrentValidators', 'platform.getRewardUTXOs', 'platform.getBalance', 'platform.getTxStatus'];

interface Step {
  readonly point: Point;
  /** platform-validators' samples at this point. */
  readonly validators: readonly Sample[];
  readonly rewards: readonly Sample[];
  readonly log: readonly LogLine[];
  readonly asked: readonly { method: string; params: unknown }[];
}

/**
 * Both collectors at every point of both runs, in one exporter process (as recorded: one process);
 * validator-rewards (every 5 minutes in an exporter) only at the points of `rewardsAt` when given.
 */
async function replay(rewardsAt?: ReadonlySet<Point>): Promise<{ steps: Step[]; unrecorded: string[] }> {
  const pv = testSlot(platformValidators);
  const vr = testSlot(validatorRewards);
  const steps: Step[] = [];
  const unrecorded: string[] = [];
  for (const point of [...RUN1, ...RUN2]) {
    const { answers, unrecorded: missing } = recordedAnswers(point, METHODS);
    const { client, calls } = fakeClient(answers);
    const now = exchange(point, 'platform.getCurrentValidators.node2').recordedAtMs;
    const target = { expectActive: true };
    const values = { 'node-info': { nodeId: NODE2 }, 'info-upgrades': { times: [], heliconTime: HELICON } };
    const p = await platformValidators.collect(makeCtx(platformValidators, client, { slot: pv, now, target, values: values as never }).ctx);
    if (rewardsAt && !rewardsAt.has(point)) {
      steps.push({ point, validators: p.samples, rewards: [], log: [], asked: [] });
      continue;
    }
    const run = makeCtx(validatorRewards, client, { slot: vr, now, target, values: { 'platform-validators': p.value } as never });
    const r = await validatorRewards.collect(run.ctx);
    steps.push({ point, validators: p.samples, rewards: r.samples, log: run.lines, asked: calls.slice(1) });
    unrecorded.push(...missing);
  }
  return { steps, unrecorded };
}

const at = (steps: Step[], point: Point) => steps.find((s) => s.point === point)!;
const outcome = (s: Step) => ({
  reward: valueOf(s.rewards, 'avax_validator_last_reward_avax', { node_id: NODE2 }),
  restaked: valueOf(s.rewards, 'avax_validator_last_reward_restaked_avax', { node_id: NODE2 }),
  end: valueOf(s.rewards, 'avax_validator_last_reward_timestamp_seconds', { node_id: NODE2 }),
  potential: valueOf(s.rewards, 'avax_validator_last_potential_reward_avax', { node_id: NODE2 }),
});
/** The validator's entry as node2 answered it at `point`. */
const entry = (point: Point) => (exchange(point, 'platform.getCurrentValidators.node2').result as { validators: Record<string, string>[] }).validators[0]!;
/** What getRewardUTXOs of `id` recorded at `point` paid, nAVAX (each UTXO's amount, read by hand: u64 at byte 74, after codec version, txID, index, asset and type). */
const recordedPaid = (point: Point, id: string): bigint =>
  ((exchange(point, `platform.getRewardUTXOs.${id}`).result as { utxos: string[] }).utxos ?? []).reduce((t, u) => t + BigInt('0x' + u.slice(2 + 2 * 74, 2 + 2 * 82)), 0n);
/** The alert AvalancheValidationEndedWithoutReward's condition on one step's series. */
const endedWithoutReward = (s: Step) => outcome(s).reward === 0 && (outcome(s).potential ?? 0) > 0;

describe('real auto-renewed validator (v1.15.0-fuji-rc.4 recording): every cycle judged', () => {
  it('default: run 1: each renewal is rewarded with its UTXOs plus the weight growth; the graceful exit with its UTXOs less the earlier re-staked part', async () => {
    const { steps, unrecorded } = await replay();
    expect(unrecorded).toEqual([]);
    // Cycle 1 ended at p1's endTime; the renewal shows at p3 with the weight grown by the re-staked half.
    const c1 = entry('p2-mid-cycle1');
    const c2 = entry('p3-after-renewal1');
    const growth1 = BigInt(c2['weight']!) - BigInt(c1['weight']!);
    const paid1 = recordedPaid('p3-after-renewal1', '2ThDmyc2rtzAVSpFd6g3p3qthGWx376qRhe1q5sYXmrn6K1G2x');
    expect([growth1, paid1]).toEqual([566_986n, 566_986n]); // 50 % of 1,133,972 each way
    expect(outcome(at(steps, 'p3-after-renewal1'))).toEqual({ reward: navaxToAvax(paid1 + growth1), restaked: navaxToAvax(growth1), end: Number(c1['endTime']), potential: navaxToAvax(BigInt(c1['potentialReward']!)) });
    const c3 = entry('p4-after-renewal2');
    const growth2 = BigInt(c3['weight']!) - BigInt(c2['weight']!);
    const paid2 = recordedPaid('p4-after-renewal2', 't2F2E96PrpgZm113DUqqJv1vUno5XYTXRv4J7NygsGVEbLWs9');
    expect(outcome(at(steps, 'p4-after-renewal2'))).toEqual({ reward: navaxToAvax(paid2 + growth2), restaked: navaxToAvax(growth2), end: Number(c2['endTime']), potential: navaxToAvax(BigInt(c2['potentialReward']!)) });
    // The exit paid 2,267,945: the last cycle's potential 1,133,973 and the 1,133,972 re-staked before, returned.
    const paid3 = recordedPaid('p5-after-exit', '5P8L8uve728MtEiGP7H4mab4eMiPXLd61NWwBXLJBx8mQQErL');
    const restakedBefore = BigInt(c3['weight']!) - BigInt(c1['weight']!);
    expect([paid3, restakedBefore]).toEqual([2_267_945n, 1_133_972n]);
    expect(outcome(at(steps, 'p5-after-exit'))).toEqual({ reward: navaxToAvax(paid3 - restakedBefore), restaked: 0, end: Number(c3['endTime']), potential: navaxToAvax(BigInt(c3['potentialReward']!)) });
    expect(paid3 - restakedBefore).toBe(BigInt(c3['potentialReward']!));
    // Never "ended without reward" in run 1: no warning, and the alert's condition never holds.
    expect(steps.filter((s) => RUN1.includes(s.point as never)).flatMap((s) => s.log.filter((l) => l.level === 'warn'))).toEqual([]);
    expect(steps.filter((s) => RUN1.includes(s.point as never) && endedWithoutReward(s)).map((s) => s.point)).toEqual([]);
  });

  it('default: run 2: the cycle below 90 % ended with an abort: reward 0 against its potential, one warning', async () => {
    const { steps } = await replay();
    const cycle = entry('r2-p4-before-cycle-end');
    const last = at(steps, 'r2-p5-after-cycle-end');
    expect(outcome(last)).toEqual({ reward: 0, restaked: 0, end: Number(cycle['endTime']), potential: navaxToAvax(BigInt(cycle['potentialReward']!)) });
    expect(endedWithoutReward(last)).toBe(true);
    const warns = steps.flatMap((s) => s.log.filter((l) => l.level === 'warn'));
    expect(warns.map((l) => [l.args[1], (l.args[0] as Record<string, unknown>)['reward_tx_id']])).toEqual([['watched validation ended without reward', 'MBGVsRBo8s8FrkW72uvsSzhy841wG2iSueJ9yuHiAm5CQFY3u']]);
  });

  it('behavior: getRewardUTXOs is asked once per cycle end, of the cycle\'s reward tx, never of the validator\'s txID; getTxStatus never (no disputed end)', async () => {
    const { steps } = await replay();
    const asked = steps.flatMap((s) => s.asked.filter((c) => c.method !== 'platform.getBalance').map((c) => `${s.point} ${c.method} ${(c.params as { txID: string }).txID}`));
    expect(asked).toEqual([
      'p3-after-renewal1 platform.getRewardUTXOs 2ThDmyc2rtzAVSpFd6g3p3qthGWx376qRhe1q5sYXmrn6K1G2x',
      'p4-after-renewal2 platform.getRewardUTXOs t2F2E96PrpgZm113DUqqJv1vUno5XYTXRv4J7NygsGVEbLWs9',
      'p5-after-exit platform.getRewardUTXOs 5P8L8uve728MtEiGP7H4mab4eMiPXLd61NWwBXLJBx8mQQErL',
      'r2-p5-after-cycle-end platform.getRewardUTXOs MBGVsRBo8s8FrkW72uvsSzhy841wG2iSueJ9yuHiAm5CQFY3u',
    ]);
  });

  it('behavior: validator-rewards at its own pace: the renewals seen in between are judged at its next run, in order', async () => {
    const { steps } = await replay(new Set<Point>(['p2-mid-cycle1', 'p4b-after-set-period0', 'p6-final']));
    const infos = (p: Point) => at(steps, p).log.filter((l) => l.level === 'info').map((l) => (l.args[0] as Record<string, unknown>)['end_time']);
    expect(infos('p2-mid-cycle1')).toEqual([]);
    expect(infos('p4b-after-set-period0')).toEqual([Number(entry('p2-mid-cycle1')['endTime']), Number(entry('p3-after-renewal1')['endTime'])]);
    expect(infos('p6-final')).toEqual([Number(entry('p4b-after-set-period0')['endTime'])]);
    const full = await replay();
    expect(outcome(at(steps, 'p4b-after-set-period0'))).toEqual(outcome(at(full.steps, 'p4-after-renewal2')));
    expect(outcome(at(steps, 'p6-final'))).toEqual(outcome(at(full.steps, 'p5-after-exit')));
  });

  it('default: the auto-renew config where an operator looks for it: re-staked share, authority, accrued delegation fees; none once gone', async () => {
    const { steps } = await replay();
    const own = { subnet: '11111111111111111111111111111111LpoYY', node_id: NODE2 };
    const config = (p: Point) =>
      ['avax_validator_auto_compound_reward_ratio', 'avax_validator_authority_threshold', 'avax_validator_authority_addresses', 'avax_validator_accrued_delegatee_reward_avax', 'avax_validator_next_period_seconds'].map((n) => valueOf(at(steps, p).validators, n, own));
    const e = entry('p1-right-after-tx') as unknown as { autoCompoundRewardShares: string; validatorAuthority: { threshold: string; addresses: string[] }; accruedDelegateeReward: string };
    expect(config('p1-right-after-tx')).toEqual([Number(e.autoCompoundRewardShares) / 1e6, Number(e.validatorAuthority.threshold), e.validatorAuthority.addresses.length, Number(e.accruedDelegateeReward), 240]);
    expect(config('p1-right-after-tx')).toEqual([0.5, 1, 1, 0, 240]);
    expect(config('p4b-after-set-period0')).toEqual([0.5, 1, 1, 0, 0]);
    expect(config('p5-after-exit')).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('behavior: the owner balance is what getBalance of the validation reward owner answered at each point', async () => {
    const { steps } = await replay();
    for (const s of steps.filter((x) => x.point !== 'p0-before-tx' && x.point !== 'r2-p2-node2-down')) {
      const b = (exchange(s.point, 'platform.getBalance.validation_reward_owner').result as { balance: string }).balance;
      expect(valueOf(s.rewards, 'avax_reward_owner_balance_avax', { node_id: NODE2 }), s.point).toBe(navaxToAvax(BigInt(b)));
    }
  });
});
