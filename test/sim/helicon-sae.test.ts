// The simulated v1.15.0 node around Helicon (2026-09-22T15:00:00Z on mainnet) and its C-Chain on SAE (ACP-194):
// before the activation Coreth answers (eth_blockNumber = the last accepted block); from Helicon − 10 s SAE does
// (eth_blockNumber and `latest` = the last executed block, `safe`/`finalized` = the last settled one), as the real
// v1.15.0 node recorded in test/fixtures/real-node-v1.15.0 and v1.15.0's source (vms/saevm) say. The expected
// values are read back from the node's own answers (index, blocks), never from the simulator's code.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { metric } from '../helpers/proc.js';
import { raw, result, rpc } from './helpers.js';

const HELICON_MS = Date.UTC(2026, 8, 22, 15);
const AFTER = Date.UTC(2026, 10, 28, 12, 0, 0);
let sim: SimNode | undefined;
let clock = AFTER;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(atMs: number, opts: { seed?: number } = {}): Promise<SimNode> {
  clock = atMs;
  sim = await startSimNode({ seed: opts.seed ?? 31, validators: 60, peers: 80, version: '1.15.0', healthIntervalMs: 600_000, now: () => clock });
  return sim;
}
const eth = async (method: string, params: unknown[] = []) => (await rpc(sim!.url, '/ext/bc/C/rpc', method, params)).json;
const hexNum = (s: string) => parseInt(s.slice(2), 16);
/** The last accepted C-Chain height, from the C index (index = height − 1). */
const accepted = async () => Number((await result(sim!.url, '/ext/index/C/block', 'index.getLastAccepted', { encoding: 'hex' })).index) + 1;
const executed = async () => hexNum((await eth('eth_blockNumber')).result);
const block = async (tag: string) => (await eth('eth_getBlockByNumber', [tag, false])).result;
const metrics = async () => (await raw(sim!.url + '/ext/metrics')).body;
const sae = (text: string, name: string) => metric(text, `avalanche_evm_transition_sae_${name}`, { chain: 'C' });

describe('v1.15.0 before Helicon: the C-Chain on Coreth', () => {
  it('eth_blockNumber is the last accepted block; safe and finalized too (Coreth); no SAE families; no eth_gasPrice', async () => {
    await start(HELICON_MS - 30 * 86_400_000);
    for (let i = 0; i < 5; i++, clock += 1300) {
      const a = await accepted();
      expect(await executed()).toBe(a);
      for (const tag of ['latest', 'safe', 'finalized', 'accepted']) expect(hexNum((await block(tag)).number), tag).toBe(a);
    }
    expect((await metrics()).includes('avalanche_evm_transition_')).toBe(false);
    expect((await eth('eth_gasPrice')).error.code).toBe(-32601);
    const u = await result(sim!.url, '/ext/info', 'info.upgrades');
    expect(u.heliconTime).toBe('2026-09-22T15:00:00Z'); // scheduled: the node's own config
  });
});

