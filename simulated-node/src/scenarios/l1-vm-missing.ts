// The `l1-vm-missing` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1VmMissing = defineScenario({
  name: 'l1-vm-missing',
  help: "the L1 chain's VM plugin is not installed: absent from info.getVMs, status Created, chain check failing (failed to create chain)",
  effect:
    'the L1\'s VM plugin is absent from `info.getVMs`; the chain failed to build: status ' +
    '`Created`, `isBootstrapped` unknown chain, and its health check (tagged with the subnet) ' +
    'fails `failed to create chain on subnet <subnet>: error while getting vmFactory: "<vm>" was ' +
    'not registered as a vm` (chains/manager.go registers it "regardless of if it was created")',
  l1: { chain: 'vm-missing' },
});
