// The JSON-RPC health API of the simulated node (POST /ext/health: health.health, readiness, liveness).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type { SimInstance } from './node-instance.js';
import type { Args, Service } from './json-rpc-envelope.js';

export function healthService(h: Pick<SimInstance, 'healthReport' | 'readiness' | 'liveness'>): Service {
  return {
    Health: (a: Args) => h.healthReport(a.strings('tags')),
    Readiness: () => h.readiness(),
    Liveness: () => h.liveness(),
  };
}
