import type { Logger } from 'pino';
import type { Answer } from '../node-client/call.js';

/** Entries older than this are dropped (no interval is longer: they would never be reused). */
const MAX_KEEP_MS = 2 * 3_600_000;
/** A sweep of old entries runs every this many stores. */
const SWEEP_EVERY = 256;
/**
 * How long a target waits for another target's fetch in flight before it asks its own node as well: twice the
 * last successful fetch of the answer, at least HEDGE_MIN_MS (HEDGE_FIRST_MS before any). A node that is frozen
 * (SIGSTOP) or overloaded holds its requests until the node timeout: on real v1.15.0 nodes, the collectors of a
 * healthy target that waited on a frozen node's fetch took 9 s against their 10 s deadline.
 */
export const HEDGE_MIN_MS = 1_000;
export const HEDGE_FIRST_MS = 2_000;

interface Entry {
  /** The value, when the last fetch succeeded (shared read-only by every target of the network). */
  value?: unknown;
  /** Clock (ms) of the fetch that gave `value`. */
  at: number;
  /** When (NetworkAnswers.mark) the fetch that gave `value` started. */
  mark: number;
  /** The fetch in flight: targets that need the answer meanwhile wait for it. */
  pending?: Promise<Answer<unknown, string>>;
  /** A second fetch, by a target that waited longer than the hedge delay for `pending` (one at most). */
  hedge?: Promise<Answer<unknown, string>>;
  /** How long the last successful fetch took, ms. */
  lastFetchMs?: number;
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
 * mutate an answer. A fetch in flight that takes more than twice the last one (HEDGE_MIN_MS at least) is not
 * waited for to its end: the next target asks its own node too (one such hedge per fetch; the other targets
 * wait for whichever answers first), so a frozen node delays the healthy ones by a second or two, not by the
 * node timeout.
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
    const reusable = (x: Entry) => x.value !== undefined && x.source !== q.target && x.mark > q.previousRun && this.now() - x.at < q.maxAgeMs;
    const e = this.entries.get(k);
    if (e && reusable(e)) return { ok: true, value: e.value as T };
    if (e?.pending) {
      const shared = await this.waitShared(e);
      if (shared === 'late') {
        // A hedge that answered meanwhile left its value; another in flight is raced with the slow one.
        if (reusable(e)) return { ok: true, value: e.value as T };
        if (e.hedge && e.pending) {
          const either = await Promise.race([e.pending, e.hedge]);
          if (either.ok) return either as Answer<T, N>;
        }
      } else if (shared.ok) return shared as Answer<T, N>;
      // The node that asked failed (or lacks the method), or is too slow and nobody hedged yet: ask our own.
    }
    const entry: Entry = this.entries.get(k) ?? { at: 0, mark: 0 };
    const mark = this.mark();
    const started = Date.now();
    const mine = fetch();
    if (entry.pending) entry.hedge = mine;
    else entry.pending = mine;
    this.entries.set(k, entry);
    let a: Answer<T, N>;
    try {
      a = await mine;
    } finally {
      if (entry.pending === mine) entry.pending = entry.hedge;
      if (entry.hedge === mine || entry.pending === entry.hedge) entry.hedge = undefined;
    }
    if (a.ok) {
      entry.lastFetchMs = Date.now() - started;
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

  /**
   * The answer of the fetch in flight, or 'late' when it took longer than the hedge delay: twice the last
   * successful fetch, at least HEDGE_MIN_MS (HEDGE_FIRST_MS before any).
   */
  private async waitShared(e: Entry): Promise<Answer<unknown, string> | 'late'> {
    const delay = e.lastFetchMs === undefined ? HEDGE_FIRST_MS : Math.max(HEDGE_MIN_MS, 2 * e.lastFetchMs);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), delay);
      timer.unref?.();
    });
    try {
      return await Promise.race([e.pending!, late]);
    } finally {
      clearTimeout(timer);
    }
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
