// Issues 16 and 24: the supported avalanchego versions (docs/compatibility.md "Tested against" and "Support policy").
// The same scenarios run against a simulated node of each version (simulated-node/src/versions.ts has every
// difference, shaped after real v1.11.7, v1.12.2, v1.13.5 and v1.14.2 nodes): healthy, bootstrapping,
// down and the ACP vote. Two simulated nodes per version, so that the node's own ACP vote is seen from
// the other one (a fleet of one version). What an older node lacks is a declared normal state of the
// call (counted normal_state, the collector successful), never a failure.
import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { SIM_VERSIONS, type SimVersion } from '@avalanche-exporter/simulated-node';
import { memoryLogger } from '../helpers/log.js';
import { useScenarioExporter } from '../helpers/scenario-exporter.js';
import { metric } from '../helpers/proc.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const INF = Number.POSITIVE_INFINITY;

/** What each version's node shows the exporter (versions.ts, from the real nodes). */
const EXPECT: Record<SimVersion, {
  /** methods answered with a declared normal state in healthy (the version lacks them) */
  normal: string[];
  futureupgrade: boolean;
  bls: boolean;
  /** some avax_network_upgrade_timestamp_seconds (undefined: no such series); null: info.upgrades absent */
  upgrades: Record<string, number | undefined> | null;
  scheme: string;
  /** ACP-176 listed (v1.13.x CurrentACPs) */
  acp176: boolean;
  /** Helicon's ACPs (194, 236, 267, 273, 283, 285) and 224, 247 listed (v1.15.0 CurrentACPs, as the real node) */
  heliconAcps?: true;
  /** the subnet is an L1 (balances, fee price); before Etna a permissioned subnet */
  l1: boolean;
  /** the free disk share in /ext/metrics (avalanche_resource_tracker_disk_available_percentage, v1.14.1+) */
  diskShare: boolean;
}> = {
  '1.11.7': { normal: ['info.upgrades', 'platform.getFeeState', 'platform.getValidatorFeeState'], futureupgrade: false, bls: false, upgrades: null, scheme: 'v1.11.6', acp176: false, l1: false, diskShare: false },
  '1.12.2': { normal: [], futureupgrade: false, bls: true, upgrades: { etna: 1734368400, fortuna: INF, granite: undefined }, scheme: 'v1.11.8', acp176: false, l1: true, diskShare: false },
  '1.13.5': { normal: [], futureupgrade: false, bls: true, upgrades: { fortuna: 1744124400, granite: INF, helicon: undefined }, scheme: 'v1.11.8', acp176: true, l1: true, diskShare: false },
  '1.14.2': { normal: [], futureupgrade: true, bls: true, upgrades: { granite: 1763568000, helicon: INF }, scheme: 'v1.11.8', acp176: false, l1: true, diskShare: true },
  // Recorded (test/fixtures/real-node-v1.15.0); Helicon at its mainnet time, 2026-09-22T15:00:00Z (versions.ts).
  '1.15.0': { normal: [], futureupgrade: true, bls: true, upgrades: { granite: 1763568000, helicon: 1790089200 }, scheme: 'v1.11.8', acp176: false, heliconAcps: true, l1: true, diskShare: true },
};

