// The scenarios of the simulated node: the only list. Each scenario is one module in this folder
// (its name, its help line and every behaviour it changes, as the hooks of scenario.ts); the
// services ask the node's active scenario (NodeModel.active) through those hooks. Adding a scenario
// = one file + one line here (simulated-node/README.md lists it too; test/sim/scenario-modules.test.ts
// checks both).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { healthy } from './healthy.js';
import { bootstrapping } from './bootstrapping.js';
import { unhealthyNetwork } from './unhealthy-network.js';
import { lowUptime } from './low-uptime.js';
import { indexStalled } from './index-stalled.js';
import { validatorExpiring } from './validator-expiring.js';
import { validatorDisconnected } from './validator-disconnected.js';
import { notAValidator } from './not-a-validator.js';
import { indexDisabled } from './index-disabled.js';
import { indexEmpty } from './index-empty.js';
import { publicServer } from './public-server.js';
import { slow } from './slow.js';
import { garbage } from './garbage.js';
import { down } from './down.js';
import { rewardsLost } from './rewards-lost.js';
import { delegationFull } from './delegation-full.js';
import { l1FeeLow } from './l1-fee-low.js';
import { l1Inactive } from './l1-inactive.js';
import { upgradePending } from './upgrade-pending.js';
import { upgradeUnknown } from './upgrade-unknown.js';
import { versionDrift } from './version-drift.js';
import { blsMismatch } from './bls-mismatch.js';
import { acpVote } from './acp-vote.js';
import { vantageIsolated } from './vantage-isolated.js';
import { rewardPaid } from './reward-paid.js';
import { rewardMissed } from './reward-missed.js';
import { minStakeRaised } from './min-stake-raised.js';
import { feeSpike } from './fee-spike.js';
import { metricsV1_11_6 } from './metrics-v1.11.6.js';
import { metricsV1_10 } from './metrics-v1.10.js';
import { metricsDisabled } from './metrics-disabled.js';
import { l1Untracked } from './l1-untracked.js';
import { l1VmMissing } from './l1-vm-missing.js';
import { l1VmProtocolMismatch } from './l1-vm-protocol-mismatch.js';
import { l1Unhealthy } from './l1-unhealthy.js';
import { ipChanged } from './ip-changed.js';
import { logLevelDebug } from './log-level-debug.js';
import { uptimeAtRisk } from './uptime-at-risk.js';
import { validatorEnding } from './validator-ending.js';
import { l1FeeWarning } from './l1-fee-warning.js';
import { l1WeightAtRisk } from './l1-weight-at-risk.js';
import { l1WeightWarning } from './l1-weight-warning.js';
import { consensusStuck } from './consensus-stuck.js';
import { lagging } from './lagging.js';
import { dbSlow } from './db-slow.js';
import { diskFilling } from './disk-filling.js';
import { diskFillingSlow } from './disk-filling-slow.js';
import { rewardMissedWatched } from './reward-missed-watched.js';
import { l1Idle } from './l1-idle.js';
import { l1Stalled } from './l1-stalled.js';
import { l1QuorumLost } from './l1-quorum-lost.js';
import { badBlocks } from './bad-blocks.js';
import { consensusSlow } from './consensus-slow.js';
import { executionStalled } from './execution-stalled.js';
import type { Scenario } from './scenario.js';

export type { Scenario } from './scenario.js';

/** Every scenario, in the order of --help, GET /sim/scenarios and the README. */
export const SCENARIO_MODULES = [
  healthy,
  bootstrapping,
  unhealthyNetwork,
  lowUptime,
  indexStalled,
  validatorExpiring,
  validatorDisconnected,
  notAValidator,
  indexDisabled,
  indexEmpty,
  publicServer,
  slow,
  garbage,
  down,
  rewardsLost,
  delegationFull,
  l1FeeLow,
  l1Inactive,
  upgradePending,
  upgradeUnknown,
  versionDrift,
  blsMismatch,
  acpVote,
  vantageIsolated,
  rewardPaid,
  rewardMissed,
  minStakeRaised,
  feeSpike,
  metricsV1_11_6,
  metricsV1_10,
  metricsDisabled,
  l1Untracked,
  l1VmMissing,
  l1VmProtocolMismatch,
  l1Unhealthy,
  ipChanged,
  logLevelDebug,
  uptimeAtRisk,
  validatorEnding,
  l1FeeWarning,
  l1WeightWarning,
  l1WeightAtRisk,
  consensusStuck,
  lagging,
  dbSlow,
  diskFilling,
  diskFillingSlow,
  rewardMissedWatched,
  l1Idle,
  l1Stalled,
  l1QuorumLost,
  badBlocks,
  consensusSlow,
  executionStalled,
] as const;

export type ScenarioName = (typeof SCENARIO_MODULES)[number]['name'];

/** The scenario names, in list order. */
export const SCENARIOS: readonly ScenarioName[] = SCENARIO_MODULES.map((s) => s.name);

const BY_NAME: ReadonlyMap<string, Scenario<ScenarioName>> = new Map(SCENARIO_MODULES.map((s) => [s.name, s]));

export function isScenarioName(s: unknown): s is ScenarioName {
  return typeof s === 'string' && BY_NAME.has(s);
}

/** The scenario module of `name`. */
export function scenarioNamed(name: ScenarioName): Scenario<ScenarioName> {
  const s = BY_NAME.get(name);
  if (!s) throw new Error(`unknown scenario ${JSON.stringify(name)}`);
  return s;
}

/** One line per scenario, for --help and the control endpoint. */
export const SCENARIO_HELP = Object.fromEntries(SCENARIO_MODULES.map((s) => [s.name, s.help])) as Readonly<Record<ScenarioName, string>>;
