import { describe, expect, it } from 'vitest';
import { PlatformGetBlockchainStatusResult, PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { result } from '../fixtures/load.js';

const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';

describe('platform.getBlockchains', () => {
  it('default: id, name, subnetID and vmID of every chain but P', () => {
    const v = PlatformGetBlockchainsResult.parse(result('platform.getBlockchains', 'default'));
    expect(v.blockchains.map((c) => c.name)).toEqual(['X-Chain', 'C-Chain', 'dexalot']);
    expect(v.blockchains[0]).toEqual({ id: X, name: 'X-Chain', subnetID: '11111111111111111111111111111111LpoYY', vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq' });
  });
  it('behavior: null (Go nil slice) is no chain', () => {
    expect(PlatformGetBlockchainsResult.parse(result('platform.getBlockchains', 'null')).blockchains).toEqual([]);
  });
  it('error: a chain ID with a bad checksum is refused', () => {
    const bad = result('platform.getBlockchains', 'default');
    bad.blockchains[0].id = X.slice(0, -1) + (X.endsWith('M') ? 'N' : 'M');
    expect(PlatformGetBlockchainsResult.safeParse(bad).error?.issues[0]?.path).toEqual(['blockchains', 0, 'id']);
  });
});

describe('platform.getBlockchainStatus', () => {
  it.each(['Validating', 'Created', 'Preferred', 'Syncing', 'Unknown'])('default: %s', (status) => {
    expect(PlatformGetBlockchainStatusResult.parse({ status }).status).toBe(status);
  });
  it('error: a status outside the known set (free text must not become a label)', () => {
    expect(PlatformGetBlockchainStatusResult.safeParse({ status: 'validating' }).success).toBe(false);
  });
});
