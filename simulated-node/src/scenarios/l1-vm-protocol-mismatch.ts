// The `l1-vm-protocol-mismatch` scenario of the simulated node: its help line, its README row and the hooks it
// sets (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const l1VmProtocolMismatch = defineScenario({
  name: 'l1-vm-protocol-mismatch',
  help: "the L1 chain's VM plugin implements the previous RPCChainVM protocol: still in info.getVMs, status Created, chain check failing (handshake failed: protocol version mismatch)",
  effect:
    "the L1's VM plugin implements the RPCChainVM protocol before the node's (44 on v1.14.2): it stays in " +
    '`info.getVMs`, but the chain failed to build: status `Created`, `isBootstrapped` unknown chain, and its ' +
    'health check (tagged with the subnet) fails `failed to create chain on subnet <subnet>: error while creating ' +
    'vm: handshake failed: RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin. ' +
    'AvalancheGo version v1.14.2 implements RPCChainVM protocol version 45. The VM located at <plugin-dir>/<vm> ' +
    'implements RPCChainVM protocol version 44. …` (vms/rpcchainvm/runtime/subprocess/initializer.go)',
  l1: { chain: 'vm-protocol-mismatch' },
});
