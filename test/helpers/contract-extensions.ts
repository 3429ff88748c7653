/**
 * Metric families the issues add beyond ../shared/METRICS.md (named in the issue text, same conventions).
 * Each is listed in docs/metrics.md and explained in the issue note; keep this list short.
 */
export const CONTRACT_EXTENSIONS: ReadonlySet<string> = new Set([
  'avax_chain_height_behind_reference', // issue 5: reference comparison
  // issue 7 (operator intelligence): named in the issue text
  'avax_validator_uptime_max_achievable_ratio',
  'avax_validator_delegation_capacity_avax',
  'avax_l1_validator_balance_runway_seconds',
  'avax_peers_newer_version_ratio',
  'avax_acp_node_vote',
  // issue 7: the expectation behind the "own ID not in the validator set" alert (--validator.expect-active)
  'avax_validator_expected_active',
  // issue 11: a health check that has not run yet is pending, neither healthy nor failing
  'avax_health_check_pending',
]);

/**
 * Names METRICS.md reserves for later waves, in prose: `name{labels}`; on a line like
 * `a` / `b` / `c{target,acp}` the labels apply to every name of the line.
 */
export function reservedNames(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const at = markdown.indexOf('## Later waves');
  if (at < 0) return out;
  for (const line of markdown.slice(at).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const names = [...line.matchAll(/`(avax_[a-z0-9_]+)(?:\{([^}]*)\})?`/g)];
    const labels = names.map((m) => m[2]).find((l) => l !== undefined);
    for (const m of names) out.set(m[1]!, (m[2] ?? labels ?? '').split(',').map((x) => x.trim()).filter(Boolean));
  }
  return out;
}
