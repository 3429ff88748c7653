// One simulated node inside the simulator process: its model, its health checks and their
// schedule since its last (re)start ("not yet run" until the first run), its garbage counter.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { HealthChecker, type HealthReport } from './health-checks.js';
import type { NodeModel } from './node-model.js';

/**
 * The health worker of one node, on the SIMULATOR'S clock (model.now()): avalanchego runs its checks
 * every --health-check-frequency in the background; here the runs that fell due since the last look
 * are made when someone looks (a request, /sim/state, a scenario switch). No wall-clock timer is
 * involved, so with an injected clock the answers depend on that clock alone (a timer firing between
 * two requests of a test used to read the heights at whatever the injected clock said then: issue 25).
 */
export class SimInstance {
  private readonly health: HealthChecker;
  /** rotation of the 'garbage' scenario's corruptions */
  garbageCounter = 0;
  private pending = true;
  /** When the next health run falls due (simulator clock, ms); undefined before the first start. */
  private nextRunAtMs: number | undefined;
  /** When the last run was stamped (simulator clock, ms). */
  private lastRunAtMs = -Infinity;
  /** whether the process started once already (a later start is a restart during the run) */
  private started = false;

  constructor(
    readonly index: number,
    readonly model: NodeModel,
    private readonly healthIntervalMs: number,
  ) {
    this.health = new HealthChecker(model);
  }

  /** true from a (re)start until the first health run: every check is "not yet run" */
  get healthPending(): boolean {
    this.catchUp();
    return this.pending;
  }

  /**
   * A (re)start of this node's process: every check "not yet run" until the first run
   * `firstRunMs` later, then one run every healthIntervalMs (avalanchego's health worker runs its
   * checks every --health-check-frequency; a fresh process has no result yet).
   */
  startHealth(firstRunMs: number): void {
    // The first start is the node's own, long before the run began (the simulated node has been up for
    // a while); every later one is a restart during the run.
    if (this.started) this.model.processRestarts++;
    this.started = true;
    this.model.processStartMs = this.model.now();
    this.health.reset();
    this.pending = true;
    this.lastRunAtMs = -Infinity;
    this.nextRunAtMs = this.model.now() + firstRunMs;
  }

  /** Runs the checks now (a scenario switch makes its effect visible without waiting a whole period). */
  rerunHealth(): void {
    this.catchUp();
    if (!this.pending) this.stamp(1, this.model.now(), this.model.now());
  }

  /** GET /ext/health, health.health: the report of the last run. */
  healthReport(tags: string[]): HealthReport {
    this.catchUp();
    return this.health.health(tags);
  }

  readiness(): HealthReport {
    this.catchUp();
    return this.health.readiness();
  }

  liveness(): HealthReport {
    return this.health.liveness();
  }

  /**
   * The runs due by now: one run stands for all of them (the model's state is that of now; the
   * failure counters count every due run), stamped with the time of the last one. A clock set back
   * before the last run (a test going back in time) starts the schedule over from now.
   */
  private catchUp(): void {
    const at = this.nextRunAtMs;
    if (at === undefined) return;
    const now = this.model.now();
    if (!this.pending && now < this.lastRunAtMs) {
      this.stamp(1, now, now);
      return;
    }
    if (now < at) return;
    const due = Math.floor((now - at) / this.healthIntervalMs) + 1;
    this.stamp(due, at, at + (due - 1) * this.healthIntervalMs);
  }

  private stamp(count: number, firstAtMs: number, lastAtMs: number): void {
    this.pending = false;
    this.health.run(count, lastAtMs, firstAtMs);
    this.lastRunAtMs = lastAtMs;
    this.nextRunAtMs = lastAtMs + this.healthIntervalMs;
  }
}
