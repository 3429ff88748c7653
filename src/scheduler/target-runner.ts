import type { Logger } from 'pino';
import type { Collector } from '../collectors/define.js';
import type { ResolvedTarget } from '../config/targets.js';
import type { CallTransport } from '../node-client/call.js';
import type { RpcResult } from '../node-client/errors.js';
import { Redactor } from '../redact.js';
import { freezeSnapshot, type NodeIdentification, type TargetSnapshot } from '../snapshot.js';
import { contextFor, type ContextEnv } from './collector-context.js';
import { makeSlot, markUnreachable, outcomeOf, reportChange, runSlot, type Slot } from './collector-slot.js';
import type { NetworkAnswers } from './network-answers.js';
import { assignPhases } from './phases.js';
import { RpcStats } from './rpc-stats.js';

/** The node client as the runner uses it. */
export interface RunnerClient extends CallTransport {
  close(): Promise<void>;
  /** True once after every connection to the node was closed by it (a restart, most likely). */
  takeRestartHint?(): boolean;
}

export type OnRequest = (method: string, result: RpcResult, seconds: number) => void;

export interface RunnerOptions {
  collectors: readonly Collector[];
  /** Option values per collector (defaults filled in). */
  options: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  baseIntervalSeconds: number;
  collectorTimeoutSeconds: number;
  /** Makes the target's node client; every request reports to `onRequest`. */
  client: (target: ResolvedTarget, onRequest: OnRequest) => RunnerClient;
  /**
   * Cycles this target's phases are shifted by (its place in the fleet; 0 for a single target): the
   * slow collectors of a fleet's targets then take turns instead of all landing on the same cycle (100
   * targets fetching a 1 MB /ext/metrics in one cycle held ~100 MB of answers at once). A pure shift in
   * time: each target's own requests per cycle are those of an unshifted target, moved.
   */
  phaseOffset?: number;
  /** Network-scoped answers shared with the other targets (none: every target asks its own node). */
  answers?: NetworkAnswers;
  logger: Logger;
  now?: () => number;
}

/**
 * Runs the collectors of one target. A cycle runs the collectors that are due, concurrently, in waves
 * (a collector runs after those it `reads`; after those it reads the latest value of while they have
 * none yet; network-scoped callers after the collector that names the network, while unknown), each
 * under its own deadline; a failure of one never touches the others. Every cycle ends with a new
 * immutable TargetSnapshot.
 *
 * Cadence: start-up runs every collector once; after that each collector runs on its phase, never
 * sooner than a full interval after its previous run. Three rules keep the published values honest:
 * - unreachable: a cycle whose requests got no answer at all (connection refused or reset, DNS, every
 *   call timing out; avax_up 0) drops every collector's samples and marks every collector failing;
 *   what stays is avax_up 0, the collector status, the request counters and the skipped-tick counter;
 * - recovery: the first cycle in which the node answers again runs every collector, as at start-up;
 * - restart: a node that restarted between two cycles (its process mark changed: node-info's version,
 *   node-metrics' process start time; every connection closed by the node makes those run at once)
 *   gets every collector run again in that cycle, so that nothing it said before the restart stays.
 */
export class TargetRunner {
  readonly name: string;
  readonly client: RunnerClient;
  readonly rpc = new RpcStats();
  private readonly slots: Slot[];
  private readonly byName: ReadonlyMap<string, Slot>;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly env: ContextEnv;
  private readonly redactor: Redactor;
  private tick = 0;
  private validAnswers = 0;
  private requestsThisCycle = 0;
  private up: 0 | 1 | undefined;
  private restarted = false;
  private skippedTicks = 0;
  private latest: TargetSnapshot;
  cycles = 0;

