// Scenario names of the simulated node (see issue 3 and src/sim/server.ts).

export const SCENARIOS = [
  'healthy',
  'bootstrapping',
  'unhealthy-network',
  'low-uptime',
  'index-stalled',
  'validator-expiring',
  'validator-disconnected',
  'not-a-validator',
  'index-disabled',
  'public-server',
  'slow',
  'garbage',
  'down',
] as const;

export type ScenarioName = (typeof SCENARIOS)[number];

export function isScenarioName(s: unknown): s is ScenarioName {
  return typeof s === 'string' && (SCENARIOS as readonly string[]).includes(s);
}

/** One line per scenario, for --help and the control endpoint. */
export const SCENARIO_HELP: Record<ScenarioName, string> = {
  healthy: 'everything normal',
  bootstrapping: 'P/X/C not bootstrapped: chain routes 503, readiness 503, bootstrapped check failing',
  'unhealthy-network': '3 peers, connected stake below 80%, chain health checks failing',
  'low-uptime': 'peers see low uptime: info.uptime weighted ~75%, rewarding ~40%',
  'index-stalled': 'index last-accepted frozen while chain heights keep growing',
  'validator-expiring': "own validation ends within 36 h",
  'validator-disconnected': 'own validator shows connected:false, network check failing (no inbound connections)',
  'not-a-validator': 'own node absent from validator sets, info.uptime errors',
  'index-disabled': 'all /ext/index/* routes answer 404',
  'public-server': 'admin, health and node-specific info methods absent',
  slow: 'every answer delayed (longer than the exporter deadline)',
  garbage: 'HTTP 200 with invalid JSON, wrong types or truncated bodies',
  down: 'node port refuses connections (control port stays up)',
};
