import { describe, expect, it } from 'vitest';
import {
  InfoGetNetworkIDResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
  InfoIsBootstrappedResult,
  InfoPeersResult,
  InfoUpgradesResult,
  InfoUptimeResult,
} from '../../src/schemas/info.js';
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
});