  constructor(readonly target: ResolvedTarget, private readonly opts: RunnerOptions) {
    this.name = target.spec.name;
    this.now = opts.now ?? Date.now;
    this.log = opts.logger.child({ target: this.name });
    this.redactor = new Redactor(target.url, target.headers);
    this.client = opts.client(target, (method, result, seconds) => {
      this.rpc.record(method, result, seconds);
      this.requestsThisCycle++;
      if (result === 'ok' || result === 'rpc_error' || result === 'normal_state') this.validAnswers++;
    });
    const known = new Map(opts.collectors.map((c) => [c.name, c]));
    this.slots = target.collectors
      .filter((p) => p.enabled && known.has(p.name))
      .map((plan) => makeSlot(known.get(plan.name)!, plan, opts.options.get(plan.name) ?? {}, opts.baseIntervalSeconds, this.log))
      .filter((s) => !(s.collector.nodeSpecific && target.spec.reference));
    this.byName = new Map(this.slots.map((s) => [s.plan.name, s]));
    for (const s of this.slots) s.weight = s.collector.requestsPerRun(target.spec, s.options);
    assignPhases(this.slots.map((s) => ({ slot: s, weight: s.weight })));
    this.env = {
      target: target.spec,
      client: this.client,
      now: this.now,
      valueOf: (name) => this.byName.get(name)?.value,
      network: () => this.network(),
      answers: opts.answers,
    };
    this.latest = this.buildSnapshot();
  }

  /** The snapshot of the last finished cycle (an empty one before the first). */
  snapshot(): TargetSnapshot {
    return this.latest;
  }

  /** Runs one cycle and returns its snapshot; never throws. */
  async runCycle(shutdown?: AbortSignal): Promise<TargetSnapshot> {
    const t = this.tick;
    const wasDown = this.up === 0;
    const hinted = t > 0 && this.client.takeRestartHint?.() === true;
    const shifted = t + (this.opts.phaseOffset ?? 0);
    const due = this.slots.filter((s) => t === 0 || (shifted % s.every === s.phase && t - s.lastRunTick >= s.every) || (hinted && s.collector.identifies));
    if (hinted) this.log.debug({ event: 'restart_hint' }, 'every connection was closed by the node: checking whether it restarted');
    this.tick++;
    this.validAnswers = 0;
    this.requestsThisCycle = 0;
    this.restarted = false;
    await this.runInOrder(due, t, shutdown, t === 0);
    if (shutdown?.aborted) return this.latest; // a cycle cut by shutdown publishes nothing
    const answered = this.requestsThisCycle === 0 || this.validAnswers > 0;
    if (t > 0 && answered && (this.restarted || (wasDown && this.requestsThisCycle > 0))) {
      // Every collector again, those that ran in this cycle too: what they kept about the node's
      // previous process (ctx.refresh) is asked again.
      if (this.restarted && !wasDown) this.log.info({ event: 'node_restarted' }, 'the node restarted since the last cycle: every collector runs again');
      await this.runInOrder(this.slots, t, shutdown, true);
      if (shutdown?.aborted) return this.latest;
    }
    if (this.requestsThisCycle > 0) {
      const up = this.validAnswers > 0 ? 1 : 0;
      if (up !== this.up) {
        if (up === 1) this.log.info({ event: 'target_up', recovered: wasDown }, wasDown ? 'node answers again: every collector ran in this cycle' : 'node answers');
        else this.log.warn({ event: 'target_down' }, "no answer from the node in this cycle: the target's node-derived series are dropped until it answers again");
      }
      this.up = up;
      if (up === 0) for (const s of this.slots) markUnreachable(s, t);
    }
    for (const s of this.slots) if (s.lastRunTick === t || s.lastErrorKind === 'unreachable') reportChange(s);
    this.cycles++;
    this.rephase();
    this.latest = this.buildSnapshot();
    return this.latest;
  }

  /**
   * The declared requests per run are estimates (an L1 found by itself adds requests to several
   * collectors); once a collector has run, the phases are spread again with what it really sends, so
   * that no cycle bursts (bench row 4). A collector still waits a full interval after its last run.
   */
  private rephase(): void {
    let changed = false;
    for (const s of this.slots) {
      if (!s.ran || s.lastErrorKind === 'unreachable') continue;
      const w = Math.max(s.collector.requestsPerRun(this.target.spec, s.options), s.requestsLastRun);
      if (w !== s.weight) {
        s.weight = w;
        changed = true;
      }
    }
    if (changed) assignPhases(this.slots.map((s) => ({ slot: s, weight: s.weight })));
  }

