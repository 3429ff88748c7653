// The simulated node's history during a run (simulated-node/src/own-history.ts, issue 43): the moments in which monitors cry
// wolf, as avalanchego shows them. A fixed-end validation that ends and is re-staked (its reward paid under the old
// txID, a new txID from that second); a validator that joins again (a new validation, or on 1.15.0 a new
// auto-renewed registration); info.uptime counting only the own stake until the peers report (after a restart of
// the process, a new validation, a peer's own restart: network.NodeUptime, one PingFrequency); peers restarting
// around the node; L1 validators registered (connecting minutes later) and removed. Driven through the backtest's
// in-process fleet (the same routes the HTTP simulator serves) on an injected clock.
import { describe, expect, it } from 'vitest';
import { SimFleet } from '../../backtest/src/sim-fleet.js';

const DAY = 86_400;

function fleetAt(startMs: number, version: '1.14.2' | '1.15.0' = '1.14.2') {
  let now = startMs;
  const fleet = new SimFleet({ nodes: 1, seed: 11, validators: 40, peers: 60, now: () => now, versions: [version] });
  const call = (path: string, method: string, params: unknown = {}) => {
    const out = fleet.request(0, 'POST', path, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    if (out.kind !== 'answer') throw new Error(`no answer: ${out.code}`);
    const body = JSON.parse(out.answer.body) as { result?: any; error?: { message: string } };
    if (!body.result) throw new Error(`${method}: ${body.error?.message}`);
    return body.result;
  };
  const own = () => call('/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [fleet.nodeId(0)] }).validators[0] as Record<string, string> | undefined;
  const uptime = () => call('/ext/info', 'info.uptime') as { rewardingStakePercentage: string; weightedAveragePercentage: string };
  return { fleet, call, own, uptime, set: (ms: number) => void (now = ms), get now() { return now; } };
}

describe('sim history: a fixed-end validation that ends and is re-staked', () => {
  it('behavior: its end is seen 60 s ahead, its reward is paid under the old txID, a new validation starts that second', () => {
    const t0 = Date.UTC(2026, 0, 5);
    const f = fleetAt(t0);
    const before = f.own()!;
    f.set(t0 + 3_600_000);
    const at = Math.floor(f.now / 1000) + 120;
    f.set(at * 1000 - 120_000);
    expect(f.fleet.restake(0)).toBe(true); // recorded now, at `at - 120`: ends at once
    const atS = Math.floor(f.now / 1000);
    f.set((atS - 1) * 1000);
    const last = f.own()!;
    expect(last['txID']).toBe(before['txID']);
    expect(Number(last['endTime'])).toBe(atS);
    f.set(atS * 1000);
    const next = f.own()!;
    expect(next['txID']).not.toBe(before['txID']);
    expect(Number(next['startTime'])).toBe(atS);
    expect(Number(next['endTime'])).toBe(atS + 28 * DAY);
    const utxos = f.call('/ext/bc/P', 'platform.getRewardUTXOs', { txID: before['txID'], encoding: 'hex' });
    expect(Number(utxos.numFetched)).toBeGreaterThan(0);
    expect(f.call('/ext/bc/P', 'platform.getRewardUTXOs', { txID: next['txID'], encoding: 'hex' }).numFetched).toBe('0');
  });

  it('behavior: an auto-renewed validator (1.15.0 after Helicon) is not re-staked: its cycle boundary is its re-stake', () => {
    const f = fleetAt(Date.UTC(2026, 9, 5), '1.15.0');
    const before = f.own()!;
    expect(f.fleet.autoRenewed(0)).toBe(true);
    expect(f.fleet.restake(0)).toBe(false);
    f.set(f.now + 60_000);
    expect(f.own()!['txID']).toBe(before['txID']);
  });
});

describe('sim history: a validator that joins', () => {
  it('behavior: on 1.15.0 a new auto-renewed registration (another txID) whose first cycle starts at the join', () => {
    const f = fleetAt(Date.UTC(2026, 9, 5), '1.15.0');
    const before = f.own()!;
    f.fleet.setScenario(0, 'not-a-validator');
    f.set(f.now + 5 * 60_000);
    expect(f.own()).toBeUndefined();
    f.fleet.setScenario(0, 'healthy');
    f.fleet.join(0);
    const joinS = Math.floor(f.now / 1000);
    const after = f.own()!;
    expect(after['txID']).not.toBe(before['txID']);
    expect(Number(after['startTime'])).toBe(joinS);
    expect(Number(after['endTime']) - joinS).toBe(Number(after['nextPeriod']));
  });

  it("behavior: info.uptime counts the own stake alone until the peers report (within one PingFrequency), then what it did before", () => {
    const t0 = Date.UTC(2026, 0, 5);
    const f = fleetAt(t0);
    const steady = f.uptime();
    expect(Number(steady.weightedAveragePercentage)).toBeGreaterThan(90);
    f.fleet.setScenario(0, 'not-a-validator');
    f.set(t0 + 5 * 60_000);
    f.fleet.setScenario(0, 'healthy');
    f.fleet.join(0);
    const first = f.uptime();
    // NodeUptime starts both sums from the own stake at 100 %: the same small number twice
    expect(first.rewardingStakePercentage).toBe(first.weightedAveragePercentage);
    expect(Number(first.weightedAveragePercentage)).toBeLessThan(20);
    f.set(f.now + 24_000); // 1 s + one PingFrequency (22.5 s): every peer has reported
    expect(Number(f.uptime().weightedAveragePercentage)).toBeGreaterThan(90);
  });

  it('behavior: after a restart of the process too; the fleet start is not a restart (it has been running)', () => {
    const t0 = Date.UTC(2026, 0, 5);
    const f = fleetAt(t0);
    expect(Number(f.uptime().weightedAveragePercentage)).toBeGreaterThan(90);
    f.set(t0 + 3_600_000);
    f.fleet.restart(0);
    f.set(f.now + 500);
    const first = f.uptime();
    expect(Number(first.weightedAveragePercentage)).toBeLessThan(20);
    f.set(f.now + 24_000);
    expect(Number(f.uptime().weightedAveragePercentage)).toBeGreaterThan(90);
  });
});

describe('sim history: peers restarting around the node', () => {
  it('behavior: the share restarting is gone from info.peers and disconnected, the uptime drops by their stake, then all is back a PingFrequency after', () => {
    const t0 = Date.UTC(2026, 0, 5);
    const f = fleetAt(t0);
    const peers0 = Number(f.call('/ext/info', 'info.peers').numPeers);
    const up0 = Number(f.uptime().weightedAveragePercentage);
    f.fleet.restartPeers(0, 0.5, 120_000);
    f.set(t0 + 60_000);
    const peers1 = Number(f.call('/ext/info', 'info.peers').numPeers);
    expect(peers1).toBeLessThan(peers0 * 0.8);
    expect(Number(f.uptime().weightedAveragePercentage)).toBeLessThan(up0 - 10);
    f.set(t0 + 120_000 + 24_000);
    expect(Number(f.call('/ext/info', 'info.peers').numPeers)).toBeGreaterThan(peers0 * 0.9);
    expect(Number(f.uptime().weightedAveragePercentage)).toBeGreaterThan(up0 - 3);
  });
});

describe('sim history: L1 validators registered and removed', () => {
  it('behavior: a registered validator is listed from its registration with a healthy balance, connects minutes later; the next change removes it', () => {
    const t0 = Date.UTC(2026, 0, 5);
    const f = fleetAt(t0);
    const subnet = f.fleet.l1SubnetId(0);
    const list = () => f.call('/ext/bc/P', 'platform.getCurrentValidators', { subnetID: subnet }).validators as Record<string, string>[];
    const n0 = list().length;
    expect(f.fleet.changeL1(0)).toBe(true);
    const added = list();
    expect(added).toHaveLength(n0 + 1);
    const extra = added.at(-1)!;
    expect(Number(extra['startTime'])).toBe(t0 / 1000);
    expect(BigInt(extra['balance']!)).toBeGreaterThan(512n * 30n * 86_400n - 1n);
    const health = () => f.call('/ext/health', 'health.health', { tags: [subnet] });
    const disconnected = () => JSON.stringify(health()).includes(extra['nodeID']!);
    expect(disconnected()).toBe(true);
    f.set(t0 + 11 * 60_000);
    expect(disconnected()).toBe(false);
    expect(f.fleet.changeL1(0)).toBe(true);
    expect(list().map((v) => v['nodeID'])).not.toContain(extra['nodeID']);
    expect(list()).toHaveLength(n0);
  });
});
