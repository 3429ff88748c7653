// Scenario names of the simulated node and their one-line help (effects: README.md of src/sim).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).

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
  'index-empty',
  'public-server',
  'slow',
  'garbage',
  'down',
  'rewards-lost',
  'delegation-full',
  'l1-fee-low',
  'l1-inactive',
  'upgrade-pending',
  'upgrade-unknown',
  'version-drift',
  'bls-mismatch',
  'acp-vote',
  'vantage-isolated',
  'reward-paid',
  'reward-missed',
  'min-stake-raised',
  'fee-spike',
  'metrics-v1.11.6',
  'metrics-v1.10',
  'metrics-disabled',
  'l1-untracked',
  'l1-vm-missing',
  'l1-unhealthy',
  'ip-changed',
  'log-level-debug',
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
  'index-empty': 'index enabled but no container accepted yet: getLastAccepted -32000 "no containers have been accepted"',
  'public-server': 'admin, health and node-specific info methods absent',
  slow: 'every answer delayed (longer than the exporter deadline)',
  garbage: 'HTTP 200 with invalid JSON, wrong types or truncated bodies',
  down: 'node port refuses connections (control port stays up)',
  'rewards-lost': 'info.uptime ~60/~10 and own validation started 24 d ago, ends in 6 d: 80% no longer reachable',
  'delegation-full': 'own delegatorWeight = 4 x own weight (no delegation capacity left), 150 delegators',
  'l1-fee-low': 'own L1 validator balance = 512 nAVAX/s x 20 h at the switch, still draining',
  'l1-inactive': 'own L1 validator listed with balance "0" (inactive)',
  'upgrade-pending': "the version's next upgrade (heliconTime on 1.14.2) = switch + 3 d; ~70% of peers on the next release (1.15.0) announcing it",
  'upgrade-unknown': 'peers with ~70% of the stake announce an upgrade at switch + 20 h; futureupgrade check failing',
  'version-drift': '~70% of peers on avalanchego/1.14.10 (newer than 1.14.2 by semver, older as a string)',
  'bls-mismatch': 'info.getNodeID BLS key differs from the registered signer; bls check failing',
  'acp-vote': 'CurrentACPs {236,247}: ~60% of the stake supports 247, ~15% objects to 236; own stance +247 -236',
  'vantage-isolated': 'this node and its sibling nodes (--nodes >= 2) see each other disconnected',
  'reward-paid': 'own validation ends 60 s after the switch with its reward paid (getRewardUTXOs), then re-staked (new txID)',
  'reward-missed': 'own validation ends 60 s after the switch without reward (no reward UTXO), then re-staked (new txID)',
  'min-stake-raised': 'getMinStake minValidatorStake above the own validator stake',
  'fee-spike': 'getFeeState congested: gas excess 12,000,000, capacity 120,000, price 256 nAVAX',
  'metrics-v1.11.6': 'healthy; GET /ext/metrics in the naming of v1.11.6-v1.11.7 (chain alias in the name, ops in labels)',
  'metrics-v1.10': 'healthy; GET /ext/metrics in the naming of v1.10.0-v1.11.5 (chain alias, ops and DB methods in the name)',
  'metrics-disabled': 'healthy; GET /ext/metrics answers 404 (--api-metrics-enabled=false)',
  'l1-untracked': 'the L1 chain is not run (subnet not tracked): status Created, no chain check, isBootstrapped unknown chain; still an L1 validator',
  'l1-vm-missing': "the L1 chain's VM plugin is not installed: absent from info.getVMs, status Created, chain check failing (failed to create chain)",
  'l1-unhealthy': "the L1 chain's health check fails (not connected to enough L1 stake): the subnet's tagged health is unhealthy",
  'ip-changed': 'info.getNodeIP advertises another address (203.0.113.x, same port)',
  'log-level-debug': "Admin API enabled; admin.getLoggerLevel: the C logger writes DEBUG",
};
