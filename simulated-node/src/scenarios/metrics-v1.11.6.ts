// The `metrics-v1.11.6` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const metricsV1_11_6 = defineScenario({
  name: 'metrics-v1.11.6',
  help: 'healthy; GET /ext/metrics in the naming of v1.11.6-v1.11.7 (chain alias in the name, ops in labels)',
  effect:
    'healthy; `/ext/metrics` in the v1.11.6–v1.11.7 naming: chain alias back in the name ' +
    '(`avalanche_C_blks_accepted_count`, `avalanche_C_db_calls{method}`, ' +
    '`avalanche_P_vm_time_until_unstake`), `avalanche_process_*`/`avalanche_go_*`, ' +
    '`avalanche_db_internal_size{level}`, `avalanche_<kind>_checks_failing{tag}`; no ' +
    '`consensus_latencies`, no `poll_count`',
  extMetrics: { naming: 'v1.11.6' },
});
