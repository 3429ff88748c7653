// The simulated node's free disk space (the `diskspace` health check, /ext/metrics): 55 % of a seeded
// 2-3 TB disk used at the start, growing 150 MB an hour, and faster in a scenario that fills it
// (hook `node.diskFillPerHour`, share of the disk per hour since the switch).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type { ScenarioModel } from './scenarios/scenario.js';

/** What the disk needs of the node model (NodeModel satisfies it structurally). */
export interface DiskModel extends ScenarioModel {
  /** start of the simulation (ms) */
  readonly t0: number;
  /** bytes */
  readonly diskTotal: number;
}

export function availableDisk(m: DiskModel): { bytes: number; percent: number } {
  const hours = (m.now() - m.t0) / 3_600_000;
  const filling = (m.active.node?.diskFillPerHour ?? 0) * Math.max(0, (m.now() - m.scenarioSinceMs) / 3_600_000) * m.diskTotal;
  const used = 0.55 * m.diskTotal + hours * 150_000_000 + filling;
  const avail = Math.max(0, Math.floor(m.diskTotal - used));
  return { bytes: avail, percent: Math.floor((avail * 100) / m.diskTotal) };
}
