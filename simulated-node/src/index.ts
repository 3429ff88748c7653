// The front door of the simulated avalanchego node (@avalanche-exporter/simulated-node): everything the
// exporter's `demo`, the backtest and the tests use, and nothing else. A file that is not named here is
// the package's own business and may change without notice.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no code
// with the exporter and has its own CB58, JSON-RPC envelope and constants, so that a bug in the exporter's
// decoding cannot hide behind the same bug here. Do not "fix" this duplication
// (test/sim/independence.test.ts fails on any import from outside the package).

// A node on loopback HTTP, as `avalanche-exporter sim` and `demo` start it.
export { startSimNode, type SimNode, type SimOptions } from './server.js';
export {
  parseDuration,
  parseSimArgs,
  simMain,
  SIM_DEFAULT_CONTROL,
  SIM_DEFAULT_HEALTH_INTERVAL_MS,
  SIM_DEFAULT_LISTEN,
  type SimMainIo,
} from './cli.js';

// Scenarios and versions.
export {
  isScenarioName,
  SCENARIO_HELP,
  SCENARIO_MODULES,
  SCENARIOS,
  scenarioNamed,
  type Scenario,
  type ScenarioName,
} from './scenarios/index.js';
export { isSimVersion, SIM_VERSIONS, type SimVersion } from './versions.js';

// A node in the process, without HTTP (the backtest drives thousands on a fake clock).
export { SimInstance } from './node-instance.js';
export { NodeModel } from './node-model.js';
export { HealthChecker } from './health-checks.js';
export { route } from './node-routes.js';
export { garble } from './garbage-answers.js';
export type { HttpAnswer } from './json-rpc-envelope.js';
export { isAutoRenewed } from './auto-renew.js';
export { validatorPeriod } from './validator-registry.js';
export { rewardAutoRenewedTxId } from './rewards.js';
export { Mulberry32 } from './deterministic-random.js';
