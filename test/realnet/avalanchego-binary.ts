// Where the realnet suite finds a real avalanchego binary, per release it tests against.
//
// AVALANCHEGO_PATH_<VERSION> (e.g. AVALANCHEGO_PATH_V1_15_0) or, for the first version only,
// AVALANCHEGO_PATH; else the cache <AVALANCHEGO_CACHE_DIR or ~/.cache/avalanche-exporter/avalanchego>/<version>/avalanchego,
// which `.ci/run` fills (it builds the binary from the Go module proxy on a machine that cannot download the
// official release; on yours, put the release's `avalanchego` there or point AVALANCHEGO_PATH at it).
// The binary's own `--version` must name the version: a wrong binary is refused, not tested as another.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The releases the suite runs real networks of, newest first (mainnet runs v1.15 with Helicon since 2026-09-22). */
export const REALNET_VERSIONS = ['v1.15.0', 'v1.13.5'] as const;
export type RealnetVersion = (typeof REALNET_VERSIONS)[number];

export function cacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return process.env['AVALANCHEGO_CACHE_DIR'] || join(base, 'avalanche-exporter', 'avalanchego');
}

export type Found = { ok: true; path: string; versionLine: string } | { ok: false; why: string };

export function findAvalanchego(version: RealnetVersion): Found {
  const envName = `AVALANCHEGO_PATH_${version.toUpperCase().replace(/\./g, '_')}`;
  const fromEnv = process.env[envName] || (version === REALNET_VERSIONS[0] ? process.env['AVALANCHEGO_PATH'] : undefined);
  const path = fromEnv || join(cacheDir(), version, 'avalanchego');
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { ok: false, why: `no avalanchego ${version} at ${path}${fromEnv ? '' : ` (set ${envName}${version === REALNET_VERSIONS[0] ? ' or AVALANCHEGO_PATH' : ''}, or put the binary there)`}` };
  }
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const line = (r.stdout || '').trim().split('\n')[0] ?? '';
  if (!line.startsWith(`avalanchego/${version.slice(1)} `)) return { ok: false, why: `${path} --version says "${line || r.stderr?.trim() || `exit ${r.status}`}", not avalanchego/${version.slice(1)}` };
  return { ok: true, path, versionLine: line };
}

const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());

/**
 * The binary of `version`, or undefined after one loud line saying how to get one (the suite is then
 * skipped). Under CI a missing binary is a failure: `.ci/run` fills the cache, so its absence is a bug.
 */
export function avalanchegoOrSkip(version: RealnetVersion, suite: string): string | undefined {
  const f = findAvalanchego(version);
  if (f.ok) return f.path;
  const msg = `${suite}: ${f.why}. The realnet suite runs real avalanchego nodes: \`bash .ci/run\` builds and caches them (Go and the Go module proxy), or set AVALANCHEGO_PATH to an official release binary.`;
  if (CI) throw new Error(`${msg} Under CI (CI=${process.env['CI']}) this is a failure, not a skip.`);
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING ${msg}\n${'!'.repeat(78)}\n`);
  return undefined;
}
