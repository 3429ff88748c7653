// Issue 7 (operator intelligence): the simulator's wire facts for reward risk, delegation
// capacity, L1 fee runway, network upgrades, version drift, BLS keys, ACP votes and several
// vantage points (sibling nodes), plus the healthy invariants the "no alert fires" test needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS, SCENARIO_HELP, startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { nodeIdValid, raw, result, rpc, startReadySim, waitFor } from './helpers.js';

const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);
const DAY = 86_400;
const PRICE = 512n;
const GRANITE = 1763568000;
const HEX96 = /^0x[0-9a-f]{96}$/;
const HEX192 = /^0x[0-9a-f]{192}$/;
const RFC3339_S = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const MAX_WEIGHT = 3_000_000n * 1_000_000_000n;

/** Semantic version of "avalanchego/x.y.z" (null if it does not parse). */
function semver(v: string): [number, number, number] | null {
  const m = /^avalanchego\/(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
function newer(a: string, b: string): boolean {
  const x = semver(a);
  const y = semver(b);
  if (!x || !y) return false;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) > (y[i] as number);
  return false;
}
const rfc = (unix: number): string => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
const byJson = (a: unknown[]): unknown[] => [...a].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0));

let sim: SimNode;
let clock = T0;

const info = (m: string, p?: unknown): Promise<any> => result(sim.url, '/ext/info', m, p);
const pchain = (m: string, p?: unknown): Promise<any> => result(sim.url, '/ext/bc/P', m, p);
const own = async (url = sim.url, id = sim.nodeId()): Promise<any> =>
  (await result(url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [id] })).validators[0];
const ownL1 = async (): Promise<any> =>
  (await pchain('platform.getCurrentValidators', { subnetID: sim.l1SubnetId, nodeIDs: [sim.nodeId()] })).validators[0];
const health = async (url = sim.url): Promise<{ status: number; json: any }> => {
  const r = await raw(url + '/ext/health');
  return { status: r.status, json: JSON.parse(r.body) };
};
const capacity = (v: any): bigint => {
  const w = BigInt(v.weight);
  const cap = 5n * w < MAX_WEIGHT ? 5n * w : MAX_WEIGHT;
  const c = cap - w - BigInt(v.delegatorWeight);
  return c > 0n ? c : 0n;
};
/** Share of the primary-network weight (own + delegations) held by the given node IDs. */
const stakeShare = async (ids: Set<string>): Promise<number> => {
  const all = (await pchain('platform.getCurrentValidators')).validators;
  let tot = 0n;
  let sel = 0n;
  for (const v of all) {
    const w = BigInt(v.weight) + BigInt(v.delegatorWeight);
    tot += w;
    if (ids.has(v.nodeID)) sel += w;
  }
  return Number((sel * 10_000n) / tot) / 10_000;
};

/** The healthy invariants: nothing that issue 7's alerts look at may be near a threshold. */
async function expectHealthyInvariants(): Promise<void> {
  const nowS = Math.floor(clock / 1000);
  const v = await own();
  expect(Number(v.endTime) - nowS, 'own validation ends > 20 days ahead').toBeGreaterThan(20 * DAY);
  expect(Number(v.startTime)).toBeLessThanOrEqual(nowS);
  expect(capacity(v) > 0n, 'delegation capacity left').toBe(true);
  const l1 = await ownL1();
  expect(BigInt(l1.balance) / PRICE > BigInt(14 * DAY), 'L1 runway > 14 days at 512 nAVAX/s').toBe(true);
  expect((await info('info.getNodeID')).nodePOP.publicKey).toBe(v.signer.publicKey);
  const u = await info('info.upgrades');
  expect(u.heliconTime).toBe('9999-12-01T00:00:00Z');
  const peers = (await info('info.peers')).peers as any[];
  const parsed = peers.filter((p) => semver(p.version));
  expect(parsed.filter((p) => newer(p.version, 'avalanchego/1.14.2')).length / parsed.length).toBeLessThan(0.5);
  expect(await info('info.acps')).toEqual({ acps: {} });
  for (const p of peers) {
    expect(p.supportedACPs).toEqual([]);
    expect(p.objectedACPs).toEqual([]);
  }
  const h = await health();
  expect(h.json.checks.bls).toMatchObject({ message: 'node has the correct BLS key' });
  expect(h.json.checks.bls.error).toBeUndefined();
  expect(h.json.checks.futureupgrade.error).toBeUndefined();
  expect(h.json.checks.futureupgrade.message.localUpgradeTime).toBe('2025-11-19T16:00:00Z');
  expect(h.json.checks.futureupgrade.message.modeUpgradeTime).toBe('2025-11-19T16:00:00Z');
  expect('timeUntilUpgrade' in h.json.checks.futureupgrade.message).toBe(false);
}

