/**
 * Metric families the issues add beyond ../shared/METRICS.md (named in the issue text, same conventions).
 * Each is listed in docs/metrics.md and explained in the issue note; keep this list short.
 */
export const CONTRACT_EXTENSIONS: ReadonlySet<string> = new Set([
  'avax_chain_height_behind_reference', // issue 5: reference comparison
]);
