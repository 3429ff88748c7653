// One simulated node inside the simulator process: its model, its health checks and their
// schedule since its last (re)start ("not yet run" until the first run), its garbage counter.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
import { HealthChecker } from './health-checks.js';
import type { NodeModel } from './node-model.js';
import type { TimerRegistry } from './timer-registry.js';

export class SimInstance {
  readonly health: HealthChecker;
  /** rotation of the 'garbage' scenario's corruptions */
  garbageCounter = 0;
  private pending = true;
  private schedule: NodeJS.Timeout[] = [];

  constructor(
    readonly index: number,
    readonly model: NodeModel,
    private readonly timers: TimerRegistry,
    private readonly healthIntervalMs: number,
  ) {
    this.health = new HealthChecker(model);
  }

  /** true from a (re)start until the first health run: every check is "not yet run" */
  get healthPending(): boolean {
    return this.pending;
  }

  /**
   * A (re)start of this node's process: every check "not yet run" until the first run
   * `firstRunMs` later, then one run every healthIntervalMs (avalanchego's health worker runs its
   * checks every --health-check-frequency; a fresh process has no result yet).
   */
  startHealth(firstRunMs: number): void {
    for (const t of this.schedule) this.timers.clear(t);
    this.schedule = [];
    this.health.reset();
    this.pending = true;
    const first = this.timers.timeout(() => {
      this.pending = false;
      this.health.run();
      this.schedule.push(this.timers.interval(() => this.health.run(), this.healthIntervalMs));
    }, firstRunMs);
    this.schedule.push(first);
  }
}