beforeAll(async () => {
  // The invariants and scenarios of a v1.14.2 node (Helicon unscheduled, no ACP listed): pinned since the default is
  // 1.15.0; test/sim/helicon-sae.test.ts has the 1.15.0 node's.
  sim = await startReadySim({ seed: 11, validators: 160, peers: 200, healthIntervalMs: 40, now: () => clock, version: '1.14.2' });
});
afterAll(async () => {
  await sim?.close();
});

describe('scenario list', () => {
  it('names every issue 7 scenario, each with a help line', () => {
    for (const s of ['rewards-lost', 'delegation-full', 'l1-fee-low', 'l1-inactive', 'upgrade-pending', 'upgrade-unknown', 'version-drift', 'bls-mismatch', 'acp-vote', 'vantage-isolated']) {
      expect(SCENARIOS as readonly string[]).toContain(s);
      expect(SCENARIO_HELP[s as keyof typeof SCENARIO_HELP].length).toBeGreaterThan(10);
    }
  });
});

describe('healthy invariants', () => {
  it('hold at the start', async () => {
    await expectHealthyInvariants();
  });

  it('hold for a year of simulated time (own validation renewed, L1 balance topped up)', async () => {
    const start = clock;
    const ends = new Set<string>();
    try {
      for (let i = 0; i < 53; i++) {
        clock = start + i * 7 * DAY * 1000 + (i % 5) * 3_600_000;
        const nowS = Math.floor(clock / 1000);
        const v = await own();
        ends.add(v.endTime);
        expect(Number(v.endTime) - nowS).toBeGreaterThan(20 * DAY);
        expect(Number(v.startTime)).toBeLessThanOrEqual(nowS);
        expect(Number(v.endTime) - Number(v.startTime)).toBeLessThanOrEqual(365 * DAY);
        expect(BigInt((await ownL1()).balance) / PRICE > BigInt(14 * DAY)).toBe(true);
      }
      expect(ends.size).toBeGreaterThan(1); // renewed at least once
    } finally {
      clock = start;
    }
  });

  it('getValidatorFeeState: numbers, price 512', async () => {
    const f = await pchain('platform.getValidatorFeeState');
    expect(Object.keys(f)).toEqual(['excess', 'price', 'timestamp']);
    expect(f.excess).toBe(0);
    expect(f.price).toBe(512);
    expect(f.timestamp).toMatch(RFC3339_S);
  });
});

