import { describe, expect, it } from 'vitest';
import { infoAcps, toSamples } from '../../src/collectors/info-acps.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { InfoAcpsResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

describe('info-acps toSamples', () => {
  it('default: v1.14.2 has no open proposal → no series', () => {
    expect(toSamples(InfoAcpsResult.parse(result('info.acps', 'default')))).toEqual([]);
  });
  it('behavior: open proposals → support, object and abstain weights per ACP, ascending', () => {
    const s = toSamples(InfoAcpsResult.parse(result('info.acps', 'open')));
    assertContract('info-acps', s);
    expect(lines(s)).toEqual([
      'avax_acp_support_weight{acp="236"} 24000000000000000',
      'avax_acp_object_weight{acp="236"} 36000000000000000',
      'avax_acp_abstain_weight{acp="236"} 180000000000000000',
      'avax_acp_support_weight{acp="247"} 150000000000000000',
      'avax_acp_object_weight{acp="247"} 0',
      'avax_acp_abstain_weight{acp="247"} 90000000000000000',
    ]);
  });
});

describe('info-acps collect', () => {
  it.each([
    ['method absent', new RpcError('info.acps', -32601, 'rpc: can\'t find method "info.acps"')],
    ['API disabled (404)', new HttpError('info.acps', 404, '404 page not found')],
  ])('behavior: %s → no series, success, logged once', async (_n, err) => {
    const { client } = fakeClient({ 'info.acps': err });
    const { ctx, lines: log } = makeCtx(infoAcps, client);
    expect(await infoAcps.collect(ctx)).toEqual({ value: { open: [] }, samples: [], errors: [] });
    await infoAcps.collect(ctx);
    expect(log.filter((l) => l.level === 'info')).toHaveLength(1);
  });
  it('behavior: collect publishes the open proposals for the node-vote series; a failure publishes nothing', async () => {
    let answer: unknown = result('info.acps', 'open');
    const { client } = fakeClient({ 'info.acps': () => answer });
    const { ctx } = makeCtx(infoAcps, client);
    expect((await infoAcps.collect(ctx)).value?.open).toEqual([236, 247]);
    answer = new TimeoutError('info.acps', 5000);
    const r = await infoAcps.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.value).toBeUndefined();
  });
});
