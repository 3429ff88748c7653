import { describe, expect, it } from 'vitest';
import { networkEconomics } from '../../src/collectors/network-economics.js';
import { RpcError } from '../../src/node-client/index.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

const answers = () => ({
  'platform.getCurrentSupply': result('platform.getCurrentSupply', 'default'),
  'platform.getTotalStake': result('platform.getTotalStake', 'default'),
  'platform.getMinStake': result('platform.getMinStake', 'default'),
  'platform.getFeeState': result('platform.getFeeState', 'default'),
});

describe('network-economics', () => {
  it('default: every series from real-shaped answers, nAVAX → AVAX, gas price in nAVAX', async () => {
    const { client, calls } = fakeClient(answers());
    const r = await networkEconomics.collect(makeCtx(client).ctx);
    assertContract('network-economics', r.samples);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples)).toEqual([
      'avax_network_supply_avax 460512345.1234568',
      'avax_network_total_stake_avax 240123456.78901234',
      'avax_network_min_validator_stake_avax 2000',
      'avax_network_min_delegator_stake_avax 25',
      'avax_pchain_gas_price_navax 1',
      'avax_pchain_gas_capacity 1000000',
      'avax_pchain_gas_excess 0',
    ]);
    expect(calls.map((c) => [c.endpoint, c.params])).toEqual(Array(4).fill(['/ext/bc/P', {}]));
  });
  it('behavior: getFeeState absent (older node) → its series missing, no failure', async () => {
    const { client } = fakeClient({ ...answers(), 'platform.getFeeState': new RpcError('platform.getFeeState', -32000, 'rpc: can\'t find method "platform.GetFeeState"') });
    const { ctx, lines: log } = makeCtx(client);
    const r = await networkEconomics.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples).some((l) => l.startsWith('avax_pchain_'))).toBe(false);
    expect(lines(r.samples)).toHaveLength(4);
    // logged once per state change
    await networkEconomics.collect({ ...ctx });
    expect(log).toHaveLength(1);
  });
  it('error: one bad answer fails the collector, the others are exported', async () => {
    const { client } = fakeClient({ ...answers(), 'platform.getMinStake': { minValidatorStake: 'lots' } });
    const r = await networkEconomics.collect(makeCtx(client).ctx);
    expect(r.errors).toHaveLength(1);
    expect(lines(r.samples).some((l) => l.startsWith('avax_network_min_'))).toBe(false);
    expect(lines(r.samples)).toHaveLength(5);
  });
  it('behavior: after the first run, one method per run in turn; the others keep their last answer', async () => {
    const a = answers();
    const { client, calls } = fakeClient({ ...a, 'platform.getMinStake': () => ({ minValidatorStake: String(2000e9 + calls.length), minDelegatorStake: '25000000000' }) });
    const state = new Map<string, unknown>();
    await networkEconomics.collect(makeCtx(client, { state }).ctx);
    expect(calls).toHaveLength(4);
    const asked: string[] = [];
    let r;
    for (let i = 0; i < 4; i++) {
      const before = calls.length;
      r = await networkEconomics.collect(makeCtx(client, { state }).ctx);
      expect(calls.length - before).toBe(1);
      asked.push(calls[calls.length - 1]!.method);
      expect(lines(r.samples)).toHaveLength(7);
    }
    expect(asked).toEqual(['platform.getCurrentSupply', 'platform.getTotalStake', 'platform.getMinStake', 'platform.getFeeState']);
    // the min stake was refreshed on its turn (the 7th request)
    expect(lines(r!.samples)).toContain('avax_network_min_validator_stake_avax 2000.000000007');
  });
  it('error: a failed turn asks the other three at once; the failure clears what was kept; the next run asks all four again', async () => {
    let fail = false;
    const { client, calls } = fakeClient({ ...answers(), 'platform.getCurrentSupply': () => (fail ? new RpcError('platform.getCurrentSupply', -32000, 'boom') : result('platform.getCurrentSupply', 'default')) });
    const state = new Map<string, unknown>();
    await networkEconomics.collect(makeCtx(client, { state }).ctx);
    fail = true;
    const during = calls.length;
    const r = await networkEconomics.collect(makeCtx(client, { state }).ctx);
    // its one method (supply, first in turn) failed: the other three were asked in the same run
    expect(calls.length - during).toBe(4);
    expect(r.errors).toHaveLength(1);
    expect(lines(r.samples)).toHaveLength(6);
    expect(lines(r.samples).some((l) => l.startsWith('avax_network_supply_avax'))).toBe(false);
    fail = false;
    const before = calls.length;
    await networkEconomics.collect(makeCtx(client, { state }).ctx);
    expect(calls.length - before).toBe(4);
  });
  it('behavior: declared as a 60 s collector of one request', () => {
    expect(networkEconomics.interval).toBe(60);
    expect(networkEconomics.requestsPerRun({ name: 'n', reference: false, validatorNodeIds: [], subnets: [], chains: [] }, {})).toBe(1);
  });
});
