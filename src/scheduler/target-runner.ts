import { derivedSamples } from '../collectors/derived.js';
import type { Logger } from 'pino';
import type { Collector, CollectorContext, CollectorSettings, TargetMemo } from '../collectors/types.js';
import type { CollectorPlan, ResolvedTarget } from '../config/resolve.js';
import type { Sample } from '../metrics/model.js';
import { NodeClient } from '../node-client/client.js';
import { NodeClientError } from '../node-client/errors.js';
import { scrubSecrets } from '../redact.js';
import { RpcStats } from './rpc-stats.js';
import { deadline } from '../abort.js';

export interface RunnerOptions {
  collectors: readonly Collector[];
  settings: CollectorSettings;
  baseIntervalSeconds: number;
  collectorTimeoutSeconds: number;
  node: { timeoutSeconds: number; maxResponseBytes: number; connections: number };
  logger: Logger;
  now?: () => number;
}

interface CollectorSlot {
  readonly collector: Collector;
  readonly plan: CollectorPlan;
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
  samples: readonly Sample[];
  lastErrorKind?: string;
}

export interface CollectorStatus {
  name: string;
  enabled: boolean;
  intervalSeconds: number;
  ran: boolean;
  success: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
  lastError?: string;
}

/**
 * Runs the collectors of one target. A cycle runs the collectors that are due, concurrently, each
 * under its own deadline; a failure of one never touches the others' samples. After the cycle the
 * runner's `samples()` is the target's complete, consistent state.
 */
