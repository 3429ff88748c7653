// The `metrics-v1.10` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const metricsV1_10 = defineScenario({
  name: 'metrics-v1.10',
  help: 'healthy; GET /ext/metrics in the naming of v1.10.0-v1.11.5 (chain alias, ops and DB methods in the name)',
  effect:
    'healthy; the above, and ops and DB methods in the names ' +
    '(`avalanche_network_pull_query_sent`, `avalanche_C_handler_chits_count`, ' +
    '`avalanche_db_get_count`, `…_unprocessed_msgs_len`)',
  extMetrics: { naming: 'v1.10' },
});
