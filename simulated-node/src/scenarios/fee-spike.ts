// The `fee-spike` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const feeSpike = defineScenario({
  name: 'fee-spike',
  help: 'getFeeState congested: gas excess 12,000,000, capacity 120,000, price 256 nAVAX',
  effect:
    '`getFeeState` `{"capacity":120000,"excess":12000000,"price":256,…}` (healthy: ' +
    '`{"capacity":1000000,"excess":0,"price":1,…}`)',
  platform: { feeState: { capacity: 120000, excess: 12000000, price: 256 } },
});
