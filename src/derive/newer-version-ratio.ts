import { gauge, sample, type Sample } from '../model.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/**
 * Semantic version of an avalanchego version string: `avalanchego/1.14.2`, `avalanche/1.9.0` (before
 * v1.10.18), `v1.14.3-rc.1`, `v0.15.4` (coreth's own version in a v1.13.x vmVersions). Returns
 * [major, minor, patch, release] (release 1 for a final release, 0 for a pre-release, which sorts
 * before it), or undefined when there is no x.y.z.
 */
export function parseVersion(v: string): [number, number, number, number] | undefined {
  const m = /^(?:[A-Za-z][\w.-]*\/)?v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ? 0 : 1];
}

/** <0, 0, >0 like a comparator; numeric per component (1.14.10 > 1.14.2). */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Share of peers (with a parseable version) that run a newer version than `own`; undefined when the
 * own version is unknown or unparseable, or no peer has a parseable version.
 */
export function newerVersionRatio(own: string | undefined, versions: ReadonlyMap<string, number>): number | undefined {
  const mine = own === undefined ? undefined : parseVersion(own);
  if (!mine) return undefined;
  let known = 0;
  let newer = 0;
  for (const [v, n] of versions) {
    const pv = parseVersion(v);
    if (!pv) continue;
    known += n;
    if (compareVersions(pv, mine) > 0) newer += n;
  }
  return known === 0 ? undefined : Math.round((newer / known) * 1e6) / 1e6;
}

/** avax_peers_newer_version_ratio: the node's version (node-info) against its peers' (info-peers). */
export const newerVersion = defineDerivation({
  name: 'newer-version-ratio',
  reads: ['node-info', 'info-peers'],
  metrics: [gauge('avax_peers_newer_version_ratio', 'Share of peers running a newer avalanchego version than this node (semantic version order).')],
  derive(s): Sample[] {
    const versions = valueOf(s, 'info-peers')?.versions;
    if (!versions) return [];
    const r = newerVersionRatio(valueOf(s, 'node-info')?.version?.version, versions);
    return r === undefined ? [] : [sample('avax_peers_newer_version_ratio', {}, r)];
  },
});
