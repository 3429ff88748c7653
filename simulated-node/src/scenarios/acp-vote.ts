// The `acp-vote` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const acpVote = defineScenario({
  name: 'acp-vote',
  help: 'CurrentACPs {236,247}: ~60% of the stake supports 247, ~15% objects to 236; own stance +247 -236',
  effect:
    'CurrentACPs {236, 247}: validators at the bottom 60 % of the stake order support 247 (the ' +
    'bottom 10 % also 236), those in [60 %, 75 %) object to 236; other peers keep a seeded ' +
    'stance. `info.acps` like avalanchego\'s `Info.Acps`: per ACP, supporters/objectors = ' +
    'connected peers with primary weight > 0 (weight = own + delegations, as `getValidatorsAt`), ' +
    'sorted NodeID arrays (`[]` when empty), decimal-string weights, `abstainWeight` = total − ' +
    'support − object; the node itself never counted. Own announced stance (seen by siblings that' +
    ' are in `acp-vote` too): supported `[247]`, objected `[236]`',
  node: { acps: { current: [236, 247], supported: [247], objected: [236] } },
  peers: {
    acpStance: (pos) => ({
      supported: pos < 0.1 ? [236, 247] : pos < 0.6 ? [247] : [],
      objected: pos >= 0.6 && pos < 0.75 ? [236] : [],
    }),
  },
});
