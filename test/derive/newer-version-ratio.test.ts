import { describe, expect, it } from 'vitest';
import { compareVersions, newerVersion, newerVersionRatio, parseVersion } from '../../src/derive/newer-version-ratio.js';
import { InfoGetNodeVersionResult } from '../../src/schemas/info.js';
import { snapshotWith } from './snapshot.js';

const version = (v: string) => InfoGetNodeVersionResult.parse({ version: v, databaseVersion: 'v1.4.5', gitCommit: '', rpcProtocolVersion: '45', vmVersions: {} });

describe('derive: peers on a newer version', () => {
  it.each([
    ['avalanchego/1.14.2', [1, 14, 2, 1]],
    ['avalanche/1.9.0', [1, 9, 0, 1]],
    ['v1.14.3-rc.1', [1, 14, 3, 0]],
    ['avalanchego/1.15.0+abc', [1, 15, 0, 1]],
    ['v0.15.4', [0, 15, 4, 1]], // coreth's own version in a v1.13.x vmVersions
    ['avalanchego/dev', undefined],
    ['', undefined],
  ])('parseVersion(%j)', (v, want) => {
    expect(parseVersion(v)).toEqual(want);
  });
  it('behavior: semantic, not string order: 1.14.10 is newer than 1.14.2; a release is newer than its rc', () => {
    expect(compareVersions(parseVersion('avalanchego/1.14.10')!, parseVersion('avalanchego/1.14.2')!)).toBeGreaterThan(0);
    expect('avalanchego/1.14.10' < 'avalanchego/1.14.2').toBe(true); // the trap
    expect(compareVersions(parseVersion('1.14.3')!, parseVersion('1.14.3-rc.2')!)).toBeGreaterThan(0);
  });
  it('behavior: share of peers with a parseable version that run a newer one', () => {
    const m = new Map([
      ['avalanchego/1.14.10', 7],
      ['avalanchego/1.14.2', 2],
      ['avalanchego/1.14.1', 1],
      ['garbage', 5],
    ]);
    expect(newerVersionRatio('avalanchego/1.14.2', m)).toBe(0.7);
    expect(newerVersionRatio(undefined, m)).toBeUndefined();
    expect(newerVersionRatio('avalanchego/1.14.2', new Map([['x', 3]]))).toBeUndefined();
  });
  it('default: from the node version (node-info) and the peers\' versions (info-peers)', () => {
    const versions = new Map([
      ['avalanchego/1.14.2', 3],
      ['avalanchego/1.14.1', 1],
    ]);
    expect(newerVersion.derive(snapshotWith({ 'node-info': { version: version('avalanchego/1.14.1') }, 'info-peers': { versions } }), 0)).toEqual([
      { name: 'avax_peers_newer_version_ratio', labels: {}, value: 0.75 },
    ]);
    expect(newerVersion.derive(snapshotWith({ 'info-peers': { versions } }), 0)).toEqual([]); // own version unknown
    expect(newerVersion.derive(snapshotWith({ 'node-info': { version: version('avalanchego/1.14.1') } }), 0)).toEqual([]); // peers unknown
  });
});
