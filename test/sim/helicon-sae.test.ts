// The simulated v1.15.0 node around Helicon (2026-09-22T15:00:00Z on mainnet) and its C-Chain on SAE (ACP-194):
// before the activation Coreth answers (eth_blockNumber = the last accepted block); from Helicon − 10 s SAE does
// (eth_blockNumber and `latest` = the last executed block, `safe`/`finalized` = the last settled one), as the real
// v1.15.0 node recorded in test/fixtures/real-node-v1.15.0 and v1.15.0's source (vms/saevm) say. The expected
// values are read back from the node's own answers (index, blocks), never from the simulator's code.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimNode, type SimNode } from '../../src/sim/server.js';
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