describe('issue 7 scenarios', () => {
  it('rewards-lost: uptime ~60 / ~10, own validation 24 d done and 6 d left (fixed at the switch)', async () => {
    const before = await own();
    await sim.setScenario('rewards-lost');
    const sw = Math.floor(clock / 1000);
    const u = await info('info.uptime');
    expect(u.weightedAveragePercentage).toMatch(/^\d{1,3}\.\d{4}$/);
    expect(u.rewardingStakePercentage).toMatch(/^\d{1,3}\.\d{4}$/);
    expect(Number(u.weightedAveragePercentage)).toBeGreaterThan(55);
    expect(Number(u.weightedAveragePercentage)).toBeLessThan(65);
    expect(Number(u.rewardingStakePercentage)).toBeGreaterThan(5);
    expect(Number(u.rewardingStakePercentage)).toBeLessThan(15);
    const v = await own();
    expect(v.startTime).toBe(String(sw - 24 * DAY));
    expect(v.endTime).toBe(String(sw + 6 * DAY));
    // best still reachable: u x elapsed + remaining, over the whole validation
    const ratio = Number(u.weightedAveragePercentage) / 100;
    const best = (ratio * 24 + 6) / 30;
    expect(best).toBeLessThan(0.8);
    const obs = (await info('info.peers')).peers.map((p: any) => Number(p.observedUptime)).sort((a: number, b: number) => a - b);
    expect(obs[Math.floor(obs.length / 2)]).toBeGreaterThan(50);
    expect(obs[Math.floor(obs.length / 2)]).toBeLessThan(70);
    clock += 3_600_000;
    const later = await own();
    expect([later.startTime, later.endTime]).toEqual([v.startTime, v.endTime]);
    clock -= 3_600_000;
    await sim.setScenario('healthy');
    const back = await own();
    expect([back.startTime, back.endTime]).toEqual([before.startTime, before.endTime]);
    expect(Number((await info('info.uptime')).weightedAveragePercentage)).toBeGreaterThan(90);
  });

  it('delegation-full: delegatorWeight = 4 x weight, no capacity left, delegators listed', async () => {
    const before = await own();
    await sim.setScenario('delegation-full');
    const v = await own();
    expect(v.weight).toBe(before.weight);
    expect(BigInt(v.weight) <= 600_000n * 1_000_000_000n).toBe(true); // the 3,000,000 AVAX cap does not bite
    expect(v.delegatorWeight).toBe((BigInt(v.weight) * 4n).toString());
    expect(capacity(v)).toBe(0n);
    expect(v.delegatorCount).toMatch(/^\d+$/);
    expect(Number(v.delegatorCount)).toBeGreaterThanOrEqual(150);
    expect(v.delegators).toHaveLength(Number(v.delegatorCount));
    expect(v.delegators.reduce((s: bigint, d: any) => s + BigInt(d.weight), 0n)).toBe(BigInt(v.delegatorWeight));
    const all = (await pchain('platform.getCurrentValidators')).validators.find((x: any) => x.nodeID === sim.nodeId());
    expect(all.delegatorWeight).toBe(v.delegatorWeight);
    expect('delegators' in all).toBe(false);
    await sim.setScenario('healthy');
    const back = await own();
    expect(back.delegatorWeight).toBe(before.delegatorWeight);
    expect(capacity(back) > 0n).toBe(true);
  });

  it('l1-fee-low: balance = 512 x 20 h at the switch, draining; fee state unchanged', async () => {
    await sim.setScenario('l1-fee-low');
    const a = await ownL1();
    expect(a.balance).toBe((PRICE * 20n * 3600n).toString());
    const f = await pchain('platform.getValidatorFeeState');
    expect(f).toMatchObject({ excess: 0, price: 512 });
    expect(BigInt(a.balance) / BigInt(f.price)).toBe(72_000n); // runway 20 h
    clock += 1000_000;
    const b = await ownL1();
    expect(BigInt(a.balance) - BigInt(b.balance)).toBe(PRICE * 1000n);
    clock += 80_000_000; // past 20 h: drained, inactive
    expect((await ownL1()).balance).toBe('0');
    clock -= 81_000_000;
    await sim.setScenario('healthy');
    expect(BigInt((await ownL1()).balance) / PRICE > BigInt(14 * DAY)).toBe(true);
  });

  it('l1-inactive: own L1 validator still listed with "balance":"0", not in the active set', async () => {
    await sim.setScenario('l1-inactive');
    const v = await ownL1();
    expect(v.balance).toBe('0');
    expect(v.publicKey).toMatch(HEX96);
    const at = await pchain('platform.getValidatorsAt', { height: 'proposed', subnetID: sim.l1SubnetId });
    expect(sim.nodeId() in at).toBe(false);
    await sim.setScenario('healthy');
    expect(BigInt((await ownL1()).balance) > 0n).toBe(true);
    const at2 = await pchain('platform.getValidatorsAt', { height: 'proposed', subnetID: sim.l1SubnetId });
    expect(sim.nodeId() in at2).toBe(true);
  });

  it('upgrade-pending: heliconTime = switch + 3 d, ~70 % of peers on 1.15.0 announcing it, futureupgrade healthy', async () => {
    await sim.setScenario('upgrade-pending');
    const helicon = Math.floor(clock / 1000) + 3 * DAY;
    const u = await info('info.upgrades');
    expect(u.heliconTime).toBe(rfc(helicon));
    expect(u.heliconTime).toMatch(RFC3339_S);
    expect(u.graniteTime).toBe('2025-11-19T16:00:00Z');
    const peers = (await info('info.peers')).peers as any[];
    const next = peers.filter((p) => p.version === 'avalanchego/1.15.0');
    for (const p of next) expect(p.upgradeTime).toBe(helicon);
    expect(next.length / peers.length).toBeGreaterThan(0.55);
    expect(next.length / peers.length).toBeLessThan(0.85);
    const share = await stakeShare(new Set(next.map((p) => p.nodeID)));
    expect(share).toBeGreaterThan(0.55);
    expect(share).toBeLessThan(0.85);
    expect(peers.filter((p) => newer(p.version, 'avalanchego/1.14.2')).length / peers.length).toBeGreaterThan(0.5);
    const h = await health();
    const fu = h.json.checks.futureupgrade;
    expect(fu.error).toBeUndefined();
    expect(fu.message.localUpgradeTime).toBe(rfc(helicon));
    expect(fu.message.modeUpgradeTime).toBe(rfc(helicon));
    expect(fu.message.modeUpgradeWeightPercentage).toBeGreaterThan(50);
    expect('timeUntilUpgrade' in fu.message).toBe(false);
    clock += 3_600_000;
    expect((await info('info.upgrades')).heliconTime).toBe(rfc(helicon)); // fixed at the switch
    clock -= 3_600_000;
    await sim.setScenario('healthy');
    expect((await info('info.upgrades')).heliconTime).toBe('9999-12-01T00:00:00Z');
  });

  it('upgrade-unknown: ~70 % of the stake announces switch + 20 h; futureupgrade fails with the Go texts', async () => {
    await sim.setScenario('upgrade-unknown');
    const at = Math.floor(clock / 1000) + 20 * 3600;
    expect((await info('info.upgrades')).heliconTime).toBe('9999-12-01T00:00:00Z');
    const peers = (await info('info.peers')).peers as any[];
    const moved = peers.filter((p) => p.upgradeTime === at);
    for (const p of moved) expect(p.version).toBe('avalanchego/1.15.0');
    const share = await stakeShare(new Set(moved.map((p) => p.nodeID)));
    expect(share).toBeGreaterThan(0.55);
    expect(share).toBeLessThan(0.85);
    const h = await health();
    expect(h.status).toBe(503);
    const fu = h.json.checks.futureupgrade;
    expect(fu.error).toBe('unknown network upgrade detected - update as soon as possible');
    expect(Object.keys(fu.message)).toEqual(['localUpgradeTime', 'modeUpgradeTime', 'modeUpgradeWeightPercentage', 'numUpgradeTimes', 'timeUntilUpgrade']);
    expect(fu.message.localUpgradeTime).toBe('2025-11-19T16:00:00Z');
    expect(fu.message.modeUpgradeTime).toBe(rfc(at));
    expect(typeof fu.message.modeUpgradeWeightPercentage).toBe('number');
    expect(fu.message.modeUpgradeWeightPercentage).toBeGreaterThan(50);
    expect(fu.message.modeUpgradeWeightPercentage).toBeLessThanOrEqual(100);
    expect(Number.isInteger(fu.message.numUpgradeTimes)).toBe(true);
    expect(fu.message.numUpgradeTimes).toBeGreaterThanOrEqual(2);
    expect(fu.message.timeUntilUpgrade).toBe('20h0m0s');
    expect(fu.contiguousFailures).toBeGreaterThanOrEqual(1);
    // < 1 h left: imminent
    clock += 19.5 * 3_600_000;
    const imminent = await waitFor(async () => {
      const c = (await health()).json.checks.futureupgrade;
      return c.message.timeUntilUpgrade === '30m0s' ? c : undefined;
    });
    expect(imminent.error).toBe('imminent network upgrade detected - update immediately');
    // > 1 day left (clock moved back): "unknown network upgrade detected"
    clock -= 30 * 3_600_000;
    const far = await waitFor(async () => {
      const c = (await health()).json.checks.futureupgrade;
      return c.message.timeUntilUpgrade === '30h30m0s' ? c : undefined;
    });
    expect(far.error).toBe('unknown network upgrade detected');
    clock += 10.5 * 3_600_000;
    await sim.setScenario('healthy');
    const back = (await health()).json.checks.futureupgrade;
    expect(back.error).toBeUndefined();
    expect(back.contiguousFailures).toBeUndefined();
  });

  it('version-drift: ~70 % of peers on 1.14.10 (newer by semver, older as a string), nothing scheduled', async () => {
    await sim.setScenario('version-drift');
    expect('avalanchego/1.14.10' < 'avalanchego/1.14.2').toBe(true); // the string-order trap
    const peers = (await info('info.peers')).peers as any[];
    const drift = peers.filter((p) => p.version === 'avalanchego/1.14.10');
    expect(drift.length / peers.length).toBeGreaterThan(0.55);
    expect(drift.length / peers.length).toBeLessThan(0.85);
    for (const p of drift) expect(p.upgradeTime).toBe(GRANITE);
    const others = new Set(peers.filter((p) => p.version !== 'avalanchego/1.14.10').map((p) => p.version));
    for (const v of others) expect(['avalanchego/1.14.2', 'avalanchego/1.14.1', 'avalanchego/1.14.0']).toContain(v);
    expect(peers.filter((p) => newer(p.version, 'avalanchego/1.14.2')).length / peers.length).toBeGreaterThan(0.5);
    expect((await info('info.upgrades')).heliconTime).toBe('9999-12-01T00:00:00Z');
    expect((await health()).json.checks.futureupgrade.error).toBeUndefined();
    expect((await info('info.getNodeVersion')).version).toBe('avalanchego/1.14.2');
    await sim.setScenario('healthy');
    expect((await info('info.peers')).peers.some((p: any) => p.version === 'avalanchego/1.14.10')).toBe(false);
  });

  it('bls-mismatch: getNodeID key differs from the registered signer; bls check fails with the Go text', async () => {
    const reg = (await own()).signer.publicKey;
    await sim.setScenario('bls-mismatch');
    const id = await info('info.getNodeID');
    const v = await own();
    expect(id.nodePOP.publicKey).toMatch(HEX96);
    expect(id.nodePOP.proofOfPossession).toMatch(HEX192);
    expect(v.signer.publicKey).toMatch(HEX96);
    expect(v.signer.publicKey).toBe(reg); // the registration does not change
    expect(id.nodePOP.publicKey).not.toBe(v.signer.publicKey);
    const bls = (await health()).json.checks.bls;
    expect(bls.error).toBe(`node has BLS key ${id.nodePOP.publicKey}, but is registered to the validator set with ${v.signer.publicKey}`);
    expect('message' in bls).toBe(false);
    await sim.setScenario('healthy');
    expect((await info('info.getNodeID')).nodePOP.publicKey).toBe(reg);
    expect((await health()).json.checks.bls).toMatchObject({ message: 'node has the correct BLS key' });
  });

  it('acp-vote: info.acps tallies like avalanchego (weights add up, sorted sets), ~60 % support 247, ~15 % object to 236', async () => {
    await sim.setScenario('acp-vote');
    const r = await rpc(sim.url, '/ext/info', 'info.acps');
    expect(r.body.indexOf('"236"')).toBeLessThan(r.body.indexOf('"247"'));
    const acps = r.json.result.acps;
    expect(Object.keys(acps)).toEqual(['236', '247']);
    const total = BigInt((await pchain('platform.getTotalStake')).weight);
    const peers = (await info('info.peers')).peers as any[];
    const byId = new Map(peers.map((p) => [p.nodeID, p]));
    const all = (await pchain('platform.getCurrentValidators')).validators as any[];
    const weight = new Map(all.map((v) => [v.nodeID, BigInt(v.weight) + BigInt(v.delegatorWeight)]));
    for (const [n, a] of Object.entries(acps) as [string, any][]) {
      expect(Object.keys(a)).toEqual(['supportWeight', 'supporters', 'objectWeight', 'objectors', 'abstainWeight']);
      for (const k of ['supportWeight', 'objectWeight', 'abstainWeight']) expect(a[k]).toMatch(/^\d+$/);
      expect(BigInt(a.supportWeight) + BigInt(a.objectWeight) + BigInt(a.abstainWeight)).toBe(total);
      expect(a.supporters).toEqual(byJson(a.supporters));
      expect(a.objectors).toEqual(byJson(a.objectors));
      expect(a.supporters.every(nodeIdValid)).toBe(true);
      expect(a.supporters.includes(sim.nodeId())).toBe(false); // never the node itself
      expect(a.objectors.includes(sim.nodeId())).toBe(false);
      // each supporter is a connected validator peer supporting it; the weights are theirs
      let sw = 0n;
      for (const id of a.supporters) {
        expect(byId.get(id)?.supportedACPs).toContain(Number(n));
        sw += weight.get(id) ?? 0n;
      }
      expect(sw).toBe(BigInt(a.supportWeight));
      let ow = 0n;
      for (const id of a.objectors) ow += weight.get(id) ?? 0n;
      expect(ow).toBe(BigInt(a.objectWeight));
      expect(a.supporters.filter((x: string) => a.objectors.includes(x))).toEqual([]);
    }
    expect(acps['247'].objectors).toEqual([]);
    expect(acps['247'].objectWeight).toBe('0');
    const share = (x: string): number => Number((BigInt(x) * 1000n) / total) / 1000;
    expect(share(acps['247'].supportWeight)).toBeGreaterThan(0.5);
    expect(share(acps['247'].supportWeight)).toBeLessThan(0.7);
    expect(share(acps['236'].objectWeight)).toBeGreaterThan(0.08);
    expect(share(acps['236'].objectWeight)).toBeLessThan(0.25);
    for (const p of peers) {
      for (const x of [...p.supportedACPs, ...p.objectedACPs]) expect([236, 247]).toContain(x);
      expect(p.supportedACPs).toEqual(byJson(p.supportedACPs));
    }
    expect((await health()).json.checks.bls.error).toBeUndefined();
    await sim.setScenario('healthy');
    expect(await info('info.acps')).toEqual({ acps: {} });
    expect((await info('info.peers')).peers.every((p: any) => p.supportedACPs.length === 0 && p.objectedACPs.length === 0)).toBe(true);
  });

  it('vantage-isolated on a single node: answers exactly as healthy (there are no siblings)', async () => {
    const calls: Array<[string, string]> = [['/ext/info', 'info.peers'], ['/ext/bc/P', 'platform.getCurrentValidators'], ['/ext/info', 'info.uptime'], ['/ext/info', 'info.acps']];
    const healthy = await Promise.all(calls.map(async ([p, m]) => (await rpc(sim.url, p, m)).body));
    await sim.setScenario('vantage-isolated');
    const isolated = await Promise.all(calls.map(async ([p, m]) => (await rpc(sim.url, p, m)).body));
    expect(isolated).toEqual(healthy);
    expect((await health()).json.checks.P.error).toBeUndefined();
    await sim.setScenario('healthy');
  });

  it('garbage: an answer with nothing to mangle (info.acps {"acps":{}}) still comes back with wrong types', async () => {
    await sim.setScenario('garbage');
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) bodies.push((await raw(sim.url + '/ext/info', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"info.acps"}' })).body);
    const usable = bodies.filter((b) => {
      try {
        const r = JSON.parse(b).result;
        return r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r.acps === 'object' && !Array.isArray(r.acps);
      } catch {
        return false;
      }
    });
    expect(usable).toEqual([]);
    expect(bodies.some((b) => b.includes('"result":[{"acps":{}}]'))).toBe(true);
    await sim.setScenario('healthy');
  });

  it('healthy again: every invariant holds after the switches', async () => {
    await expectHealthyInvariants();
  });

  it('deterministic: same seed and clock give the same acp-vote and upgrade-unknown answers', async () => {
    const now = (): number => T0 + 7000;
    const a = await startSimNode({ seed: 42, validators: 60, peers: 70, now, scenario: 'acp-vote', version: '1.14.2' });
    const b = await startSimNode({ seed: 42, validators: 60, peers: 70, now, scenario: 'acp-vote', version: '1.14.2' });
    try {
      expect((await rpc(a.url, '/ext/info', 'info.acps')).body).toBe((await rpc(b.url, '/ext/info', 'info.acps')).body);
      await a.setScenario('upgrade-unknown');
      await b.setScenario('upgrade-unknown');
      expect((await rpc(a.url, '/ext/info', 'info.peers')).body).toBe((await rpc(b.url, '/ext/info', 'info.peers')).body);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('siblings (--nodes 3)', () => {
  let s: SimNode;
  let t = T0;
  const url = (i: number): string => s.nodeUrl(i);
  const peersOf = async (i: number): Promise<any[]> => (await result(url(i), '/ext/info', 'info.peers')).peers;
  const entryOn = async (i: number, id: string): Promise<any> =>
    (await result(url(i), '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [id] })).validators[0];
  const SAME = ['txID', 'startTime', 'endTime', 'weight', 'nodeID', 'validationRewardOwner', 'delegationRewardOwner', 'potentialReward', 'accruedDelegateeReward', 'delegationFee', 'signer', 'delegatorCount', 'delegatorWeight', 'delegators'];
  const pick = (v: any): Record<string, unknown> => Object.fromEntries(SAME.map((k) => [k, v[k]]));

  beforeAll(async () => {
    s = await startSimNode({ nodes: 3, seed: 5, validators: 60, peers: 70, healthIntervalMs: 40, now: () => t, version: '1.14.2' });
    await waitFor(async () => (await raw(s.nodeUrl(2) + '/ext/health')).status === 200);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('every node lists the others as connected 1.14.2 peers', async () => {
    for (let i = 0; i < 3; i++) {
      const peers = await peersOf(i);
      expect(peers.some((p) => p.nodeID === s.nodeId(i))).toBe(false);
      for (let j = 0; j < 3; j++) {
        if (j === i) continue;
        const p = peers.find((x) => x.nodeID === s.nodeId(j));
        expect(p, `node ${i} sees node ${j}`).toBeDefined();
        expect(Object.keys(p)).toEqual(['ip', 'publicIP', 'nodeID', 'version', 'upgradeTime', 'lastSent', 'lastReceived', 'observedUptime', 'trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched']);
        expect(p.version).toBe('avalanchego/1.14.2');
        expect(p.upgradeTime).toBe(GRANITE);
        expect(p.publicIP).toBe((await result(url(j), '/ext/info', 'info.getNodeIP')).ip);
        expect(p.observedUptime).toMatch(/^\d{1,3}$/);
        expect(Number(p.observedUptime)).toBeGreaterThan(80);
        expect(p.lastReceived).toMatch(RFC3339_S);
        expect(p.supportedACPs).toEqual([]);
        expect(p.objectedACPs).toEqual([]);
        expect(Array.isArray(p.benched)).toBe(true);
        // the primary network first, then the sibling's own L1
        const l1j = JSON.parse((await raw(s.controlUrl + '/sim/state')).body).nodes[j].l1SubnetId;
        expect(p.trackedSubnets).toEqual(['11111111111111111111111111111111LpoYY', l1j]);
      }
      const filtered = await result(url(i), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId((i + 1) % 3)] });
      expect(filtered.numPeers).toBe('1');
    }
  });

  it("every node has the others in its validator set with the sibling's own registration, connected", async () => {
    for (let i = 0; i < 3; i++) {
      const all = (await result(url(i), '/ext/bc/P', 'platform.getCurrentValidators')).validators as any[];
      expect(all).toHaveLength(60 + 2);
      for (let i2 = 1; i2 < all.length; i2++) expect(Number(all[i2].endTime)).toBeGreaterThanOrEqual(Number(all[i2 - 1].endTime));
      for (let j = 0; j < 3; j++) {
        if (j === i) continue;
        const mine = await entryOn(j, s.nodeId(j)); // j's own entry on j
        const seen = await entryOn(i, s.nodeId(j)); // the same validator seen by i (filtered answer)
        expect(pick(seen)).toEqual(pick(mine));
        expect(seen.connected).toBe(true);
        expect(Number(seen.uptime)).toBeGreaterThan(95);
        expect(seen.uptime).toMatch(/^\d+\.\d{4}$/);
        const full = all.find((v) => v.nodeID === s.nodeId(j));
        const { delegators: _d, ...rest } = pick(mine);
        void _d;
        expect(pick(full)).toEqual({ ...rest, delegators: undefined });
        expect(full.connected).toBe(true);
        const at = await result(url(i), '/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed' });
        expect(at[s.nodeId(j)]).toEqual({ publicKey: mine.signer.publicKey, weight: (BigInt(mine.weight) + BigInt(mine.delegatorWeight)).toString() });
        expect((await result(url(i), '/ext/bc/P', 'platform.getTxStatus', { txID: mine.txID })).status).toBe('Committed');
      }
      const h = await health(url(i));
      expect(h.json.checks.P.message.networking.disconnectedValidators.filter((x: string) => [0, 1, 2].some((k) => s.nodeId(k) === x))).toEqual([]);
    }
  });

  it("a sibling's scenario shows in the others' views (registration changes, acp stance, down)", async () => {
    await s.setScenario('delegation-full', 0);
    expect((await entryOn(1, s.nodeId(0))).delegatorWeight).toBe((BigInt((await entryOn(0, s.nodeId(0))).weight) * 4n).toString());
    await s.setScenario('rewards-lost', 0);
    const rl = await entryOn(0, s.nodeId(0));
    expect(pick(await entryOn(2, s.nodeId(0)))).toEqual(pick(rl));
    const p0 = (await peersOf(1)).find((p) => p.nodeID === s.nodeId(0));
    expect(Number(p0.observedUptime)).toBeGreaterThan(80); // how node 0 sees node 1: unchanged
    const p1 = (await peersOf(0)).find((p) => p.nodeID === s.nodeId(1));
    expect(Number(p1.observedUptime)).toBeLessThan(80); // how node 1 sees node 0 (rewards-lost)
    await s.setScenario('bls-mismatch', 0);
    expect((await entryOn(1, s.nodeId(0))).signer.publicKey).toBe((await entryOn(0, s.nodeId(0))).signer.publicKey);
    await s.setScenario('upgrade-pending', 0);
    const helicon = Math.floor(t / 1000) + 3 * DAY;
    expect((await peersOf(1)).find((p) => p.nodeID === s.nodeId(0)).upgradeTime).toBe(helicon);

    // acp-vote on node 0 only: node 1 (v1.14.2, CurrentACPs empty) drops the unknown ACPs
    await s.setScenario('acp-vote', 0);
    expect((await peersOf(1)).find((p) => p.nodeID === s.nodeId(0))).toMatchObject({ supportedACPs: [], objectedACPs: [] });
    // acp-vote everywhere: node 0's own stance is visible at its siblings and counted by them
    await s.setScenario('acp-vote');
    for (const i of [1, 2]) {
      expect((await peersOf(i)).find((p) => p.nodeID === s.nodeId(0))).toMatchObject({ supportedACPs: [247], objectedACPs: [236] });
      const acps = (await result(url(i), '/ext/info', 'info.acps')).acps;
      expect(acps['247'].supporters).toContain(s.nodeId(0));
      expect(acps['236'].objectors).toContain(s.nodeId(0));
      expect(acps['247'].supporters).not.toContain(s.nodeId(i));
    }
    await s.setScenario('healthy');
    for (const i of [1, 2]) expect((await peersOf(i)).find((p) => p.nodeID === s.nodeId(0))).toMatchObject({ supportedACPs: [], objectedACPs: [] });

    // a node that is down is a disconnected validator for the others
    await s.setScenario('down', 2);
    const e = await entryOn(0, s.nodeId(2));
    expect(e.connected).toBe(false);
    expect((await peersOf(0)).some((p) => p.nodeID === s.nodeId(2))).toBe(false);
    await s.setScenario('healthy');
    expect((await entryOn(0, s.nodeId(2))).connected).toBe(true);
  });

  it('vantage-isolated: the node and its siblings see each other disconnected; the others stay connected', async () => {
    await s.setScenario('vantage-isolated', 0);
    for (const j of [1, 2]) {
      const v = await entryOn(0, s.nodeId(j));
      expect(v.connected).toBe(false);
      expect(Number(v.uptime)).toBeLessThan(50);
      expect(v.uptime).toMatch(/^\d+\.\d{4}$/);
    }
    const p0 = await peersOf(0);
    expect(p0.some((p) => p.nodeID === s.nodeId(1) || p.nodeID === s.nodeId(2))).toBe(false);
    expect(p0.length).toBeGreaterThan(40); // the rest of the network is still there
    const h0 = await health(url(0));
    const disc = h0.json.checks.P.message.networking.disconnectedValidators as string[];
    expect(disc).toContain(s.nodeId(1));
    expect(disc).toContain(s.nodeId(2));
    expect(disc).toEqual(byJson(disc));
    // symmetric link: 1 and 2 lose node 0 but keep each other
    expect((await entryOn(1, s.nodeId(0))).connected).toBe(false);
    expect((await entryOn(1, s.nodeId(2))).connected).toBe(true);
    expect((await entryOn(2, s.nodeId(1))).connected).toBe(true);
    expect((await peersOf(1)).some((p) => p.nodeID === s.nodeId(0))).toBe(false);
    // own entry on its own node: still connected (a node counts itself connected)
    expect((await entryOn(0, s.nodeId(0))).connected).toBe(true);
    await s.setScenario('healthy', 0);
    for (const j of [1, 2]) expect((await entryOn(0, s.nodeId(j))).connected).toBe(true);
    expect((await peersOf(0)).filter((p) => p.nodeID === s.nodeId(1) || p.nodeID === s.nodeId(2))).toHaveLength(2);
    const back = await waitFor(async () => {
      const d = (await health(url(0))).json.checks.P.message.networking.disconnectedValidators as string[];
      return d.includes(s.nodeId(1)) ? undefined : d;
    });
    expect(back).not.toContain(s.nodeId(2));
  });

  it('two nodes: each sees the other (the smallest multi-node setup)', async () => {
    const two = await startSimNode({ nodes: 2, seed: 9, validators: 20, peers: 25 });
    try {
      const a = (await result(two.nodeUrl(0), '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [two.nodeId(1)] })).validators;
      expect(a).toHaveLength(1);
      expect(a[0].connected).toBe(true);
      expect((await result(two.url, '/ext/info', 'info.peers', { nodeIDs: [two.nodeId(1)] })).numPeers).toBe('1');
      const b = (await result(two.nodeUrl(1), '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [two.nodeId(0)] })).validators;
      expect(b[0].nodeID).toBe(two.nodeId(0));
    } finally {
      await two.close();
    }
  });
});
