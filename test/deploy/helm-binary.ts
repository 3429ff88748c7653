// Where the deploy tests find Helm: HELM_PATH, else the cache <HELM_CACHE_DIR or ~/.cache/avalanche-exporter/helm>/<version>/helm
// that `.ci/run` fills by building the pinned release from the Go module proxy (`go install
// helm.sh/helm/v3/cmd/helm@<version>`, a few minutes cold). Its own `version` must name the pinned release.
// In CI a missing Helm fails the tests; elsewhere they are skipped with one loud line (as test/realnet does for avalanchego).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The pinned Helm release (`.ci/run` builds the same one). */
export const HELM_VERSION = 'v3.22.0';

export const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());

export function helmCacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return process.env['HELM_CACHE_DIR'] || join(base, 'avalanche-exporter', 'helm');
}

export type Found = { ok: true; path: string } | { ok: false; why: string };

export function findHelm(): Found {
  const path = process.env['HELM_PATH'] || join(helmCacheDir(), HELM_VERSION, 'helm');
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { ok: false, why: `no helm ${HELM_VERSION} at ${path}` };
  }
  const r = spawnSync(path, ['version', '--template', '{{.Version}}'], { encoding: 'utf8', timeout: 30_000 });
  const v = (r.stdout ?? '').trim();
  // A `go install` build says its major.minor only ("v3.22": the patch is stamped in by Helm's release ldflags).
  if (v !== HELM_VERSION && v !== HELM_VERSION.replace(/\.\d+$/, '')) return { ok: false, why: `${path} version says "${v || r.stderr?.trim() || `exit ${r.status}`}", not ${HELM_VERSION}` };
  return { ok: true, path };
}

/** The Helm binary, or undefined after one loud line (the suite is then skipped); under CI a missing Helm throws. */
export function helmOrSkip(suite: string): string | undefined {
  const f = findHelm();
  if (f.ok) return f.path;
  const msg = `${suite}: ${f.why}. \`bash .ci/run\` builds and caches it (GOFLAGS=-mod=mod GOBIN=${join(helmCacheDir(), HELM_VERSION)} go install helm.sh/helm/v3/cmd/helm@${HELM_VERSION}), or set HELM_PATH.`;
  if (CI) throw new Error(`${msg} Under CI (CI=${process.env['CI']}) this is a failure, not a skip.`);
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING ${msg}\n${'!'.repeat(78)}\n`);
  return undefined;
}
