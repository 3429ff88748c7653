// The `delegation-full` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const delegationFull = defineScenario({
  name: 'delegation-full',
  help: 'own delegatorWeight = 4 x own weight (no delegation capacity left), 150 delegators',
  effect:
    'own `delegatorWeight` = 4 × `weight` (own stake is at most ~362,000 AVAX, the 3,000,000 AVAX' +
    ' cap never bites), `delegatorCount` ≥ 150 (and as many `delegators` for a one-ID query): ' +
    'capacity 0',
  validators: {
    // min(5 x own, 3,000,000 AVAX) - own - delegations = 0: own stake is at most ~362,000 AVAX
    // (validator-registry.ts makeValidator), so the cap never bites and delegations = 4 x own.
    ownDelegation: (self) => ({ deleg: self.own * 4n, delegatorCount: Math.max(150, self.delegatorCount) }),
  },
});
