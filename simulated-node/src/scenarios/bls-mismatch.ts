// The `bls-mismatch` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const blsMismatch = defineScenario({
  name: 'bls-mismatch',
  help: 'info.getNodeID BLS key differs from the registered signer; bls check failing',
  effect:
    '`info.getNodeID` `nodePOP` = another key pair (re-keyed node); the P-chain ' +
    '`signer.publicKey` (and L1 `publicKey`) stay the registered key; `bls` fails `node has BLS ' +
    'key 0x<local>, but is registered to the validator set with 0x<registered>` (no message)',
  node: { blsKey: 'rekeyed' },
});
