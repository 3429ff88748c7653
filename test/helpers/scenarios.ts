import type { ScenarioName } from '../../src/sim/server.js';

/**
 * The issue-7 scenarios of the simulator, tested in test/scenarios/intelligence.test.ts
 * (test/scenarios/exporter.test.ts checks that every scenario is tested somewhere).
 */
export const INTELLIGENCE_SCENARIOS: readonly ScenarioName[] = [
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
];
