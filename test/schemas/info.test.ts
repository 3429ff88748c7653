import { describe, expect, it } from 'vitest';
import { InfoAcpsResult, InfoGetNetworkIDResult, InfoGetNodeIPResult, InfoGetNodeIDResult, InfoGetNodeVersionResult, InfoGetVMsResult, InfoIsBootstrappedResult, InfoPeersResult, InfoUpgradesResult, InfoUptimeResult } from '../../src/schemas/info.js';
import { UNSCHEDULED_SECONDS } from '../../src/schemas/primitives.js';
import { result } from '../fixtures/load.js';

describe('info.getNodeID', () => {
  it('default: proofOfPossession', () => {
    const v = InfoGetNodeIDResult.parse(result('info.getNodeID', 'default'));
    expect(v.nodeID).toBe('NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv');
    expect(v.nodePOP?.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
  });
  it('behavior: the spec typo proofOfPosession is accepted and normalised', () => {
    const v = InfoGetNodeIDResult.parse(result('info.getNodeID', 'spec-typo-proofOfPosession'));
    expect(v.nodePOP?.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
  });
  it('behavior: nodePOP absent', () => {
    expect(InfoGetNodeIDResult.parse({ nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' }).nodePOP).toBeUndefined();
  });
  it('error: bad NodeID checksum', () => {
    const r = InfoGetNodeIDResult.safeParse({ nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh' });
    expect(r.error?.issues[0]?.path).toEqual(['nodeID']);
    expect(r.error?.issues[0]?.message).toContain('bad checksum');
  });
});

describe('info.getNodeVersion', () => {
  it('default: strings', () => {
    const v = InfoGetNodeVersionResult.parse(result('info.getNodeVersion', 'default'));
    expect(v.rpcProtocolVersion).toBe('45');
    expect(v.vmVersions['evm']).toBe('v1.14.2');
  });
  it('behavior: numeric rpcProtocolVersion, empty gitCommit, unknown field stripped', () => {
    const v = InfoGetNodeVersionResult.parse(result('info.getNodeVersion', 'no-ldflags-number-rpc'));
    expect(v.rpcProtocolVersion).toBe('45');
    expect(v.gitCommit).toBe('');
    expect(v).not.toHaveProperty('futureField');
  });
  it('error: version missing', () => {
    expect(InfoGetNodeVersionResult.safeParse({ databaseVersion: 'v1.4.5' }).success).toBe(false);
  });
});

describe('info.getNetworkID / isBootstrapped / uptime', () => {
  it('default: string and number network IDs', () => {
    expect(InfoGetNetworkIDResult.parse(result('info.getNetworkID', 'default')).networkID).toBe(1);
    expect(InfoGetNetworkIDResult.parse(result('info.getNetworkID', 'number')).networkID).toBe(5);
  });
  it('error: isBootstrapped as a string', () => {
    expect(InfoIsBootstrappedResult.safeParse({ isBootstrapped: 'true' }).success).toBe(false);
  });
  it('default: uptime percentages as strings and numbers', () => {
    expect(InfoUptimeResult.parse(result('info.uptime', 'default'))).toEqual({ rewardingStakePercentage: 99.9103, weightedAveragePercentage: 99.3417 });
    expect(InfoUptimeResult.parse(result('info.uptime', 'numbers')).weightedAveragePercentage).toBe(97.25);
  });
  it('error: uptime with a wrong type', () => {
    expect(InfoUptimeResult.safeParse({ rewardingStakePercentage: 'high', weightedAveragePercentage: '1' }).success).toBe(false);
  });
});

describe('info.peers', () => {
  it('default: string counts, times with offsets', () => {
    const v = InfoPeersResult.parse(result('info.peers', 'default'));
    expect(v.numPeers).toBe(6);
    expect(v.peers).toHaveLength(6);
    // 2026-05-14T05:21:40-04:00 = 09:21:40Z
    expect(v.peers[1]!.lastReceived).toBe(1778750500);
    expect(v.peers[0]!.observedUptime).toBe(100);
    expect(v.peers[5]!.benched).toEqual(['C', 'X']);
  });
  it('behavior: spec variant (numPeers number, 9-digit fraction, extra fields)', () => {
    const v = InfoPeersResult.parse(result('info.peers', 'spec-variant'));
    expect(v.numPeers).toBe(1);
    expect(v.peers[0]!.lastReceived).toBeCloseTo(1778750504.123456789, 6);
    expect(v.peers[0]).not.toHaveProperty('observedSubnetUptimes');
  });
  it('behavior: empty and null peers', () => {
    expect(InfoPeersResult.parse(result('info.peers', 'empty')).peers).toEqual([]);
    expect(InfoPeersResult.parse({ numPeers: '0', peers: null }).peers).toEqual([]);
  });
  it('error: a bad timestamp names the field', () => {
    const raw = result('info.peers', 'default');
    raw.peers[2].lastReceived = '2026-05-14 09:21';
    const r = InfoPeersResult.safeParse(raw);
    expect(r.error?.issues[0]?.path).toEqual(['peers', 2, 'lastReceived']);
    expect(r.error?.issues[0]?.message).toContain('invalid RFC3339 timestamp');
  });
  it('error: a bad tracked subnet checksum', () => {
    const raw = result('info.peers', 'default');
    raw.peers[1].trackedSubnets = ['11111111111111111111111111111111LpoYZ'];
    expect(InfoPeersResult.safeParse(raw).success).toBe(false);
  });
});

describe('info.upgrades', () => {
  it('default: unscheduled Helicon', () => {
    expect(InfoUpgradesResult.parse(result('info.upgrades', 'default')).heliconTime).toBe(UNSCHEDULED_SECONDS);
  });
  it('behavior: scheduled Helicon', () => {
    expect(InfoUpgradesResult.parse(result('info.upgrades', 'helicon-scheduled')).heliconTime).toBe(Date.parse('2026-07-28T15:00:00Z') / 1000);
  });
  it('behavior: older node without heliconTime', () => {
    expect(InfoUpgradesResult.parse({ banffTime: '2022-10-18T16:00:00Z' }).heliconTime).toBeUndefined();
  });
  it('default: v1.13.5 and v1.14.2 answer fortunaTime, read as before', () => {
    for (const c of ['v1.13.5', 'default']) expect(InfoUpgradesResult.parse(result('info.upgrades', c)).times['fortuna']).toBe(Date.parse('2025-04-08T15:00:00Z') / 1000);
  });
  it('behavior: the named member wins over the placeholder (fUpgradeTime of v1.12.2), in either order', () => {
    for (const o of [{ fUpgradeTime: '9999-12-01T00:00:00Z', fortunaTime: '2025-04-08T15:00:00Z' }, { fortunaTime: '2025-04-08T15:00:00Z', fUpgradeTime: '9999-12-01T00:00:00Z' }]) {
      expect(InfoUpgradesResult.parse(o).times).toEqual({ fortuna: 1744124400 });
    }
  });
  it.each([
    ['a number in a *Time member', { graniteTime: 1763568000 }, 'graniteTime'],
    ['a bad date', { graniteTime: 'tomorrow' }, 'graniteTime'],
    ['null', { heliconTime: null }, 'heliconTime'],
  ])('error: %s is rejected, naming the member', (_n, answer, key) => {
    const r = InfoUpgradesResult.safeParse(answer);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain(key);
  });
  it('error: more than 64 upgrade times is not an upgrade list (bounded label set)', () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`u${i}Time`, '2025-01-01T00:00:00Z']));
    expect(InfoUpgradesResult.safeParse(many).success).toBe(false);
  });
});

describe('info.acps', () => {
  it('error: a non-numeric proposal key or a missing weight is rejected', () => {
    expect(InfoAcpsResult.safeParse({ acps: { x: { supportWeight: '1', objectWeight: '0', abstainWeight: '0' } } }).success).toBe(false);
    expect(InfoAcpsResult.safeParse({ acps: { 1: { supportWeight: '1', objectWeight: '0' } } }).success).toBe(false);
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
