import { readFileSync } from 'node:fs';

/**
 * Links into the project's repository (the runbook beside a failing collector on the landing page).
 * The one place to change is package.json `repository`; the alert rules' runbook_url annotations use
 * the same base, and test/consistency/promql.test.ts fails when they drift apart.
 */
export const DEFAULT_REPOSITORY = 'https://github.com/avalanche-exporter/avalanche-exporter';

/** `git+https://host/owner/name.git` (package.json form) → `https://host/owner/name`; undefined if not a URL. */
export function repositoryWebUrl(repository: unknown): string | undefined {
  const raw = typeof repository === 'string' ? repository : (repository as { url?: unknown } | undefined)?.url;
  if (typeof raw !== 'string') return undefined;
  const url = raw.replace(/^git\+/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  return /^https:\/\/[^\s/]+\/[^\s]+$/.test(url) ? url : undefined;
}

export const REPOSITORY_URL: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { repository?: unknown };
    return repositoryWebUrl(pkg.repository) ?? DEFAULT_REPOSITORY;
  } catch {
    return DEFAULT_REPOSITORY;
  }
})();

/** docs/runbook.md on the default branch; its sections are the alert names (GitHub anchors: lower case). */
export const RUNBOOK_URL = `${REPOSITORY_URL}/blob/main/docs/runbook.md`;

export function runbookUrl(alert: string): string {
  return `${RUNBOOK_URL}#${alert.toLowerCase()}`;
}
