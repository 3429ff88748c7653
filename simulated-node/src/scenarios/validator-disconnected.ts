// The `validator-disconnected` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const validatorDisconnected = defineScenario({
  name: 'validator-disconnected',
  help: 'own validator shows connected:false, network check failing (no inbound connections)',
  effect:
    'own validator entry `connected:false` (see the comment in `validator-registry.ts`); network ' +
    'check fails `primary network validator has no inbound connections`',
  peers: { inbound: false },
  validators: { ownConnected: false },
  // The peers' view of its uptime decays by 2 points an hour since the switch (at most 30).
  observedUptime: (n, p) => {
    const hours = (n.now() - n.scenarioSinceMs) / 3_600_000;
    return 96 + p.r * 4 - Math.min(30, hours * 2) + p.drift;
  },
});