describe.each([...SIM_VERSIONS])('avalanchego v%s (simulated) against the exporter', (version) => {
  const pair = useScenarioExporter({
    sim: { seed: 16, nodes: 2, validators: 150, peers: 200, healthIntervalMs: 50, version },
    logger: memoryLogger('silent').logger,
    targets: (sim) => [
      { name: 'a', node: 0, expectActive: true },
      { name: 'b', node: 1, validatorNodeIds: [sim.nodeId(0)] },
    ],
  });
  const x = EXPECT[version];
  const m = (text: string, name: string, labels: Record<string, string> = {}, target = 'a') => metric(text, name, { target, ...labels });
  const series = (text: string, name: string, target = 'a') => text.split('\n').filter((l) => l.startsWith(`${name}{target="${target}"`));
  /** The request counters that are not `ok`, by their labels. */
  const notOk = (text: string, t: string) =>
    new Map(series(text, 'avax_rpc_requests_total', t).filter((l) => !l.includes('result="ok"')).map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));

  const cycle = pair.settledCycle;

  /** Healthy: every collector of both targets succeeds, with this version's answers. */
  async function expectHealthy(): Promise<string> {
    await pair.sim.setScenario('healthy');
    const before = await cycle();
    const text = await cycle();
    for (const t of ['a', 'b']) {
      expect(m(text, 'avax_up', {}, t), t).toBe(1);
      for (const c of COLLECTORS.filter((c) => c.enabled)) expect(m(text, 'avax_collector_success', { collector: c.name }, t), `${t} ${c.name}`).toBe(1);
      // Nothing failed in this cycle: every answer is ok or one of the normal states this version is in.
      const was = notOk(before, t);
      const grew = [...notOk(text, t)].filter(([k, v]) => v > (was.get(k) ?? 0)).map(([k]) => /method="([^"]+)",result="normal_state"/.exec(k)?.[1] ?? k);
      expect(grew.sort(), t).toEqual([...x.normal].sort());
    }
    expect(text).toMatch(new RegExp(`^avax_node_info\\{target="a",[^}]*version="avalanchego/${version.replace(/\./g, '\\.')}"`, 'm'));
    expect(m(text, 'avax_node_healthy')).toBe(1);
    expect(m(text, 'avax_chain_bootstrapped', { chain: 'P' })).toBe(1);
    expect(m(text, 'avax_node_metrics_scheme', { scheme: x.scheme })).toBe(1);
    // Health checks a version lacks are absent (neither healthy nor failing).
    expect(m(text, 'avax_health_check_healthy', { check: 'futureupgrade' })).toBe(x.futureupgrade ? 1 : undefined);
    expect(m(text, 'avax_health_check_healthy', { check: 'bls' })).toBe(x.bls ? 1 : undefined);
    expect(m(text, 'avax_validator_bls_key_matches')).toBe(1); // from getNodeID and the registration, on every version
    // The free disk share (AvalancheNodeDiskSpaceLow/RunwayShort) from v1.14.1 on; the free bytes on every version.
    expect(m(text, 'avax_node_disk_available_bytes')).toBeGreaterThan(0);
    if (x.diskShare) expect(m(text, 'avax_node_disk_available_ratio')).toBeCloseTo(0.44, 1);
    else expect(series(text, 'avax_node_disk_available_ratio')).toEqual([]);
    if (x.upgrades === null) expect(series(text, 'avax_network_upgrade_timestamp_seconds')).toEqual([]);
    else for (const [upgrade, t] of Object.entries(x.upgrades)) expect(m(text, 'avax_network_upgrade_timestamp_seconds', { upgrade }), upgrade).toBe(t);
    if (x.acp176) {
      // ACP-176 is still listed, with a stake majority, but Fortuna activated it: not an open vote
      const w = (k: string) => m(text, `avax_acp_${k}_weight`, { acp: '176' })!;
      expect(w('support') / (w('support') + w('object') + w('abstain'))).toBeGreaterThan(0.5);
      expect(m(text, 'avax_acp_activated', { acp: '176' })).toBe(1);
      expect(m(text, 'avax_node_vm_info', { vm: 'evm', version: 'v0.15.4' })).toBe(1);
    } else if (x.heliconAcps) {
      // Every v1.15.0 peer supports the ACPs its release schedules. (Whether the exporter counts them activated once
      // Helicon is active is the exporter's business: not asserted here.)
      for (const acp of ['194', '236', '267', '273', '283', '285']) expect(m(text, 'avax_acp_support_weight', { acp }), acp).toBeGreaterThan(0);
      for (const acp of ['224', '247']) expect(m(text, 'avax_acp_support_weight', { acp }) !== undefined, acp).toBe(true);
    } else {
      expect(text).not.toMatch(/^avax_acp_(support_weight|activated)\{/m); // {"acps":{}}
    }
    // The node's subnet: an L1 (balance, fee price) from Etna on; before, a permissioned subnet (end time, no balance).
    const own = series(text, 'avax_validator_active').find((l) => !l.includes(PRIMARY) && l.includes(`node_id="${pair.sim.nodeId(0)}"`));
    const subnet = /subnet="([^"]+)"/.exec(own ?? '')?.[1];
    expect(subnet, 'the subnet found from its chain check').toBeDefined();
    expect(m(text, 'avax_validator_active', { subnet: subnet!, node_id: pair.sim.nodeId(0) })).toBe(1);
    expect(m(text, 'avax_l1_validator_balance_avax', { subnet: subnet!, node_id: pair.sim.nodeId(0) }) !== undefined).toBe(x.l1);
    expect(m(text, 'avax_validator_end_timestamp_seconds', { subnet: subnet!, node_id: pair.sim.nodeId(0) }) !== undefined).toBe(!x.l1);
    expect(m(text, 'avax_l1_validator_fee_price_navax_per_second') !== undefined).toBe(x.l1);
    expect(m(text, 'avax_pchain_gas_price_navax') !== undefined).toBe(x.l1);
    // Six active L1 validators (one listed with balance 0), or the seven permissioned ones.
    expect(m(text, 'avax_subnet_validators', { subnet: subnet! })).toBe(x.l1 ? 6 : 7);
    expect(m(text, 'avax_subnet_node_is_validator', { subnet: subnet! })).toBe(1);
    return text;
  }

  it("healthy: every collector succeeds with this version's answers; what it lacks is a declared normal state", async () => {
    await expectHealthy();
  });

  it('bootstrapping: P not bootstrapped, not ready; then recovers', async () => {
    const text = await cycle('bootstrapping', 0);
    expect(m(text, 'avax_chain_bootstrapped', { chain: 'P' })).toBe(0);
    expect(m(text, 'avax_node_ready')).toBe(0);
    expect(m(text, 'avax_up')).toBe(1);
    await expectHealthy();
  });

  it('down: avax_up 0 and no node-derived series; then recovers', async () => {
    const text = await cycle('down', 0);
    expect(m(text, 'avax_up')).toBe(0);
    expect(text).not.toMatch(/^avax_(node_info|acp_activated|chain_height)\{target="a"/m);
    await expectHealthy();
  });

  it("acp-vote: the open ACPs are not activated, the node's own vote is seen through b", async () => {
    await pair.sim.setScenario('acp-vote', 1);
    await cycle('acp-vote', 0);
    const text = await cycle();
    expect(m(text, 'avax_acp_activated', { acp: '247' })).toBe(0);
    expect(m(text, 'avax_acp_node_vote', { acp: '247', vote: 'support' })).toBe(1);
    // (the simulator's acp-vote models a release whose CurrentACPs are {236, 247}: 176 is not listed there)
    await expectHealthy();
  });
});
