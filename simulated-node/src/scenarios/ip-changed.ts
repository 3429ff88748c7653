// The `ip-changed` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { defineScenario } from './scenario.js';

export const ipChanged = defineScenario({
  name: 'ip-changed',
  help: 'info.getNodeIP advertises another address (203.0.113.x, same port)',
  effect: '`info.getNodeIP` → `203.0.113.<n>:9651` instead of `198.51.100.<n>:9651`',
  info: {
    nodeIp: (seeded) => {
      const host = seeded.slice(0, seeded.lastIndexOf(':'));
      const port = seeded.slice(seeded.lastIndexOf(':') + 1);
      return `203.0.113.${Number(host.slice(host.lastIndexOf('.') + 1))}:${port}`;
    },
  },
});
