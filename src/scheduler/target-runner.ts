import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { deadline } from '../abort.js';
import type { Collector, CollectorContext, TargetSpec } from '../collectors/define.js';
import type { Sample } from '../metrics/model.js';
import { NodeClient } from '../node-client/client.js';
import { NodeClientError } from '../node-client/errors.js';
import { scrubSecrets } from '../redact.js';
import { freezeSnapshot, type CollectorOutcome, type TargetSnapshot } from '../snapshot.js';
import { assignPhases } from './phases.js';
import { RpcStats } from './rpc-stats.js';

/** One collector of one target as the configuration resolved it. */
export interface CollectorPlan {
  readonly name: string;
  readonly enabled: boolean;
  readonly intervalSeconds: number;
}

/** A target as the configuration resolved it (config/targets.ts). */
export interface ResolvedTarget {
  readonly spec: TargetSpec;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly collectors: readonly CollectorPlan[];
}

export interface RunnerOptions {
  collectors: readonly Collector[];
  /** Option values per collector (defaults filled in). */
  options: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  baseIntervalSeconds: number;
  collectorTimeoutSeconds: number;
  node: { timeoutSeconds: number; maxResponseBytes: number; connections: number; dispatcher?: Dispatcher };
  logger: Logger;
  now?: () => number;
}

interface Slot {
  readonly collector: Collector;
  readonly plan: CollectorPlan;
  readonly options: Readonly<Record<string, unknown>>;
  readonly every: number;
  /** Runs at ticks t with t % every === phase (and at tick 0, start-up, always). */
  phase: number;
  /** Tick of the last run (start-up and recovery runs included); a phased run waits a full interval after it. */
  lastRunTick: number;
  readonly state: Map<string, unknown>;
  readonly log: Logger;
  ran: boolean;
  success: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
  /** lastSuccessSeconds before this cycle's run: restored when the cycle turns out to have no answer. */
  previousSuccessSeconds?: number;
  samples: readonly Sample[];
  value: unknown;
  errors: readonly string[];
  lastErrorKind?: string;
}

/**
 * Runs the collectors of one target. A cycle runs the collectors that are due, concurrently (a
 * collector that reads another runs after it), each under its own deadline; a failure of one never
 * touches the others. Every cycle ends with a new immutable TargetSnapshot (`snapshot()`).
 */
export class TargetRunner {
  readonly name: string;
  readonly client: NodeClient;
  readonly rpc = new RpcStats();
  private readonly slots: Slot[];
  private readonly byName: ReadonlyMap<string, Slot>;
  private readonly now: () => number;
  private readonly log: Logger;
  private tick = 0;
  private validAnswers = 0;
  private requestsThisCycle = 0;
  private up: 0 | 1 | undefined;
  private latest: TargetSnapshot;
  cycles = 0;

  constructor(readonly target: ResolvedTarget, private readonly opts: RunnerOptions) {
    this.name = target.spec.name;
    this.now = opts.now ?? Date.now;
    this.log = opts.logger.child({ target: this.name });
    this.client = new NodeClient({
      url: target.url,
      headers: { ...target.headers },
      timeoutMs: opts.node.timeoutSeconds * 1000,
      maxResponseBytes: opts.node.maxResponseBytes,
      connections: opts.node.connections,
      dispatcher: opts.node.dispatcher,
      onRequest: (method, result, seconds) => {
        this.rpc.record(method, result, seconds);
        this.requestsThisCycle++;
        if (result === 'ok' || result === 'rpc_error' || result === 'normal_state') this.validAnswers++;
      },
    });
    const known = new Map(opts.collectors.map((c) => [c.name, c]));
    this.slots = target.collectors
      .filter((p) => p.enabled && known.has(p.name))
      .map((plan): Slot => {
        const collector = known.get(plan.name)!;
        return {
          collector,
          plan,
          options: opts.options.get(plan.name) ?? {},
          every: Math.max(1, Math.round(plan.intervalSeconds / opts.baseIntervalSeconds)),
          phase: 0,
          lastRunTick: 0,
          state: new Map(),
          log: this.log.child({ collector: plan.name }),
          ran: false,
          success: false,
          durationSeconds: 0,
          samples: [],
          value: undefined,
          errors: [],
        };
      })
      .filter((s) => !(s.collector.nodeSpecific && target.spec.reference));
    this.byName = new Map(this.slots.map((s) => [s.plan.name, s]));
    assignPhases(this.slots.map((s) => ({ slot: s, weight: s.collector.requestsPerRun(target.spec, s.options) })));
    this.latest = this.buildSnapshot();
  }