describe('v1.15.0 after Helicon: the C-Chain on SAE', () => {
  it('latest = executed ≤ accepted, safe = finalized = settled ≤ executed, all growing, never back', async () => {
    await start(AFTER);
    let last = { a: 0, e: 0, s: 0 };
    let behindSeen = 0;
    for (let i = 0; i < 40; i++, clock += 450) {
      const a = await accepted();
      const e = await executed();
      const s = hexNum((await block('safe')).number);
      expect(hexNum((await block('finalized')).number)).toBe(s);
      expect(hexNum((await block('latest')).number)).toBe(e);
      expect(e).toBeLessThanOrEqual(a);
      expect(a - e).toBeLessThanOrEqual(1); // a healthy executor: at most the block it is executing
      expect(s).toBeLessThan(e); // settled by a block Tau (5 s) later: behind the executed one
      expect(e - s).toBeLessThanOrEqual(5); // 5 s of blocks at 0.5 blocks/s, and the one executing
      expect([a >= last.a, e >= last.e, s >= last.s]).toEqual([true, true, true]);
      if (a > e) behindSeen++;
      last = { a, e, s };
    }
    expect(last.e - 10).toBeGreaterThan(0);
    expect(behindSeen).toBeLessThan(40);
  });

  it('a block just accepted is not executed yet: eth_blockNumber lags the index for a few milliseconds', async () => {
    await start(AFTER);
    const a0 = await accepted();
    let a = a0;
    // the next acceptance is at most 2 s away (0.5 blocks/s): step the clock by 1 ms until it happens
    for (let i = 0; i < 2100 && a === a0; i++) {
      clock += 1;
      a = await accepted();
    }
    expect(a).toBe(a0 + 1);
    expect(await executed()).toBe(a - 1);
    const pending = await block('pending');
    expect([hexNum(pending.number), pending.hash, pending.miner, pending.nonce]).toEqual([a - 1, null, null, null]);
    // the accepted block is served though not executed; the next one is not there yet
    expect(hexNum((await block('0x' + a.toString(16))).number)).toBe(a);
    expect(await block('0x' + (a + 1).toString(16))).toBeNull();
    for (let i = 0; i < 200 && (await executed()) < a; i++) clock += 1;
    expect(await executed()).toBe(a);
  });

  it('a block names the height it settles (settledHeight ≤ its parent), the gas limit of SAE and its worst-case gas', async () => {
    await start(AFTER);
    clock += 60_000;
    const latest = await block('latest');
    const h = hexNum(latest.number);
    const settles = hexNum(latest.settledHeight);
    expect(settles).toBeLessThan(h);
    expect(hexNum((await block('safe')).number)).toBeGreaterThanOrEqual(settles);
    expect(latest.gasLimit).toBe('0x1312d00'); // ω_B = 2 × target × Tau × Lambda = 2e7
    expect(hexNum(latest.gasUsed)).toBe(33_600 * latest.transactions.length);
    expect(latest.parentHash).toBe((await block('0x' + (h - 1).toString(16))).hash);
    expect((await eth('eth_gasPrice')).result).toBe('0x' + (hexNum(latest.baseFeePerGas) + 1).toString(16));
    expect((await eth('eth_getBlockByNumber', ['accepted', false])).error).toEqual({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' });
  });

  it('v1.14.2 keeps its Coreth answers after the same date (safe and finalized refused as before)', async () => {
    clock = AFTER;
    sim = await startSimNode({ seed: 31, validators: 60, peers: 80, version: '1.14.2', now: () => clock });
    expect(await executed()).toBe(await accepted());
    expect((await eth('eth_getBlockByNumber', ['safe', false])).error.code).toBe(-32602);
  });
});

describe('v1.15.0 after Helicon: /ext/metrics', () => {
  /** family → [type, HELP] of an exposition text */
  const families = (text: string, prefix: string) => {
    const out = new Map<string, string[]>();
    for (const m of text.matchAll(/^# (HELP|TYPE) (\S+) ?(.*)$/gm)) if (m[2]!.startsWith(prefix)) out.set(m[2]!, [...(out.get(m[2]!) ?? []), m[3]!]);
    return out;
  };

  it("the avalanche_evm_transition_* families of the recorded node: names, HELP and types, every sample's labels", async () => {
    const { readFileSync } = await import('node:fs');
    const real = readFileSync(new URL('../fixtures/real-node-v1.15.0/ext-metrics.txt', import.meta.url), 'utf8');
    await start(AFTER);
    clock += 30_000;
    const got = await metrics();
    expect([...families(got, 'avalanche_evm_transition_')].sort()).toEqual([...families(real, 'avalanche_evm_transition_')].sort());
    const labels = (text: string) => new Set([...text.matchAll(/^(avalanche_evm_transition_\w+)(\{[^}]*\})? /gm)].map((m) => `${m[1]}${(m[2] ?? '').replace(/="[^"]*"/g, '')}`));
    expect([...labels(got)].sort()).toEqual([...labels(real)].sort());
  });

  it('the SAE series follow the chain: heights, queue, gas of the executed blocks as their headers say, one observation per block', async () => {
    await start(AFTER);
    const m0 = await metrics();
    expect(sae(m0, 'gas_time_wall_time_gap_seconds')).toBe(9223372036.854776); // MaxInt64 ns: nothing executed since the start
    expect(sae(m0, 'execute_block_duration_seconds_count')).toBe(0);
    clock += 20_000;
    const m1 = await metrics();
    const e1 = await executed();
    clock += 3 * 60_000 + 1;
    const m2 = await metrics();
    const e2 = await executed();
    const a2 = Number(metric(m2, 'avalanche_snowman_last_accepted_height', { chain: 'C' }));
    expect([sae(m2, 'last_executed_height'), sae(m2, 'last_settled_height')]).toEqual([e2, hexNum((await block('safe')).number)]);
    expect(sae(m2, 'execution_queue_blocks')).toBe(a2 - e2);
    let charged = 0;
    let worst = 0;
    for (let h = e1 + 1; h <= e2; h++) {
      const b = await block('0x' + h.toString(16));
      charged += 21_000 * b.transactions.length;
      worst += hexNum(b.gasUsed);
    }
    expect(e2 - e1).toBeGreaterThan(80); // 3 minutes at 0.5 blocks/s
    expect(charged).toBeGreaterThan(0);
    expect(sae(m2, 'executed_gas_charged_total')! - sae(m1, 'executed_gas_charged_total')!).toBe(charged);
    expect(sae(m2, 'executed_gas_limit_total')! - sae(m1, 'executed_gas_limit_total')!).toBe(worst);
    let queued = 0;
    for (let h = e2 + 1; h <= a2; h++) queued += hexNum((await block('0x' + h.toString(16))).gasUsed);
    expect(sae(m2, 'execution_queue_gas_limit')).toBe(queued);
    expect(sae(m2, 'accepted_gas_limit_total')! - sae(m2, 'executed_gas_limit_total')!).toBe(queued);
    for (const hist of ['execute_block_duration_seconds', 'execution_queue_duration_seconds']) {
      expect(sae(m2, `${hist}_count`)! - sae(m1, `${hist}_count`)!, hist).toBe(e2 - e1);
      expect(metric(m2, `avalanche_evm_transition_sae_${hist}_bucket`, { le: '+Inf' })).toBe(sae(m2, `${hist}_count`));
      expect(sae(m2, `${hist}_sum`)!).toBeGreaterThan(sae(m1, `${hist}_sum`)!);
    }
    // the execution time is part of the time in the queue
    expect(sae(m2, 'execution_queue_duration_seconds_sum')!).toBeGreaterThanOrEqual(sae(m2, 'execute_block_duration_seconds_sum')!);
    const gap = sae(m2, 'gas_time_wall_time_gap_seconds')!;
    expect(gap).toBeLessThan(0.5);
    expect(gap).toBeGreaterThan(-2);
    expect(sae(m2, 'last_executed_gas_time_seconds')! * 1000).toBeGreaterThan(clock - 10_000);
    expect(metric(m2, 'avalanche_evm_transition_cchain_min_block_delay_seconds')).toBe(2);
  });

  it("Coreth's registry stays exported but frozen: moving until the transition, then not", async () => {
    await start(HELICON_MS - 15 * 60_000, { seed: 32 });
    const gas = (t: string) => metric(t, 'avalanche_evm_eth_chain_block_gas_used_accepted', { chain: 'C' })!;
    await metrics();
    clock += 10 * 60_000;
    const before = await metrics();
    expect(gas(before)).toBeGreaterThan(0);
    expect(before.includes('avalanche_evm_transition_')).toBe(false);
    clock = HELICON_MS + 10 * 60_000;
    const after = await metrics();
    clock += 30 * 60_000;
    const later = await metrics();
    expect(gas(after)).toBeGreaterThan(gas(before));
    expect(gas(later)).toBe(gas(after));
    expect(metric(later, 'avalanche_evm_eth_txpool_pending', { chain: 'C' })).toBe(metric(after, 'avalanche_evm_eth_txpool_pending', { chain: 'C' }));
    expect(sae(later, 'last_executed_height')).toBe(await executed());
    // SAE's counters start at the transition block, not at the process start
    expect(sae(later, 'execute_block_duration_seconds_count')).toBeLessThan((40 * 60 + 10) / 2 + 2);
    expect(sae(later, 'execute_block_duration_seconds_count')).toBeGreaterThan((40 * 60 - 10) / 2 - 2);
  });

  it('a process started after the transition: Coreth at 0 throughout', async () => {
    await start(AFTER);
    await metrics();
    clock += 10 * 60_000;
    const t = await metrics();
    expect(metric(t, 'avalanche_evm_eth_chain_block_gas_used_accepted', { chain: 'C' })).toBe(0);
    expect(metric(t, 'avalanche_evm_eth_txpool_pending', { chain: 'C' })).toBe(0);
  });
});

describe('execution-stalled: the SAE executor stops', () => {
  it('executed height, gas and histograms stop; accepted moves for Tau (5 s) more, the queue grows, then stays; healthy catches up', async () => {
    await start(AFTER);
    clock += 60_000;
    const a0 = await accepted();
    await sim!.setScenario('execution-stalled');
    const e0 = await executed();
    expect(a0 - e0).toBeLessThanOrEqual(1);
    const m0 = await metrics();
    const seen: { a: number; e: number; q: number }[] = [];
    for (let i = 0; i < 30; i++) {
      clock += 1000;
      const t = await metrics();
      const a = await accepted();
      expect(await executed()).toBe(e0);
      expect(sae(t, 'last_executed_height')).toBe(e0);
      expect(sae(t, 'last_settled_height')!).toBeLessThanOrEqual(e0);
      expect(sae(t, 'execution_queue_blocks')).toBe(a - e0);
      expect(sae(t, 'executed_gas_charged_total')).toBe(sae(m0, 'executed_gas_charged_total'));
      expect(sae(t, 'execute_block_duration_seconds_count')).toBe(sae(m0, 'execute_block_duration_seconds_count'));
      // blocks the node cannot verify are dropped: nothing piles up in consensus
      expect(metric(t, 'avalanche_snowman_blks_processing', { chain: 'C' })!).toBeLessThanOrEqual(1);
      seen.push({ a, e: e0, q: sae(t, 'execution_queue_blocks')! });
    }
    // 5 s of blocks at 0.5 blocks/s were still accepted, then none: the queue grew to 2–4 blocks and stays
    expect(seen[4]!.a).toBeGreaterThan(a0);
    expect(seen.at(-1)!.a).toBe(seen[6]!.a);
    expect(seen.at(-1)!.q).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)!.q).toBeLessThanOrEqual(4);
    expect(seen[0]!.q).toBeLessThan(seen.at(-1)!.q);
    const stuck = await metrics();
    expect(sae(stuck, 'execution_queue_gas_limit')).toBe(sae(stuck, 'accepted_gas_limit_total')! - sae(stuck, 'executed_gas_limit_total')!);
    await sim!.setScenario('healthy');
    clock += 500;
    const a = await accepted();
    expect(a).toBeGreaterThan(seen.at(-1)!.a + 10); // caught up with the network at once
    expect(a - (await executed())).toBeLessThanOrEqual(1);
  });

  it('on v1.14.2 (Coreth executes while verifying) the accepted height stops 5 s after the switch, eth_blockNumber with it', async () => {
    clock = AFTER;
    sim = await startSimNode({ seed: 31, validators: 60, peers: 80, version: '1.14.2', now: () => clock });
    await sim.setScenario('execution-stalled');
    const a0 = await accepted();
    clock += 6000;
    const a1 = await accepted();
    clock += 60_000;
    expect(await accepted()).toBe(a1);
    expect(await executed()).toBe(a1);
    expect(a1 - a0).toBeLessThanOrEqual(3);
    expect((await metrics()).includes('avalanche_evm_transition_')).toBe(false);
  });
});

describe('v1.15.0: the P-Chain fee configs', () => {
  it("getFeeConfig and getValidatorFeeConfig answer mainnet's (the minimum validator fee = getValidatorFeeState's price at rest); v1.14.2 keeps refusing them", async () => {
    await start(AFTER);
    const gas = await result(sim!.url, '/ext/bc/P', 'platform.getFeeConfig');
    expect(Object.keys(gas)).toEqual(['weights', 'maxCapacity', 'maxPerSecond', 'targetPerSecond', 'minPrice', 'excessConversionConstant']);
    expect(gas.targetPerSecond * 2).toBe(gas.maxPerSecond);
    expect(gas.minPrice).toBe((await result(sim!.url, '/ext/bc/P', 'platform.getFeeState')).price);
    const l1 = await result(sim!.url, '/ext/bc/P', 'platform.getValidatorFeeConfig');
    expect(Object.keys(l1)).toEqual(['capacity', 'target', 'minPrice', 'excessConversionConstant']);
    expect(l1.minPrice).toBe((await result(sim!.url, '/ext/bc/P', 'platform.getValidatorFeeState')).price);
    await sim!.close();
    sim = await startSimNode({ seed: 31, validators: 60, peers: 80, version: '1.14.2', now: () => clock });
    expect((await rpc(sim.url, '/ext/bc/P', 'platform.getFeeConfig')).json.error.message).toBe('rpc: can\'t find method "platform.GetFeeConfig"');
  });
});

describe('v1.15.0 over a year across Helicon', () => {
  it('every 5 days from 2026-06 to 2027-06: Coreth then SAE, executed ≤ accepted, settled ≤ executed, the eight ACPs, auto-renewal only after Helicon', async () => {
    await start(Date.UTC(2026, 5, 1));
    const own = sim!.nodeId(0);
    let sawBefore = false;
    let sawAfter = false;
    for (let i = 0; i < 73; i++, clock += 5 * 86_400_000) {
      const after = clock >= HELICON_MS;
      const t = await metrics();
      const a = await accepted();
      const e = await executed();
      expect(t.includes('avalanche_evm_transition_sae_last_executed_height'), new Date(clock).toISOString()).toBe(after);
      if (after) {
        expect(sae(t, 'last_executed_height')).toBe(e);
        expect(a - e).toBeLessThanOrEqual(1);
        expect(sae(t, 'last_settled_height')!).toBeLessThan(e);
      } else expect(e).toBe(a);
      expect(Object.keys((await result(sim!.url, '/ext/info', 'info.acps')).acps)).toEqual(['194', '224', '236', '247', '267', '273', '283', '285']);
      const [mine] = (await result(sim!.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [own] })).validators;
      expect('nextPeriod' in mine).toBe(after);
      sawBefore ||= !after;
      sawAfter ||= after;
    }
    expect([sawBefore, sawAfter]).toEqual([true, true]);
  });
});
