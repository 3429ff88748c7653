// Issue 26's scenarios (the backtest's faults) against the real exporter (in process, cycles driven
// by collectOnce, one injected clock for the simulator and the exporter): each one shows in the
// series its alert reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { metricOfA as m, useScenarioExporter } from '../helpers/scenario-exporter.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const DAY = 86_400;
let own = '';
const log = memoryLogger('warn');
const pair = useScenarioExporter({
  sim: { seed: 31, validators: 80, peers: 100, healthIntervalMs: 50 },
  logger: log.logger,
  clock: Date.UTC(2026, 2, 2, 8, 0, 0),
  targets: (sim) => [{ name: 'a', node: 0, subnets: [sim.l1SubnetId] }],
});
const { cycle } = pair;
beforeAll(() => {
  own = pair.sim.nodeId(0);
});

describe('issue 26 scenarios against the exporter', () => {
  it('uptime-at-risk: weighted uptime between the 80 % requirement and 85 %, rewarding stake whole', async () => {
    const text = await cycle('uptime-at-risk');
    expect(m(text, 'avax_uptime_weighted_average_ratio')).toBeGreaterThanOrEqual(0.8);
    expect(m(text, 'avax_uptime_weighted_average_ratio')).toBeLessThan(0.85);
    expect(m(text, 'avax_uptime_rewarding_stake_ratio')).toBeGreaterThan(0.99);
    expect(m(await cycle('healthy'), 'avax_uptime_weighted_average_ratio')).toBeGreaterThan(0.95);
  });

  it('validator-ending: the own validation ends between 7 and 14 days ahead', async () => {
    const text = await cycle('validator-ending');
    const left = m(text, 'avax_validator_end_timestamp_seconds', { subnet: PRIMARY, node_id: own })! - pair.now() / 1000;
    expect(left).toBeGreaterThan(7 * DAY);
    expect(left).toBeLessThan(14 * DAY);
    await cycle('healthy');
  });

  it('l1-fee-warning: the own L1 validator has about 3 days of balance', async () => {
    const text = await cycle('l1-fee-warning');
    const runway = m(text, 'avax_l1_validator_balance_runway_seconds', { node_id: own })!;
    expect(runway).toBeGreaterThan(2.9 * DAY);
    expect(runway).toBeLessThanOrEqual(3 * DAY);
    await cycle('healthy');
  });

  it('consensus-stuck: the C-Chain height stops while blocks processing grow; P keeps going', async () => {
    const a = await cycle('consensus-stuck');
    const b = await cycle(undefined, 120_000);
    expect(m(b, 'avax_chain_height', { chain: 'C' })).toBe(m(a, 'avax_chain_height', { chain: 'C' }));
    expect(m(b, 'avax_chain_height', { chain: 'P' })).toBeGreaterThan(m(a, 'avax_chain_height', { chain: 'P' })!);
    expect(m(b, 'avax_node_blocks_processing', { chain: 'C' })).toBeGreaterThan(m(a, 'avax_node_blocks_processing', { chain: 'C' })!);
    expect(m(b, 'avax_node_bootstrap_finished', { chain: 'C' })).toBe(1);
    const c = await cycle('healthy');
    expect(m(c, 'avax_chain_height', { chain: 'C' })).toBeGreaterThan(m(b, 'avax_chain_height', { chain: 'C' })!);
  });

  it('lagging: the heights grow at half the pace', async () => {
    const a = await cycle('lagging');
    const b = await cycle(undefined, 600_000);
    // C: 0.5 block/s in the network, 0.25 here: 150 blocks in 10 min (±1 for the 2 s steps)
    expect(m(b, 'avax_chain_height', { chain: 'C' })! - m(a, 'avax_chain_height', { chain: 'C' })!).toBeGreaterThanOrEqual(149);
    expect(m(b, 'avax_chain_height', { chain: 'C' })! - m(a, 'avax_chain_height', { chain: 'C' })!).toBeLessThanOrEqual(151);
    await cycle('healthy');
  });

  it('db-slow: 80 ms per database call, from the rates of the two counters', async () => {
    const a = await cycle('db-slow');
    const b = await cycle(undefined, 60_000);
    const d = (name: string) => m(b, name, { chain: 'C', op: 'read' })! - m(a, name, { chain: 'C', op: 'read' })!;
    expect(d('avax_node_db_operation_seconds_total') / d('avax_node_db_operations_total')).toBeCloseTo(0.08, 3);
    await cycle('healthy');
  });

  it('disk-filling: the diskspace health check fails within two hours', async () => {
    expect(m(await cycle('disk-filling'), 'avax_health_check_healthy', { check: 'diskspace' })).toBe(1);
    const text = await cycle(undefined, 2 * 3_600_000);
    expect(m(text, 'avax_health_check_healthy', { check: 'diskspace' })).toBe(0);
    expect(m(await cycle('healthy'), 'avax_health_check_healthy', { check: 'diskspace' })).toBe(1);
  });

  it('disk-filling-slow: the free share falls 0.5 % of the disk an hour; the runway to 10 % is days (warning), to 3 % more than a day', async () => {
    const a = await cycle('disk-filling-slow');
    const b = await cycle(undefined, 10 * 3_600_000);
    const [bytesA, bytesB, shareB] = [m(a, 'avax_node_disk_available_bytes')!, m(b, 'avax_node_disk_available_bytes')!, m(b, 'avax_node_disk_available_ratio')!];
    const size = bytesA / m(a, 'avax_node_disk_available_ratio')!;
    // 5 % of the disk in 10 hours, plus the healthy 150 MB an hour (the share is floored: the size is a little large)
    expect((bytesA - bytesB) / size).toBeGreaterThan(0.045);
    expect((bytesA - bytesB) / size).toBeLessThan(0.052);
    expect(shareB).toBeLessThan(m(a, 'avax_node_disk_available_ratio')!);
    // The alert's runway, from the two samples: bytes * (1 - level / share) / slope
    const slope = (bytesA - bytesB) / (10 * 3600);
    const runway = (level: number) => (bytesB * (1 - level / shareB)) / slope;
    expect(runway(0.1)).toBeGreaterThan(DAY);
    expect(runway(0.1)).toBeLessThan(7 * DAY);
    expect(runway(0.03)).toBeGreaterThan(DAY);
    expect(m(await cycle('healthy'), 'avax_node_disk_available_ratio')).toBeGreaterThan(0.4);
  });

  it('l1-weight-warning / l1-weight-at-risk: the share of the L1 weight under 7 days of balance, from its whole validator list', async () => {
    const share = (text: string) => m(text, 'avax_l1_weight_at_risk_ratio', { subnet: pair.sim.l1SubnetId });
    // weights 20, 50, own 100, 100, 200, 20, 10 (inactive, balance 0): healthy operators top up, only the inactive 10 of 500
    expect(share(await cycle('healthy'))).toBe(0.02);
    expect(share(await cycle('l1-weight-warning'))).toBe(0.22); // + the 100 with 3 days left: above 20 %, under a third
    expect(share(await cycle('l1-weight-at-risk'))).toBe(0.42); // + the 200 instead: more than a third
    expect(share(await cycle('healthy'))).toBe(0.02);
  });

  it('l1-idle: nothing the exporter reads changes (the exporter does not follow L1 heights)', async () => {
    const text = await cycle('l1-idle', 600_000);
    expect(m(text, 'avax_up')).toBe(1);
    expect(m(text, 'avax_node_healthy')).toBe(1);
    await cycle('healthy');
  });

  it('l1-idle, l1-stalled, l1-quorum-lost: an idle L1 chain has nothing waiting and a passing check, a stalled one not (issue 43)', async () => {
    const L1 = { chain: pair.sim.l1ChainId };
    const check = { check: pair.sim.l1ChainId };
    const subnet = { subnet: pair.sim.l1SubnetId };
    const view = (text: string) => ({
      height: m(text, 'avax_node_last_accepted_height', L1),
      last: m(text, 'avax_node_last_accepted_timestamp_seconds', L1),
      processing: m(text, 'avax_node_blocks_processing', L1),
      check: m(text, 'avax_health_check_healthy', check),
      connected: m(text, 'avax_subnet_connected_stake_ratio', subnet),
    });
    const busy = view(await pair.settledCycle('healthy'));
    expect(busy).toMatchObject({ processing: 0, check: 1, connected: 1 });
    // A busy chain: its last block is seconds old.
    expect(pair.now() / 1000 - busy.last!).toBeLessThan(60);
    for (const [scenario, switchTo, waiting, checkPasses, connected] of [
      ['l1-idle', () => cycle('l1-idle'), false, 1, 1],
      ['l1-stalled', () => cycle('l1-stalled'), true, 0, 1],
      ['l1-quorum-lost', () => cycle('l1-quorum-lost'), false, 0, 0.2],
    ] as const) {
      const at = view(await switchTo());
      const later = view(await pair.settledCycle(undefined));
      // 10 minutes on: no block, the last one's timestamp where it was
      const after = view(await cycle(undefined, 600_000));
      const settled = view(await pair.settledCycle(undefined));
      expect([after.height, settled.height], scenario).toEqual([at.height, at.height]);
      expect(settled.last, scenario).toBe(at.last);
      if (waiting) expect(settled.processing!, scenario).toBeGreaterThan(later.processing!);
      else expect(settled.processing, scenario).toBe(0);
      expect(settled.check, scenario).toBe(checkPasses);
      expect(settled.connected, scenario).toBeCloseTo(connected, 1);
      const back = view(await pair.settledCycle('healthy'));
      expect(back.height!, scenario).toBeGreaterThan(at.height!);
    }
  });

  it('reward-missed-watched: the validation the exporter watched ends without reward', async () => {
    const before = await cycle('reward-missed-watched');
    const end = m(before, 'avax_validator_end_timestamp_seconds', { subnet: PRIMARY, node_id: own })!;
    expect(end - pair.now() / 1000).toBeLessThanOrEqual(600);
    pair.setNow(end * 1000 + 1000);
    const after = await cycle();
    expect(m(after, 'avax_validator_last_reward_avax', { node_id: own })).toBe(0);
    expect(m(after, 'avax_validator_last_reward_timestamp_seconds', { node_id: own })).toBe(end);
    await cycle('healthy');
  });
});
