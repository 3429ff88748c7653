import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The exporter process's own metrics (prom-client's process_* and nodejs_*), as exposition text.
 * Gauges named *_total fail `promtool check metrics`: nodejs_active_{handles,requests,resources}
 * (without _total) carry the same counts. prom-client writes NaN as "Nan" (lib/util.js); the text
 * format spells it NaN.
 */
export function processMetrics(): () => Promise<string> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const n of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(n);
  return async () => (await registry.metrics().catch(() => '')).replace(/ Nan$/gm, ' NaN');
}
