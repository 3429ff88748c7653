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
        if (result === 'ok' || result === 'rpc_error') this.validAnswers++;
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
          state: new Map(),
          log: this.log.child({ collector: plan.name }),
          ran: false,
          success: false,
          durationSeconds: 0,
          samples: [],
        };
      })
      .filter((s) => !(s.collector.nodeSpecific && target.spec.reference));
  }

  /** Runs one cycle; never throws. */
  async runCycle(shutdown?: AbortSignal): Promise<void> {
    const due = this.slots.filter((s) => this.tick % s.every === 0);
    this.tick++;
    this.validAnswers = 0;
    await Promise.all(due.map((s) => this.runOne(s, shutdown)));
    if (due.length > 0 && !shutdown?.aborted) {
      const up = this.validAnswers > 0 ? 1 : 0;
      if (up !== this.up) {
        if (up === 1) this.log.info({ event: 'target_up' }, 'node answers');
        else this.log.warn({ event: 'target_down' }, 'no valid answer from the node in this cycle');
      }
      this.up = up;
    }
    this.cycles++;
  }

  private async runOne(slot: CollectorSlot, shutdown?: AbortSignal): Promise<void> {
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
    slot.durationSeconds = (performance.now() - started) / 1000;
    slot.samples = samples;
    const success = errors.length === 0;
    if (success) slot.lastSuccessSeconds = this.now() / 1000;
    const first = errors[0];
    const message = first ? this.scrub(errorText(first, errors.length)) : undefined;
    const kind = first ? (first instanceof NodeClientError ? `${first.result}:${first.method}` : first.name) : undefined;
    const changed = firstRun ? !success : success !== slot.success || (!success && kind !== slot.lastErrorKind);
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
    out.push(...this.rpc.samples(target));
    return out;
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

function errorText(err: Error, n: number): string {
  const more = n > 1 ? ` (and ${n - 1} more)` : '';
  return `${err.message}${more}`;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
