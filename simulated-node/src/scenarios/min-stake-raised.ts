// The `min-stake-raised` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { NAVAX } from '../mainnet-constants.js';
import { defineScenario } from './scenario.js';

export const minStakeRaised = defineScenario({
  name: 'min-stake-raised',
  help: 'getMinStake minValidatorStake above the own validator stake',
  effect:
    '`getMinStake` `minValidatorStake` = own stake rounded down to 1,000 AVAX + 2,000 AVAX (above' +
    ' it); `minDelegatorStake` unchanged',
  platform: {
    minValidatorStake: (own) => (own / (1000n * NAVAX) + 2n) * 1000n * NAVAX,
  },
});
