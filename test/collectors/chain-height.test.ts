import { describe, expect, it } from 'vitest';
import { chainHeight, toSamples } from '../../src/collectors/chain-height.js';
import { HttpError } from '../../src/node-client/index.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

describe('chain-height toSamples', () => {
  it.each([
    [
      'default: every answer',
      { p: 23961402n, c: 71284401n, x: 1203456n, pTimestamp: 1778750491 },
      ['avax_chain_height{chain="P"} 23961402', 'avax_chain_height{chain="C"} 71284401', 'avax_chain_height{chain="X"} 1203456', 'avax_pchain_timestamp_seconds 1778750491'],
    ],
    ['behavior: only C and X came back', { c: 71284401n, x: 1203456n }, ['avax_chain_height{chain="C"} 71284401', 'avax_chain_height{chain="X"} 1203456']],
    ['error: nothing came back', {}, []],
  ])('%s', (_n, v, want) => {
    const s = toSamples(v);
    assertContract('chain-height', s);
    expect(lines(s)).toEqual(want);
  });
});

describe('chain-height collect', () => {
  const answers = () => ({
    '/ext/bc/P platform.getHeight': result('platform.getHeight', 'default'),
    '/ext/bc/P platform.getTimestamp': result('platform.getTimestamp', 'offset'),
    '/ext/bc/C/rpc eth_blockNumber': result('eth_blockNumber', 'default'),
    '/ext/bc/X avm.getHeight': result('avm.getHeight', 'default'),
  });
  it('default: four calls on their endpoints; eth_blockNumber with array params', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(chainHeight, client);
    const r = await chainHeight.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples)).toEqual([
      'avax_chain_height{chain="P"} 23961402',
      'avax_chain_height{chain="C"} 71284401',
      'avax_chain_height{chain="X"} 1203456',
      'avax_pchain_timestamp_seconds 1778750491',
    ]);
    expect(calls.find((c) => c.method === 'eth_blockNumber')!.params).toEqual([]);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it('error: P route answers 503 while bootstrapping → failure, but C and X heights are returned', async () => {
    const e503 = (m: string) => new HttpError(m, 503, 'API call rejected because chain is not done bootstrapping\n');
    const { client } = fakeClient({ ...answers(), '/ext/bc/P platform.getHeight': e503('platform.getHeight'), '/ext/bc/P platform.getTimestamp': e503('platform.getTimestamp') });
    const r = await chainHeight.collect(makeCtx(chainHeight, client).ctx);
    expect(r.errors).toHaveLength(2);
    expect(r.errors.every((e) => e instanceof HttpError && e.status === 503)).toBe(true);
    expect(lines(r.samples)).toEqual(['avax_chain_height{chain="C"} 71284401', 'avax_chain_height{chain="X"} 1203456']);
  });
});
