/** `promtool check metrics` from tests: a failure when promtool is missing in CI, a skip elsewhere. */
import { spawnSync } from 'node:child_process';

const PROM_CLIENT_LINT = /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

export const HAS_PROMTOOL = spawnSync('promtool', ['--version']).status === 0;

/**
 * `promtool check metrics` on `text`: 'ok', or 'skipped' when promtool is missing outside CI.
 * Throws with promtool's words when it complains (any output counts, lint included).
 */
export function promtoolCheck(text: string | Buffer): 'ok' | 'skipped' {
  if (!HAS_PROMTOOL) {
    if (process.env['CI']) throw new Error('promtool is not installed (required in CI)');
    return 'skipped';
  }
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 10_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  // prom-client's default process metrics name three gauges nodejs_active_*_total: a lint
  // complaint (exit status 3) about a dependency's names, not about this exporter's output.
  const lines = out === '' ? [] : out.split('\n').filter((l) => !PROM_CLIENT_LINT.test(l));
  const lintOnly = r.status === 3 && lines.length === 0;
  if ((r.status !== 0 && !lintOnly) || lines.length > 0) throw new Error(`promtool check metrics failed (status ${r.status}): ${out.slice(0, 2000)}`);
  return 'ok';
}
