// The `l1-untracked` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1Untracked = defineScenario({
  name: 'l1-untracked',
  help: 'the L1 chain is not run (subnet not tracked): status Created, no chain check, isBootstrapped unknown chain; still an L1 validator',
  effect:
    'the node does not run the L1 chain (its subnet is not tracked): status `Created`, no health ' +
    'check for it, `info.isBootstrapped` → `there is no chain with alias/ID \'<id>\'`; the node ' +
    'is still in the L1\'s validator set',
  l1: { chain: 'untracked' },
});
