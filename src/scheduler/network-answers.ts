import type { Logger } from 'pino';
import type { Answer } from '../node-client/call.js';

/** Entries older than this are dropped (no interval is longer: they would never be reused). */
const MAX_KEEP_MS = 2 * 3_600_000;
/** A sweep of old entries runs every this many stores. */
const SWEEP_EVERY = 256;

interface Entry {
  /** The value, when the last fetch succeeded (shared read-only by every target of the network). */
  value?: unknown;
  /** Clock (ms) of the fetch that gave `value`. */
  at: number;
  /** When (NetworkAnswers.mark) the fetch that gave `value` started. */
  mark: number;
  /** The fetch in flight: targets that need the answer meanwhile wait for it. */
  pending?: Promise<Answer<unknown, string>>;
  /** The target whose request gave `value` (logged when it changes). */
  source?: string;
}

/**
 * Answers that are the same from every node of one network (calls declared `scope: 'network'`: the
 * validator set, supply, fees, the chain list) kept per network for one interval and shared by every
 * target of it (issue 21): with 100 nodes of one network, the multi-MB validator list is fetched and
 * parsed once per interval instead of 100 times.
 *
 * Which target asks: a target reuses an answer that ANOTHER target of its network fetched since the
 * asking collector's previous run began (and at most one interval ago); else it asks its own node.
 * Targets run the same collectors on the same phases, so in each interval the first one asks and the
 * others find the answer in flight or kept; a network with one target asks every time, as without
 * sharing, whatever the clock says (tests fix it). A failed fetch is not kept: the next target that
 * needs it asks its own node, so a node that is down or bootstrapping never stands for its network
 * (another one serves the next interval). A declared normal state (a method an older node lacks) is
 * the asking node's own and is not shared either. Values are shared by reference: readers never
 * mutate an answer.
 */
export class NetworkAnswers {
  private readonly entries = new Map<string, Entry>();
  private stores = 0;
  private marks = 0;

  constructor(private readonly now: () => number, private readonly logger?: Logger) {}

  /** A point in the order of runs and fetches (a collector run takes one when it starts). */
  mark(): number {
    return ++this.marks;
  }

  /**
   * The answer for `key` in `network` for `target`, whose collector's previous run began at
   * `previousRun` (a mark; -Infinity: none): the one another target fetched since (at most `maxAgeMs`
   * old), the fetch in flight, or `fetch` (this target's own request).
   */
  async get<T, N extends string>(network: string, key: string, q: { target: string; previousRun: number; maxAgeMs: number }, fetch: () => Promise<Answer<T, N>>): Promise<Answer<T, N>> {
    const k = `${network}\u0000${key}`;
    const e = this.entries.get(k);
    const reusable = (x: Entry) => x.source !== q.target && x.mark > q.previousRun && this.now() - x.at < q.maxAgeMs;
    if (e?.value !== undefined && !e.pending && reusable(e)) return { ok: true, value: e.value as T };
    if (e?.pending) {
      const shared = await e.pending;
      if (shared.ok) return shared as Answer<T, N>;
      // The node that asked failed (or lacks the method): ask our own.
    }
    const entry: Entry = this.entries.get(k) ?? { at: 0, mark: 0 };
    const mark = this.mark();
    const mine = fetch();
    entry.pending = mine;
    this.entries.set(k, entry);
    let a: Answer<T, N>;
    try {
      a = await mine;
    } finally {
      if (entry.pending === mine) entry.pending = undefined;
    }
    if (a.ok) {
      entry.value = a.value;
      entry.at = this.now();
      entry.mark = mark;
      if (entry.source !== q.target) {
        this.logger?.debug({ event: 'network_answer_source', network, call: key.split('\u0000')[0], target: q.target }, 'network answer now comes from this target');
        entry.source = q.target;
      }
      if (++this.stores % SWEEP_EVERY === 0) this.sweep();
    }
    return a;
  }

  /** Number of kept answers (tests). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const before = this.now() - MAX_KEEP_MS;
    for (const [k, e] of this.entries) if (!e.pending && e.at < before) this.entries.delete(k);
  }
}
