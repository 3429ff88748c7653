// Scenario names of the simulated node and their one-line help: now listed in scenarios/index.ts,
// one module per scenario (scenarios/<name>.ts). This file only re-exports them for the files that
// still import it.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
export { SCENARIOS, SCENARIO_HELP, isScenarioName, type ScenarioName } from './scenarios/index.js';
