// The simulator's scenarios added for the backtest (issue 26): what each one changes on the wire, on
// an injected clock (the backtest runs on one); and the chain seed a network's nodes share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeModel } from '@avalanche-exporter/simulated-node';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { raw, rpc } from './helpers.js';

const T0 = Date.UTC(2026, 0, 5);
const MIN = 60_000;
let now = T0;
let sim: SimNode;

/** One value of a metric line of GET /ext/metrics (the first match), or undefined. */
async function metric(name: string, labels: string): Promise<number | undefined> {
  const text = (await raw(`${sim.url}/ext/metrics`)).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
const height = async (chain: 'C' | 'P') =>
  chain === 'C' ? Number.parseInt((await rpc(sim.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])).json.result, 16) : Number((await rpc(sim.url, '/ext/bc/P', 'platform.getHeight', {})).json.result.height);
const uptime = async () => (await rpc(sim.url, '/ext/info', 'info.uptime')).json.result as { weightedAveragePercentage: string; rewardingStakePercentage: string };
const ownEnd = async () => {
  const v = (await rpc(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [sim.nodeId()] })).json.result.validators[0];
  return { end: Number(v.endTime), txID: v.txID as string };
};

beforeAll(async () => {
  sim = await startSimNode({ seed: 11, validators: 60, peers: 80, now: () => now, healthIntervalMs: 30_000 });
});
afterAll(async () => {
  await sim?.close();
});

describe('backtest scenarios', () => {
  it('behavior: uptime-at-risk: the weighted uptime between 80 and 85 %, the rewarding stake whole', async () => {
    expect(Number((await uptime()).weightedAveragePercentage)).toBeGreaterThan(95);
    await sim.setScenario('uptime-at-risk');
    const u = await uptime();
    expect(Number(u.weightedAveragePercentage)).toBeGreaterThanOrEqual(80);
    expect(Number(u.weightedAveragePercentage)).toBeLessThan(85);
    expect(Number(u.rewardingStakePercentage)).toBeGreaterThan(99);
    await sim.setScenario('healthy');
  });

  it('behavior: validator-ending: the own validation ends 10 days (less its last hour) after the switch', async () => {
    await sim.setScenario('validator-ending');
    const { end } = await ownEnd();
    expect(end - T0 / 1000).toBeGreaterThan(10 * 86_400 - 3_600);
    expect(end - T0 / 1000).toBeLessThanOrEqual(10 * 86_400);
    await sim.setScenario('healthy');
  });

  it('behavior: l1-fee-warning: 3 days of fees at the switch, draining', async () => {
    const balance = async () => {
      const r = await rpc(sim.url, '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: sim.l1SubnetId, nodeIDs: [sim.nodeId()] });
      return BigInt(r.json.result.validators[0].balance as string);
    };
    const switchAt = now;
    await sim.setScenario('l1-fee-warning');
    expect(await balance()).toBe(512n * 259_200n);
    now += 10 * MIN;
    expect(await balance()).toBe(512n * (259_200n - 600n));
    now = switchAt;
    await sim.setScenario('healthy');
  });

  it('behavior: consensus-stuck: the C-Chain height stops, blocks wait; leaving it catches up', async () => {
    const c0 = await height('C');
    const p0 = await height('P');
    await sim.setScenario('consensus-stuck');
    const processing0 = await metric('avalanche_snowman_blks_processing', 'chain="C"');
    now += 10 * MIN;
    expect(await height('C')).toBe(c0);
    expect(await height('P')).toBeGreaterThan(p0);
    expect(await metric('avalanche_snowman_blks_processing', 'chain="C"')).toBe(processing0! + 30);
    await sim.setScenario('healthy');
    expect(await height('C')).toBeGreaterThanOrEqual(c0 + 10 * 60 * 0.5);
  });

  it('behavior: lagging: heights grow at half the pace from the switch', async () => {
    const c0 = await height('C');
    await sim.setScenario('lagging');
    now += 10 * MIN;
    expect(await height('C')).toBe(c0 + 10 * 60 * 0.5 * 0.5);
    await sim.setScenario('healthy');
  });

  it('behavior: db-slow: the database time per call goes from 9 µs to 80 ms, as a counter', async () => {
    const calls0 = (await metric('avalanche_meterdb_calls', 'chain="C",method="get"'))!;
    const time0 = (await metric('avalanche_meterdb_duration', 'chain="C",method="get"'))!;
    await sim.setScenario('db-slow');
    now += MIN;
    const calls1 = (await metric('avalanche_meterdb_calls', 'chain="C",method="get"'))!;
    const time1 = (await metric('avalanche_meterdb_duration', 'chain="C",method="get"'))!;
    expect((time1 - time0) / (calls1 - calls0) / 1e9).toBeCloseTo(0.08, 2);
    await sim.setScenario('healthy');
    now += MIN;
    const calls2 = (await metric('avalanche_meterdb_calls', 'chain="C",method="get"'))!;
    const time2 = (await metric('avalanche_meterdb_duration', 'chain="C",method="get"'))!;
    expect(time2).toBeGreaterThan(time1);
    expect((time2 - time1) / (calls2 - calls1)).toBeCloseTo(9_000, -2);
  });

  it('behavior: disk-filling: the diskspace check fails once less than 10 % is left', async () => {
    const check = async () => JSON.parse((await raw(`${sim.url}/ext/health`)).body).checks.diskspace as { error?: string; message: { availableDiskPercentage: number } };
    await sim.setScenario('disk-filling');
    now += 30_000;
    const before = await check();
    expect(before.error).toBeUndefined();
    now += 2 * 3_600_000;
    const after = await check();
    expect(after.message.availableDiskPercentage).toBeLessThan(10);
    expect(after.error).toMatch(/below warning threshold/);
    await sim.setScenario('healthy');
  });

  it('behavior: reward-missed-watched: the validation that ends keeps its txID; no reward UTXO', async () => {
    const before = await ownEnd();
    await sim.setScenario('reward-missed-watched');
    const during = await ownEnd();
    expect(during.txID).toBe(before.txID);
    expect(during.end - Math.floor(now / 1000)).toBe(600);
    now += 11 * MIN;
    const after = await ownEnd();
    expect(after.txID).not.toBe(before.txID);
    const r = await rpc(sim.url, '/ext/bc/P', 'platform.getRewardUTXOs', { txID: before.txID, encoding: 'hex' });
    expect(r.json.result.numFetched).toBe('0');
    await sim.setScenario('healthy');
  });

  it('default: nodes given one chain seed report the same heights; their own seeds differ otherwise', () => {
    let t = T0;
    const make = (seed: number, chainSeed?: number) => new NodeModel({ seed, validators: 20, peers: 20, blockRates: { P: 0.2, C: 0.5, X: 0.1 }, now: () => t, chainSeed });
    const [a, b, c] = [make(1, 99), make(2, 99), make(3)];
    t += 3_600_000;
    expect(a.height('C')).toBe(b.height('C'));
    expect(a.height('P')).toBe(b.height('P'));
    expect(a.nodeId).not.toBe(b.nodeId);
    expect(c.height('C')).not.toBe(a.height('C'));
  });
});
