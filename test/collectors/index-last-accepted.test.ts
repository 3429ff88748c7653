import { describe, expect, it } from 'vitest';
import { indexGetLastAcceptedCall, indexLastAccepted, toSamples } from '../../src/collectors/index-last-accepted.js';
import { HttpError, normalStateOf, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { IndexGetLastAcceptedResult } from '../../src/schemas/index-api.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

const last = (n: string) => IndexGetLastAcceptedResult.parse(result('index.getLastAccepted', n));
const NOT_ENABLED = (m = 'index.getLastAccepted') => new HttpError(m, 404, '404 page not found\n');
const EMPTY = () => new RpcError('index.getLastAccepted', -32000, 'no containers have been accepted');

describe('index-last-accepted toSamples', () => {
  it('default: P, C and X block indexes', () => {
    const s = toSamples([
      { chain: 'P', kind: 'block', last: last('P-block') },
      { chain: 'C', kind: 'block', last: last('C-block') },
      { chain: 'X', kind: 'block', last: last('X-block') },
    ]);
    assertContract('index-last-accepted', s);
    expect(lines(s)).toEqual([
      'avax_index_available{chain="P",kind="block"} 1',
      'avax_index_last_accepted_index{chain="P",kind="block"} 23961401',
      'avax_index_last_accepted_timestamp_seconds{chain="P",kind="block"} 1778750458.1234567',
      'avax_index_available{chain="C",kind="block"} 1',
      'avax_index_last_accepted_index{chain="C",kind="block"} 71284912',
      'avax_index_last_accepted_timestamp_seconds{chain="C",kind="block"} 1778750504.87',
      'avax_index_available{chain="X",kind="block"} 1',
      'avax_index_last_accepted_index{chain="X",kind="block"} 1203455',
      'avax_index_last_accepted_timestamp_seconds{chain="X",kind="block"} 1778750472.5',
    ]);
  });
  it.each([
    ['behavior: not enabled', 'not-enabled' as const],
    ['behavior: empty', 'empty' as const],
  ])('%s → available 0 only', (_n, unavailable) => {
    expect(lines(toSamples([{ chain: 'X', kind: 'tx', unavailable }]))).toEqual(['avax_index_available{chain="X",kind="tx"} 0']);
  });
  it('error: only 404 and "no containers" are tolerated', () => {
    const normal = (e: Error) => normalStateOf(indexGetLastAcceptedCall, e);
    expect(normal(NOT_ENABLED())).toBe('notEnabled');
    expect(normal(EMPTY())).toBe('empty');
    expect(normal(new HttpError('m', 503, 'x'))).toBeUndefined();
    expect(normal(new RpcError('m', -32000, 'not found'))).toBeUndefined();
  });
});

describe('index-last-accepted collect', () => {
  it('default: one call per configured index with {"encoding":"hex"}', async () => {
    const { client, calls } = fakeClient({
      '/ext/index/P/block index.getLastAccepted': result('index.getLastAccepted', 'P-block'),
      '/ext/index/C/block index.getLastAccepted': result('index.getLastAccepted', 'C-block'),
      '/ext/index/X/block index.getLastAccepted': result('index.getLastAccepted', 'X-block'),
    });
    const { ctx, lines: log } = makeCtx(indexLastAccepted, client);
    const r = await indexLastAccepted.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(r.samples).toHaveLength(9);
    expect(calls.map((c) => [c.endpoint, c.params])).toEqual([
      ['/ext/index/P/block', { encoding: 'hex' }],
      ['/ext/index/C/block', { encoding: 'hex' }],
      ['/ext/index/X/block', { encoding: 'hex' }],
    ]);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
    expect(log).toEqual([]);
  });
  it('behavior: index disabled (404) and empty index → available 0, success, logged once per change', async () => {
    let pState: 'missing' | 'empty' | 'ok' = 'missing';
    const { client } = fakeClient({
      '/ext/index/P/block index.getLastAccepted': () => (pState === 'missing' ? NOT_ENABLED() : pState === 'empty' ? EMPTY() : result('index.getLastAccepted', 'P-block')),
      '/ext/index/C/block index.getLastAccepted': () => EMPTY(),
      '/ext/index/X/block index.getLastAccepted': result('index.getLastAccepted', 'X-block'),
    });
    const { ctx, lines: log } = makeCtx(indexLastAccepted, client);
    const r = await indexLastAccepted.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(lines(r.samples).slice(0, 2)).toEqual(['avax_index_available{chain="P",kind="block"} 0', 'avax_index_available{chain="C",kind="block"} 0']);
    expect(log).toHaveLength(2);
    await indexLastAccepted.collect(ctx);
    expect(log).toHaveLength(2); // no new line per cycle
    pState = 'empty';
    await indexLastAccepted.collect(ctx);
    expect(log).toHaveLength(3);
    pState = 'ok';
    const r2 = await indexLastAccepted.collect(ctx);
    expect(log).toHaveLength(4);
    expect(lines(r2.samples)[0]).toBe('avax_index_available{chain="P",kind="block"} 1');
  });
  it('error: timeout → failure for that index only', async () => {
    const { client } = fakeClient({
      '/ext/index/P/block index.getLastAccepted': new TimeoutError('index.getLastAccepted', 5000),
      '/ext/index/C/block index.getLastAccepted': result('index.getLastAccepted', 'C-block'),
      '/ext/index/X/block index.getLastAccepted': NOT_ENABLED(),
    });
    const r = await indexLastAccepted.collect(makeCtx(indexLastAccepted, client).ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['TimeoutError']);
    expect(lines(r.samples).filter((l) => l.startsWith('avax_index_available'))).toEqual([
      'avax_index_available{chain="C",kind="block"} 1',
      'avax_index_available{chain="X",kind="block"} 0',
    ]);
  });
});
