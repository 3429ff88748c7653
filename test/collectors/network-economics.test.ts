import { describe, expect, it } from 'vitest';
import { networkEconomics } from '../../src/collectors/network-economics.js';
import { RpcError } from '../../src/node-client/index.js';
import { assertContract, defaultAnswers, fakeClient, lines, makeCtx, testSlot } from './fake.js';

const answers = () => defaultAnswers('platform.getCurrentSupply', 'platform.getTotalStake', 'platform.getMinStake', 'platform.getFeeState');

describe('network-economics', () => {
  it('default: every series from real-shaped answers, nAVAX → AVAX, gas price in nAVAX', async () => {
    const { client, calls } = fakeClient(answers());
    const r = await networkEconomics.collect(makeCtx(networkEconomics, client).ctx);
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
    const { ctx, lines: log } = makeCtx(networkEconomics, client);
    const r = await networkEconomics.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples).some((l) => l.startsWith('avax_pchain_'))).toBe(false);
    expect(lines(r.samples)).toHaveLength(4);
    // logged once per state change (by the engine: the call declares the normal state)
    await networkEconomics.collect(ctx);
    expect(log).toHaveLength(1);
    expect(String(log[0]!.args[1])).toContain('platform.getFeeState: not available on this node');
  });
  it('error: one bad answer fails the collector, the others are exported', async () => {
    const { client } = fakeClient({ ...answers(), 'platform.getMinStake': { minValidatorStake: 'lots' } });
    const r = await networkEconomics.collect(makeCtx(networkEconomics, client).ctx);
    expect(r.errors).toHaveLength(1);
    expect(lines(r.samples).some((l) => l.startsWith('avax_network_min_'))).toBe(false);
    expect(lines(r.samples)).toHaveLength(5);
  });
  it('behavior: every run asks all four (each series at most one interval old, as its HELP says: issue 23 item 5)', async () => {
    const { client, calls } = fakeClient({ ...answers(), 'platform.getMinStake': () => ({ minValidatorStake: String(2000e9 + calls.length), minDelegatorStake: '25000000000' }) });
    const slot = testSlot(networkEconomics);
    for (let i = 1; i <= 3; i++) {
      const r = await networkEconomics.collect(makeCtx(networkEconomics, client, { slot }).ctx);
      expect(calls).toHaveLength(4 * i);
      expect(lines(r.samples)).toHaveLength(7);
      expect(lines(r.samples)).toContain(`avax_network_min_validator_stake_avax ${2000 + (4 * i - 1) / 1e9}`);
    }
  });
  it('behavior: its calls are network-scoped (the same answer from every node of a network: asked once per network)', () => {
    expect(networkEconomics.calls.map((c) => c.scope)).toEqual(['network', 'network', 'network', 'network']);
  });
});