  /** The network the node belongs to, from the collectors that identify it (undefined while unknown). */
  private network(): string | undefined {
    for (const s of this.slots) {
      const n = s.value !== undefined ? s.collector.identifies?.(s.value)?.network : undefined;
      if (n !== undefined) return n;
    }
    return undefined;
  }

  /** The collectors a slot waits for when they run in the same batch. */
  private waitsFor(s: Slot): string[] {
    const c = s.collector;
    const out = [...c.reads];
    // A latest value that does not exist yet (start-up) is waited for, once.
    for (const n of c.readsLatest) if (!this.byName.get(n)?.ran) out.push(n);
    // Network-scoped answers are shared per network: wait until it is known.
    if (c.calls.some((k) => k.scope === 'network') && this.network() === undefined) {
      for (const o of this.slots) if (o !== s && o.collector.identifies && !o.ran) out.push(o.plan.name);
    }
    return out;
  }

  /**
   * Runs the slots concurrently, except that a slot waits for those it waits for (waitsFor) when they
   * are in `slots` too: waves, first those that wait for nobody here, then the next. A wave whose
   * requests got no answer at all ends the cycle: the node is down (or hangs), and the next waves would
   * only wait for their own deadlines before being marked unreachable anyway.
   */
  private async runInOrder(slots: readonly Slot[], tick: number, shutdown?: AbortSignal, refresh = false): Promise<void> {
    let left = [...slots];
    while (left.length > 0) {
      const names = new Set<string>(left.map((s) => s.plan.name));
      let wave = left.filter((s) => !this.waitsFor(s).some((n) => names.has(n)));
      if (wave.length === 0) wave = left; // a cycle in the declarations: run them together
      await Promise.all(wave.map((s) => this.runOne(s, tick, shutdown, refresh)));
      if (shutdown?.aborted) return;
      if (this.requestsThisCycle > 0 && this.validAnswers === 0) return;
      left = left.filter((s) => !wave.includes(s));
    }
  }

  private async runOne(slot: Slot, tick: number, shutdown: AbortSignal | undefined, refresh: boolean): Promise<void> {
    const done = await runSlot(slot, (signal) => contextFor(slot, this.env, signal, refresh), {
      timeoutMs: this.opts.collectorTimeoutSeconds * 1000,
      tick,
      nowSeconds: () => this.now() / 1000,
      scrub: (text) => this.redactor.scrub(text),
      shutdown,
    });
    if (!done || slot.value === undefined) return;
    const marks = slot.collector.identifies?.(slot.value);
    if (!marks) return;
    if (marks.process !== undefined) {
      if (slot.processMark !== undefined && slot.processMark !== marks.process) this.restarted = true;
      slot.processMark = marks.process;
    }
    if (marks.started !== undefined) {
      if (marks.started && slot.started === false) this.restarted = true;
      slot.started = marks.started;
    }
  }

  private buildSnapshot(): TargetSnapshot {
    const collectors = this.target.collectors.map((p) => outcomeOf(p, this.byName.get(p.name)));
    return freezeSnapshot({ target: this.target.spec, node: this.identification(), at: this.now(), up: this.up, collectors, requests: this.rpc.snapshot(), skippedTicks: this.skippedTicks });
  }

  /** Who the node says it is: the NodeID and version the current values of its identifying collectors give. */
  private identification(): NodeIdentification {
    let nodeId: string | undefined;
    let version: string | undefined;
    for (const s of this.slots) {
      const marks = s.value !== undefined ? s.collector.identifies?.(s.value) : undefined;
      nodeId ??= marks?.nodeId;
      version ??= marks?.version;
    }
    return { nodeId, version };
  }

  /**
   * The scheduler found this target's previous cycle still running at a tick and skipped it: counted
   * in avax_collection_skipped_ticks_total, published with the snapshot of the cycle that ran over.
   */
  noteSkippedTick(): void {
    this.skippedTicks++;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