  /** The snapshot of the last finished cycle (an empty one before the first). */
  snapshot(): TargetSnapshot {
    return this.latest;
  }

  /**
   * Runs one cycle and returns its snapshot; never throws.
   *
   * Start-up runs every collector once; after that each collector runs on its phase, never sooner
   * than a full interval after its previous run. Two rules keep the published values honest:
   * - unreachable: a cycle whose requests got no answer at all (connection refused or reset, DNS,
   *   every call timing out; avax_up 0) drops every collector's samples, whether or not it ran in
   *   this cycle, and marks every collector failing; what stays is avax_up 0, the collector status
   *   and the request counters (no derived series either);
   * - recovery: the first cycle in which the node answers again runs every collector, as at
   *   start-up, so that no series stays absent until a long interval comes round.
   */
  async runCycle(shutdown?: AbortSignal): Promise<TargetSnapshot> {
    const t = this.tick;
    const wasDown = this.up === 0;
    const due = this.slots.filter((s) => t === 0 || (t % s.every === s.phase && t - s.lastRunTick >= s.every));
    this.tick++;
    this.validAnswers = 0;
    this.requestsThisCycle = 0;
    await this.runInOrder(due, t, shutdown);
    if (shutdown?.aborted) return this.latest; // a cycle cut by shutdown publishes nothing
    if (this.requestsThisCycle > 0) {
      const up = this.validAnswers > 0 ? 1 : 0;
      if (up === 1 && wasDown) {
        await this.runInOrder(this.slots.filter((s) => !due.includes(s)), t, shutdown);
        if (shutdown?.aborted) return this.latest;
      }
      if (up !== this.up) {
        if (up === 1) this.log.info({ event: 'target_up', recovered: wasDown }, wasDown ? 'node answers again: every collector ran in this cycle' : 'node answers');
        else this.log.warn({ event: 'target_down' }, "no answer from the node in this cycle: the target's node-derived series are dropped until it answers again");
      }
      this.up = up;
      if (up === 0) this.dropNodeData(t);
    }
    this.cycles++;
    this.latest = this.buildSnapshot();
    return this.latest;
  }

  /**
   * Runs the slots concurrently, except that a collector waits for the collectors it reads when they
   * are in `slots` too (waves: first those that wait for nobody here, then the next).
   */
  private async runInOrder(slots: readonly Slot[], tick: number, shutdown?: AbortSignal): Promise<void> {
    let left = [...slots];
    while (left.length > 0) {
      const names = new Set<string>(left.map((s) => s.plan.name));
      let wave = left.filter((s) => !s.collector.reads.some((n) => names.has(n)));
      if (wave.length === 0) wave = left; // a cycle in the declarations: run them together
      await Promise.all(wave.map((s) => this.runOne(s, tick, shutdown)));
      if (shutdown?.aborted) return;
      left = left.filter((s) => !wave.includes(s));
    }
  }

  /**
   * The node did not answer: nothing it told us before is current any more, so no collector's
   * samples are published. Values stay (the last known identity, validator set, …: collectors such as
   * platform-validators keep asking for the same IDs while the node is away), but nothing derived from
   * them is published for a target that does not answer (metrics/target-samples.ts, src/derive).
   */
  private dropNodeData(tick: number): void {
    for (const s of this.slots) {
      s.samples = [];
      if (s.success && s.ran) {
        // A run of this cycle that "succeeded" without an answer (nothing to ask: platform-validators
        // without the node's ID) is no success: its timestamp goes back to the last real one.
        if (s.lastRunTick === tick) s.lastSuccessSeconds = s.previousSuccessSeconds;
        s.success = false;
        s.lastErrorKind = 'unreachable';
        s.errors = ['not current: the node did not answer in the last cycle'];
      }
    }
  }

