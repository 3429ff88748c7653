// Issue 27: the simulated 1.15.0 node's ACP-236 auto-renewed validators (src/sim/auto-renew.ts): the own
// validator runs in cycles of 48 hours to 7 days, one after the other, under one txID, with master's
// members after `signer`; some of the others are auto-renewed too; nothing of it before Helicon's activation
// or on v1.14.2.
import { describe, expect, it } from 'vitest';
import { startSimNode } from '../../src/sim/server.js';
import { result } from './helpers.js';

// Helicon on mainnet (v1.15.0's upgrade.Mainnet): the clocks below are after it.
const HELICON = Date.UTC(2026, 8, 22, 15) / 1000;

async function entries(version: '1.14.2' | '1.15.0', atMs: number, seed = 7) {
  const s = await startSimNode({ seed, validators: 60, peers: 60, version, now: () => atMs });
  try {
    const own = s.nodeId(0);
    const [mine] = (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [own] })).validators as Record<string, any>[];
    const all = (await result(s.url, '/ext/bc/P', 'platform.getCurrentValidators', {})).validators as Record<string, any>[];
    return { mine: mine!, all };
  } finally {
    await s.close();
  }
}

describe('sim: ACP-236 auto-renewed validators (version 1.15.0)', () => {
  it('default: the own validator is auto-renewed: a cycle of 48 h to 7 d around now, nextPeriod = its length, a config owner and an auto-compound share', async () => {
    const now = Date.UTC(2026, 10, 14, 9, 21, 31);
    const { mine } = await entries('1.15.0', now);
    const [start, end] = [Number(mine['startTime']), Number(mine['endTime'])];
    expect(start).toBeLessThanOrEqual(now / 1000);
    expect(end).toBeGreaterThan(now / 1000);
    expect(end - start).toBeGreaterThanOrEqual(2 * 86400);
    expect(end - start).toBeLessThanOrEqual(7 * 86400);
    expect(mine['nextPeriod']).toBe(String(end - start));
    expect(['0', '300000', '1000000']).toContain(mine['autoCompoundRewardShares']);
    expect(mine['validatorAuthority']).toEqual({ locktime: '0', threshold: '1', addresses: mine['validationRewardOwner'].addresses });
    expect(start).toBeGreaterThan(HELICON); // registered after the activation
  });

  it('behavior: at the boundary the next cycle starts where the last ended, under the same txID', async () => {
    const t0 = Date.UTC(2026, 10, 14, 9, 21, 31);
    const a = (await entries('1.15.0', t0)).mine;
    const end = Number(a['endTime']);
    const before = (await entries('1.15.0', (end - 1) * 1000)).mine;
    const after = (await entries('1.15.0', end * 1000)).mine;
    expect(before['endTime']).toBe(String(end));
    expect(after['startTime']).toBe(String(end));
    expect(Number(after['endTime']) - end).toBe(Number(a['nextPeriod']));
    expect(after['txID']).toBe(before['txID']);
  });

  it('behavior: some of the others are auto-renewed (their fixed periods already follow one another), the rest are not', async () => {
    const { all } = await entries('1.15.0', Date.UTC(2026, 10, 14));
    const renewed = all.filter((v) => 'nextPeriod' in v);
    expect(renewed.length).toBeGreaterThan(all.length * 0.2);
    expect(renewed.length).toBeLessThan(all.length * 0.7);
    for (const v of renewed) expect(Number(v['nextPeriod'])).toBe(Number(v['endTime']) - Number(v['startTime']));
    for (const v of all.filter((x) => !('nextPeriod' in x))) expect(Object.keys(v)).not.toContain('autoCompoundRewardShares');
  });

  it('behavior: none before Helicon is active, and none on v1.14.2', async () => {
    const early = await entries('1.15.0', (HELICON - 86400) * 1000);
    expect(early.all.filter((v) => 'nextPeriod' in v || 'validatorAuthority' in v)).toEqual([]);
    const v114 = await entries('1.14.2', Date.UTC(2026, 10, 14));
    expect(v114.all.filter((v) => 'nextPeriod' in v || 'autoCompoundRewardShares' in v)).toEqual([]);
  });
});
