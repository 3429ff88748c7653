import { describe, expect, it } from 'vitest';
import { infoUptime, isNotAValidator, toSamples } from '../../src/collectors/info-uptime.js';
import { RpcError, TimeoutError } from '../../src/node-client/index.js';
import { InfoUptimeResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, FIXTURE_NOW_MS, lines, makeCtx } from './fake.js';

const NOT_VALIDATOR = new RpcError('info.uptime', -32000, "couldn't get node uptime: node is not a validator");

describe('info-uptime toSamples', () => {
  it.each([
    ['default: 4-decimal strings', 'default', ['avax_uptime_rewarding_stake_ratio 0.999103', 'avax_uptime_weighted_average_ratio 0.993417']],
    ['behavior: numbers', 'numbers', ['avax_uptime_rewarding_stake_ratio 1', 'avax_uptime_weighted_average_ratio 0.9725']],
  ])('%s', (_n, f, want) => {
    const s = toSamples(InfoUptimeResult.parse(result('info.uptime', f)));
    assertContract('info-uptime', s);
    expect(lines(s)).toEqual(want);
  });
  it('error: only the not-a-validator RPC error is tolerated', () => {
    expect(isNotAValidator(NOT_VALIDATOR)).toBe(true);
    expect(isNotAValidator(new RpcError('info.uptime', -32000, 'something else'))).toBe(false);
    expect(isNotAValidator(new Error('node is not a validator'))).toBe(false);
  });
});

describe('info-uptime collect', () => {
  it('default: validator', async () => {
    const { client, calls } = fakeClient({ 'info.uptime': result('info.uptime', 'default') });
    const { ctx } = makeCtx(infoUptime, client);
    const r = await infoUptime.collect(ctx);
    expect(r.samples).toEqual(toSamples(InfoUptimeResult.parse(result('info.uptime', 'default'))));
    expect(r.errors).toEqual([]);
    // Published for the max-achievable uptime: the same ratios as the series.
    expect(r.value?.weightedAverageRatio).toBe(r.samples.find((x) => x.name === 'avax_uptime_weighted_average_ratio')!.value);
    // ...with when the node answered (the derivation leaves out an answer before the peers' first report).
    expect(r.value?.atSeconds).toBe(FIXTURE_NOW_MS / 1000);
    expect(calls[0]!.signal).toBe(ctx.signal);
  });
  it('behavior: not a validator → no series, success, logged once', async () => {
    const { client } = fakeClient({ 'info.uptime': NOT_VALIDATOR });
    const { ctx, lines: log } = makeCtx(infoUptime, client);
    expect(await infoUptime.collect(ctx)).toEqual({ samples: [], errors: [] });
    expect(await infoUptime.collect(ctx)).toEqual({ samples: [], errors: [] });
    expect(log).toHaveLength(1);
  });
  it('error: timeout is a failure', async () => {
    const { client } = fakeClient({ 'info.uptime': new TimeoutError('info.uptime', 5000) });
    const r = await infoUptime.collect(makeCtx(infoUptime, client).ctx);
    expect(r.errors).toHaveLength(1);
  });
});
