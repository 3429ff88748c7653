// The `index-empty` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const indexEmpty = defineScenario({
  name: 'index-empty',
  help: 'index enabled but no container accepted yet: getLastAccepted -32000 "no containers have been accepted"',
  effect:
    'index enabled, no container accepted yet (a normal state, e.g. a fresh node): on every ' +
    '`/ext/index/*` route `getLastAccepted` and `getContainerRange` → -32000 `no containers have ' +
    'been accepted`, `getContainerByIndex` → `no container at index N`, ' +
    '`getIndex`/`getContainerByID` → `not found`, `isAccepted` → `false` (indexer/index.go)',
  index: 'empty',
});
