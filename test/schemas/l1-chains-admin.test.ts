import { describe, expect, it } from 'vitest';
import { AdminGetLoggerLevelResult } from '../../src/schemas/admin.js';
import { InfoGetNodeIPResult, InfoGetVMsResult } from '../../src/schemas/info.js';
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

describe('info.getVMs and info.getNodeIP', () => {
  it('default: VM IDs with their aliases, fxs stripped', () => {
    const v = InfoGetVMsResult.parse(result('info.getVMs', 'default'));
    expect(Object.keys(v.vms)).toHaveLength(3);
    expect(v).not.toHaveProperty('fxs');
  });
  it('behavior: the docs shape without fxs and a null alias list', () => {
    expect(InfoGetVMsResult.parse(result('info.getVMs', 'docs-no-fxs')).vms['mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6']).toEqual([]);
  });
  it('default: ip:port as a string', () => {
    expect(InfoGetNodeIPResult.parse(result('info.getNodeIP', 'default')).ip).toBe('198.51.100.23:9651');
  });
  it('error: a number is not an address', () => {
    expect(InfoGetNodeIPResult.safeParse({ ip: 9651 }).success).toBe(false);
  });
});

describe('admin.getLoggerLevel', () => {
  it('default: every logger with its levels', () => {
    const v = AdminGetLoggerLevelResult.parse(result('admin.getLoggerLevel', 'debug'));
    expect(v.loggerLevels['C']).toEqual({ logLevel: 'DEBUG', displayLevel: 'INFO' });
  });
  it('behavior: a level in lower case is normalised', () => {
    expect(AdminGetLoggerLevelResult.parse({ loggerLevels: { main: { logLevel: 'verbo' } } }).loggerLevels['main']?.logLevel).toBe('VERBO');
  });
  it('error: an unknown level is refused (no free text in the level label)', () => {
    expect(AdminGetLoggerLevelResult.safeParse({ loggerLevels: { main: { logLevel: 'LOUD' } } }).success).toBe(false);
  });
});