  private context(slot: Slot, signal: AbortSignal): CollectorContext {
    const reads = new Set(slot.collector.reads);
    // readsLatest: the values as they are when this run starts (the other collector's last finished
    // run; one running in the same wave has not finished yet), so that the result does not depend on
    // which of the two answers first.
    const latest = new Map(slot.collector.readsLatest.map((n) => [n, this.byName.get(n)?.value]));
    return {
      target: this.target.spec,
      options: slot.options as CollectorContext['options'],
      client: this.client,
      signal,
      now: this.now,
      read: ((name: string) => {
        if (latest.has(name)) return latest.get(name);
        if (!reads.has(name)) throw new Error(`collector ${slot.plan.name} reads ${name} without declaring it in 'reads' or 'readsLatest'`);
        return this.byName.get(name)?.value;
      }) as CollectorContext['read'],
      previous: slot.value,
      state: slot.state,
      log: slot.log,
    };
  }

  private async runOne(slot: Slot, tick: number, shutdown?: AbortSignal): Promise<void> {
    const started = performance.now();
    const timeoutMs = this.opts.collectorTimeoutSeconds * 1000;
    const limit = deadline(timeoutMs, shutdown);
    let samples: readonly Sample[] = [];
    let errors: readonly Error[] = [];
    let value: unknown;
    let timer: NodeJS.Timeout | undefined;
    try {
      // The race guards against a collector that ignores its signal: the cycle always ends.
      const guard = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`collector did not finish within ${timeoutMs} ms`)), timeoutMs + 1000);
      });
      const res = await Promise.race([slot.collector.collect(this.context(slot, limit.signal)), guard]);
      samples = res.samples;
      errors = res.errors;
      value = res.value;
    } catch (err) {
      errors = [err instanceof Error ? err : new Error(String(err))];
    } finally {
      clearTimeout(timer);
      limit.dispose();
    }
    if (shutdown?.aborted) return;
    const firstRun = !slot.ran;
    slot.ran = true;
    slot.lastRunTick = tick;
    slot.durationSeconds = (performance.now() - started) / 1000;
    slot.samples = samples;
    slot.value = value;
    const success = errors.length === 0;
    slot.previousSuccessSeconds = slot.lastSuccessSeconds;
    if (success) slot.lastSuccessSeconds = this.now() / 1000;
    const first = errors[0];
    const kind = first ? (first instanceof NodeClientError ? `${first.result}:${first.method}` : first.name) : undefined;
    // A collector marked failing because the node was unreachable (logged once, as target_down) does
    // not log again when it then fails on its own run for the same reason.
    const changed = firstRun ? !success : success !== slot.success || (!success && kind !== slot.lastErrorKind && slot.lastErrorKind !== 'unreachable');
    slot.errors = errors.map((e) => this.scrub(e.message));
    if (changed) {
      if (success) slot.log.info({ event: 'collector_recovered' }, 'collector succeeds again');
      else {
        const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
        slot.log.warn({ event: 'collector_failed', err: `${slot.errors[0]}${more}`, result: first instanceof NodeClientError ? first.result : 'error' }, 'collector failed');
      }
    }
    slot.success = success;
    slot.lastErrorKind = kind;
  }

  private scrub(text: string): string {
    return scrubSecrets(text, this.target.url, this.target.headers);
  }

  private buildSnapshot(): TargetSnapshot {
    const collectors = this.target.collectors.map((p): CollectorOutcome => {
      const s = this.byName.get(p.name);
      return {
        name: p.name,
        enabled: !!s,
        intervalSeconds: p.intervalSeconds,
        ran: s?.ran ?? false,
        success: s?.success ?? false,
        durationSeconds: s?.durationSeconds ?? 0,
        lastSuccessSeconds: s?.lastSuccessSeconds,
        errors: s?.errors ?? [],
        value: s?.value,
        samples: s?.samples ?? [],
      };
    });
    return freezeSnapshot({ target: this.target.spec, at: this.now(), up: this.up, collectors, requests: this.rpc.samples() });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