export class TargetRunner {
  readonly name: string;
  readonly client: NodeClient;
  readonly rpc = new RpcStats();
  private readonly slots: CollectorSlot[];
  private readonly memo: TargetMemo = {};
  private readonly now: () => number;
  private readonly log: Logger;
  private tick = 0;
  private validAnswers = 0;
  private requestsThisCycle = 0;
  private up: number | undefined;
  private lastErrors = new Map<string, string>();
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
      onRequest: (method, result, seconds) => {
        this.rpc.record(method, result, seconds);
        this.requestsThisCycle++;
        if (result === 'ok' || result === 'rpc_error' || result === 'normal_state') this.validAnswers++;
      },
    });
    const byName = new Map(opts.collectors.map((c) => [c.name, c]));
    this.slots = target.collectors
      .filter((p) => p.enabled && byName.has(p.name))
      .map((plan) => {
        const collector = byName.get(plan.name)!;
        return {
          collector,
          plan,
          every: Math.max(1, Math.round(plan.intervalSeconds / opts.baseIntervalSeconds)),
          phase: 0,
          lastRunTick: 0,
          state: new Map(),
          log: this.log.child({ collector: plan.name }),
          ran: false,
          success: false,
          durationSeconds: 0,
          samples: [],
        };
      })
      .filter((s) => !(s.collector.nodeSpecific && target.spec.reference));
    assignPhases(this.slots.map((s) => ({ slot: s, weight: s.collector.requestsPerRun?.(target.spec, opts.settings) ?? 1 })));
  }

  /**
   * Runs one cycle; never throws.
   *
   * Start-up runs every collector once; after that each collector runs on its phase, never sooner
   * than a full interval after its previous run. Two rules keep the published values honest:
   * - unreachable: a cycle whose requests got no answer at all (connection refused or reset, DNS,
   *   every call timing out; avax_up 0) drops every node-derived series of the target, whichever
   *   collector produced them and whether or not it ran in this cycle, and marks every collector
   *   failing; what stays is avax_up 0, the collector status and the request counters;
   * - recovery: the first cycle in which the node answers again runs every collector, as at
   *   start-up, so that no series stays absent until a long interval comes round.
   */
  async runCycle(shutdown?: AbortSignal): Promise<void> {
    const t = this.tick;
    const wasDown = this.up === 0;
    const due = this.slots.filter((s) => t === 0 || (t % s.every === s.phase && t - s.lastRunTick >= s.every));
    this.tick++;
    this.validAnswers = 0;
    this.requestsThisCycle = 0;
    await this.runInOrder(due, t, shutdown);
    if (shutdown?.aborted) return;
    if (this.requestsThisCycle > 0) {
      const up = this.validAnswers > 0 ? 1 : 0;
      if (up === 1 && wasDown) {
        await this.runInOrder(this.slots.filter((s) => !due.includes(s)), t, shutdown);
        if (shutdown?.aborted) return;
      }
      if (up !== this.up) {
        if (up === 1) this.log.info({ event: 'target_up', recovered: wasDown }, wasDown ? 'node answers again: every collector ran in this cycle' : 'node answers');
        else this.log.warn({ event: 'target_down' }, "no answer from the node in this cycle: the target's node-derived series are dropped until it answers again");
      }
      this.up = up;
      if (up === 0) this.dropNodeData();
    }
    this.cycles++;
  }

  /**
   * Runs the slots concurrently, except that a collector declaring `after: [x]` waits for x when
   * both are in `slots` (waves: first those that wait for nobody here, then the next).
   */
  private async runInOrder(slots: readonly CollectorSlot[], tick: number, shutdown?: AbortSignal): Promise<void> {
    let left = [...slots];
    while (left.length > 0) {
      const names = new Set<string>(left.map((s) => s.plan.name));
      let wave = left.filter((s) => !(s.collector.after ?? []).some((n) => names.has(n)));
      if (wave.length === 0) wave = left; // a cycle in the declarations: run them together
      await Promise.all(wave.map((s) => this.runOne(s, tick, shutdown)));
      if (shutdown?.aborted) return;
      left = left.filter((s) => !wave.includes(s));
    }
  }

  /** The node did not answer: nothing it told us before is current any more. */
  private dropNodeData(): void {
    for (const s of this.slots) {
      s.samples = [];
      if (s.success && s.ran) {
        s.success = false;
        s.lastErrorKind = 'unreachable';
        this.lastErrors.set(s.plan.name, 'not current: the node did not answer in the last cycle');
      }
    }
  }

  /** avax_up of the last cycle (undefined before the first). */
  upState(): number | undefined {
    return this.up;
  }

  private async runOne(slot: CollectorSlot, tick: number, shutdown?: AbortSignal): Promise<void> {
    const started = performance.now();
    const timeoutMs = this.opts.collectorTimeoutSeconds * 1000;
    const limit = deadline(timeoutMs, shutdown);
    const signal = limit.signal;
    const ctx: CollectorContext = {
      target: this.target.spec,
      settings: this.opts.settings,
      client: this.client,
      signal,
      now: this.now,
      memo: this.memo,
      state: slot.state,
      log: slot.log,
    };
    let samples: readonly Sample[] = [];
    let errors: readonly Error[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      // The race guards against a collector that ignores its signal: the cycle always ends.
      const guard = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`collector did not finish within ${timeoutMs} ms`)), timeoutMs + 1000);
      });
      const res = await Promise.race([slot.collector.collect(ctx), guard]);
      samples = res.samples;
      errors = res.errors;
    } catch (err) {
      errors = [err instanceof Error ? err : new Error(String(err))];
    } finally {
      clearTimeout(timer);
      limit.dispose();
    }
    if (shutdown?.aborted) return; // a cycle cut by shutdown publishes nothing
    const firstRun = !slot.ran;
    slot.ran = true;
    slot.lastRunTick = tick;
    slot.durationSeconds = (performance.now() - started) / 1000;
    slot.samples = samples;
    const success = errors.length === 0;
    if (success) slot.lastSuccessSeconds = this.now() / 1000;
    const first = errors[0];
    const message = first ? this.scrub(errorText(first, errors.length)) : undefined;
    const kind = first ? (first instanceof NodeClientError ? `${first.result}:${first.method}` : first.name) : undefined;
    // A collector marked failing because the node was unreachable (logged once, as target_down) does
    // not log again when it then fails on its own run for the same reason.
    const changed = firstRun ? !success : success !== slot.success || (!success && kind !== slot.lastErrorKind && slot.lastErrorKind !== 'unreachable');
    if (changed) {
      if (success) slot.log.info({ event: 'collector_recovered' }, 'collector succeeds again');
      else slot.log.warn({ event: 'collector_failed', err: message, result: first instanceof NodeClientError ? first.result : 'error' }, 'collector failed');
    }
    slot.success = success;
    slot.lastErrorKind = kind;
    if (message) this.lastErrors.set(slot.plan.name, message);
    else this.lastErrors.delete(slot.plan.name);
  }

  private scrub(text: string): string {
    return scrubSecrets(text, this.target.url, this.target.headers);
  }

  /** The target's complete set of samples (with the `target` label) as of the last cycle. */
  samples(): Sample[] {
    const target = this.name;
    const out: Sample[] = [];
    if (this.up !== undefined) out.push({ name: 'avax_up', labels: { target }, value: this.up });
    for (const s of this.slots) {
      if (!s.ran) continue;
      const labels = { target, collector: s.plan.name };
      out.push({ name: 'avax_collector_success', labels, value: s.success ? 1 : 0 });
      out.push({ name: 'avax_collector_duration_seconds', labels, value: round6(s.durationSeconds) });
      if (s.lastSuccessSeconds !== undefined) out.push({ name: 'avax_collector_last_success_timestamp_seconds', labels, value: Math.round(s.lastSuccessSeconds * 1000) / 1000 });
      out.push(...wellFormedUnique(s.samples, target));
    }
    out.push(...derivedSamples(out, this.now() / 1000, target));
    out.push(...this.rpc.samples(target));
    return out;
  }

  /** Facts shared between this target's collectors (read by cross-target series, e.g. ACP votes). */
  memoView(): Readonly<TargetMemo> {
    return this.memo;
  }

  status(): { up: number | undefined; collectors: CollectorStatus[] } {
    const all = this.target.collectors.map((p): CollectorStatus => {
      const s = this.slots.find((x) => x.plan.name === p.name);
      return {
        name: p.name,
        enabled: !!s,
        intervalSeconds: p.intervalSeconds,
        ran: s?.ran ?? false,
        success: s?.success ?? false,
        durationSeconds: s?.durationSeconds ?? 0,
        lastSuccessSeconds: s?.lastSuccessSeconds,
        lastError: this.lastErrors.get(p.name),
      };
    });
    return { up: this.up, collectors: all };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A collector's samples with the `target` label. Label values come from node answers: lone
 * surrogates (JSON may carry "\ud800") become U+FFFD here, as they would in the UTF-8 exposition,
 * and a series equal to an earlier one is dropped: two label values that differ only there would
 * otherwise be a duplicate series, and a scraper rejects the whole exposition for one.
 */
export function wellFormedUnique(samples: readonly Sample[], target: string): Sample[] {
  const out: Sample[] = [];
  const seen = new Set<string>();
  for (const x of samples) {
    const labels: Record<string, string> = { target };
    for (const [k, v] of Object.entries(x.labels)) labels[k] = v.replace(LONE_SURROGATE, '\ufffd');
    const key = JSON.stringify([x.name, labels]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: x.name, labels, value: x.value });
  }
  return out;
}

/**
 * Spreads collectors with longer intervals over the cycles of their period so that the requests per
 * cycle stay level (greedy: heaviest first, each on the phase that keeps the busiest cycle lowest).
 * Without it every 30 s, 60 s and 5 min collector would land on the same cycle as the 15 s ones.
 */
export function assignPhases(items: { slot: { every: number; phase: number }; weight: number }[]): void {
  const lcm = (a: number, b: number): number => {
    const g = (x: number, y: number): number => (y === 0 ? x : g(y, x % y));
    return (a / g(a, b)) * b;
  };
  const horizon = Math.min(720, items.reduce((h, i) => lcm(h, i.slot.every), 1));
  const load = new Array<number>(horizon).fill(0);
  const order = [...items].sort((a, b) => a.slot.every - b.slot.every || b.weight - a.weight);
  for (const { slot, weight } of order) {
    let best = 0;
    let bestCost = Infinity;
    for (let p = 0; p < slot.every; p++) {
      let cost = 0;
      for (let t = p; t < horizon; t += slot.every) cost = Math.max(cost, load[t]! + weight);
      if (cost < bestCost) {
        bestCost = cost;
        best = p;
      }
    }
    slot.phase = best;
    for (let t = best; t < horizon; t += slot.every) load[t]! += weight;
  }
}

function errorText(err: Error, n: number): string {
  const more = n > 1 ? ` (and ${n - 1} more)` : '';
  return `${err.message}${more}`;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
