import type { Logger } from 'pino';
import type { Derivation, FleetDerivation } from '../derive/define.js';
import type { TargetSnapshot } from '../snapshot.js';
import type { DescriptorIndex } from './descriptors.js';
import { Exposition, GZIP_LEVEL, TargetSegment, gzipParts, makeRendered, renderedFromGzip, type RenderedExposition } from './exposition.js';
import type { Sample } from '../model.js';
import { PLAIN_OUTPUT, TargetOutputs } from './target-output.js';
import { targetSamples } from './target-samples.js';

/** Segment name of the fleet-derived series (they carry the target they are about); not a target name. */
const FLEET_SEGMENT = '\u0000fleet';


/**
 * Renders that follow publications are spaced by RENDER_SPACING × the last render's cost (capped at
 * MAX_RENDER_GAP_MS), so that rendering takes at most a tenth of the event loop: with one target a
 * render costs about a millisecond and follows every cycle at once; with 1,000 targets, which finish
 * one after the other across the interval, a render happens every few seconds instead of after each
 * target. A render that a scrape waits for is not spaced.
 */
const RENDER_SPACING = 9;
const MAX_RENDER_GAP_MS = 5000;
/**
 * /metrics is "watched" for this long after a scrape: publications then start renders ahead of the
 * next scrape. Unwatched (only /probe is used, or nobody scrapes), the full exposition is never built.
 */
export const WATCH_WINDOW_MS = 10 * 60_000;
/**
 * A scrape waits for the render of what was published since the last one when that costs at most
 * this much (a fleet of a few dozen targets): the scrape is current. A bigger fleet's scrape gets the
 * last complete render at once (renders follow publications while /metrics is watched, so it is at
 * most one render old); the first scrape after an unwatched spell always waits, so nobody is ever
 * served an old render.
 */
const SCRAPE_WAIT_MAX_RENDER_MS = 20;
/**
 * Render ahead only for the next scrape. The scrapers' cadence is the shortest of the last
 * CADENCE_GAPS gaps between /metrics scrapes (two Prometheus of an HA pair, each at its own offset,
 * give the shorter of their two gaps); gaps under MIN_CADENCE_GAP_MS are not a cadence (a burst, a
 * person's second curl). Until `lead` before the next scrape is due, publications only mark the
 * exposition dirty: a fleet of 100 targets publishes several times a second, and rendering ahead
 * after each batch (spaced by RENDER_SPACING) cost about 5 % of a core at 100 targets for renders
 * nobody fetched (bench/RESULTS.md). The lead is long enough for a render to finish before the
 * scrape: RENDER_LEAD × the last render's cost, at least MIN_LEAD_MS, at most half the cadence.
 * Past the due time (a scrape late, a cadence that changed) renders follow publications, spaced, as
 * without a cadence.
 */
const CADENCE_GAPS = 3;
const MIN_CADENCE_GAP_MS = 1000;
const RENDER_LEAD = 3;
const MIN_LEAD_MS = 1000;

export interface PublisherOptions {
  readonly index: DescriptorIndex;
  readonly derivations: readonly Derivation[];
  readonly fleetDerivations: readonly FleetDerivation[];
  /** The exporter's global samples (build info). */
  readonly global: readonly Sample[];
  readonly helpSuffix: (family: string) => string;
  /** The process's own metrics text (prom-client), appended to /metrics; absent when disabled. */
  readonly processMetrics?: () => Promise<string>;
  readonly logger: Logger;
  /** Clock in ms. */
  readonly now: () => number;
  /** Monotonic clock in ms for render scheduling (default performance.now; tests inject one). */
  readonly monotonic?: () => number;
  /** SCRAPE_WAIT_MAX_RENDER_MS (tests of a big fleet's scrape with a small one). */
  readonly scrapeWaitMaxRenderMs?: number;
}

/**
 * Takes the /probe bytes of the targets it watches as they publish (and their removal): the serving
 * thread (src/server/serving-thread.ts), which answers /probe without asking this thread. It owns the
 * bytes it is given (they may be moved to another thread, leaving the Buffer empty here).
 */
export interface ProbeSink {
  /** The target is probed: each publication of it goes to set(). */
  watches(name: string): boolean;
  set(name: string, bytes: Buffer, seriesCount: number, renderedAt: number): void;
  drop(name: string): void;
}

/**
 * Takes each complete render of the full exposition (the serving thread): `ahead` is true when
 * scrape() answers a watched /metrics with the last complete render at once (a fleet whose render
 * costs more than SCRAPE_WAIT_MAX_RENDER_MS), so that a server holding this render may answer such a
 * scrape itself and tell scrape() afterwards (it learns the cadence and starts the next render).
 */
export interface RenderSink {
  rendered(r: RenderedExposition, ahead: boolean): void;
}

/** Counters of the render machinery (tests and the bench check its bounds). */
export interface RenderStats {
  /** Full renders started since the publisher was made. */
  readonly started: number;
  /** Most full renders in flight at once (1 by construction). */
  readonly maxInFlight: number;
}

/** One render of the full exposition, from its start (perhaps waiting out the spacing) to its swap. */
interface Flight {
  readonly promise: Promise<RenderedExposition>;
  /** True once it has taken the segments: a publication after that needs the next render. */
  assembled: boolean;
  /** Ends the spacing wait now (a scrape waits for this render). */
  hurry(): void;
}

interface Follow {
  readonly promise: Promise<RenderedExposition>;
  resolve(r: RenderedExposition): void;
  reject(e: unknown): void;
  /** A scrape or a flush waits for it: not spaced. */
  urgent: boolean;
}

/**
 * From snapshots to bytes. Each published snapshot becomes the target's pre-rendered segment (its
 * samples and its derived series: the work proportional to one target, done once per cycle). The full
 * exposition (every segment, the fleet derivations, process metrics and gzip) is built only for
 * /metrics, at most one render at a time: publications that arrive during a render are coalesced
 * into exactly one next render, so memory does not depend on how fast targets publish (issue 21: up
 * to 16 renders of a 70 MB exposition were in flight with 1,000 targets). `/probe?target=` assembles
 * only its target's segment, cached until that target publishes again.
 */
export class Publisher {
  private readonly exposition: Exposition;
  private readonly snapshots = new Map<string, TargetSnapshot>();
  private readonly probeCache = new Map<string, RenderedExposition>();
  private readonly outputs: TargetOutputs;
  private rendered: RenderedExposition;
  /** Something was published or removed since the render in flight (or the last one) took the segments. */
  private dirty = false;
  private fleetDirty = false;
  private flight: Flight | undefined;
  private follow: Follow | undefined;
  private everRendered = false;
  private lastRenderEnd = 0;
  private lastRenderCostMs = 0;
  private lastScrapeAt = -Infinity;
  /** The last gaps between /metrics scrapes that can be a scraper's cadence (see CADENCE_GAPS). */
  private readonly scrapeGaps: number[] = [];
  private readonly mono: () => number;
  private started = 0;
  private inFlight = 0;
  private maxInFlight = 0;
  private sink: ProbeSink | undefined;
  private renderSink: RenderSink | undefined;
  private readonly scrapeWaitMaxRenderMs: number;

  constructor(private readonly o: PublisherOptions) {
    this.mono = o.monotonic ?? (() => performance.now());
    this.scrapeWaitMaxRenderMs = o.scrapeWaitMaxRenderMs ?? SCRAPE_WAIT_MAX_RENDER_MS;
    this.exposition = new Exposition(o.helpSuffix, o.index);
    this.outputs = new TargetOutputs(o.index);
    this.exposition.setGlobal(o.global);
    this.rendered = makeRendered(this.exposition.assembleBytes().bytes, 0, o.now());
  }

  /** A target's new snapshot: its segment now; the full exposition when /metrics is next looked at. */
  publish(s: TargetSnapshot): void {
    this.snapshots.set(s.target.name, s);
    const seg = new TargetSegment(targetSamples(s, this.o.derivations, this.o.now() / 1000), this.o.index, this.outputs.of(s.target));
    if (seg.unknown.length > 0) this.o.logger.error({ target: s.target.name, samples: [...new Set(seg.unknown)].slice(0, 5) }, 'samples without a metric descriptor were dropped');
    this.exposition.setTarget(s.target.name, seg);
    this.probeCache.delete(s.target.name);
    const sink = this.sink;
    if (sink?.watches(s.target.name)) {
      const { bytes, seriesCount } = this.exposition.assembleBytes(s.target.name, false);
      sink.set(s.target.name, bytes, seriesCount, this.o.now());
    }
    this.changed();
  }

  /**
   * From now on the /probe bytes of the targets `sink` watches go to it as they publish, and none are
   * cached here (probe() assembles them for a target's first probe).
   */
  sendProbes(sink: ProbeSink): void {
    this.sink = sink;
    this.probeCache.clear();
  }

  /** A removed target: its series go with the next render. */
  remove(name: string): void {
    this.snapshots.delete(name);
    this.exposition.removeTarget(name);
    this.probeCache.delete(name);
    this.sink?.drop(name);
    this.changed();
  }

  /** The snapshots as last published (landing page, fleet views). */
  latest(): ReadonlyMap<string, TargetSnapshot> {
    return this.snapshots;
  }

  /** The last complete render (it may not include the latest publications: see scrape()). */
  current(): RenderedExposition {
    return this.rendered;
  }

  /**
   * What a /metrics scrape gets: the render that includes everything published so far when that is
   * cheap or when /metrics was not watched (see SCRAPE_WAIT_MAX_RENDER_MS), else the last complete
   * render at once while the next one is made.
   */
  scrape(): RenderedExposition | Promise<RenderedExposition> {
    const now = this.mono();
    const sinceLast = now - this.lastScrapeAt;
    const watched = sinceLast <= WATCH_WINDOW_MS;
    if (watched && sinceLast >= MIN_CADENCE_GAP_MS) {
      this.scrapeGaps.push(sinceLast);
      if (this.scrapeGaps.length > CADENCE_GAPS) this.scrapeGaps.shift();
    } else if (!watched) this.scrapeGaps.length = 0;
    this.lastScrapeAt = now;
    if (!this.dirty && !this.flight) return this.rendered;
    if (!watched || !this.everRendered || !this.answersAhead()) return this.request(true);
    void this.request(false).catch(() => {});
    return this.rendered;
  }

  /** A watched scrape gets the last complete render at once (its render costs too much to wait for). */
  private answersAhead(): boolean {
    return this.lastRenderCostMs > this.scrapeWaitMaxRenderMs;
  }

  /** From now on each complete render goes to `sink` too, the one in hand at once. */
  sendRenders(sink: RenderSink): void {
    this.renderSink = sink;
    if (this.everRendered) sink.rendered(this.rendered, this.answersAhead());
  }

  /** The render that includes everything published so far, made now (tests, benchmarks, reload). */
  flush(): Promise<RenderedExposition> {
    return this.request(true);
  }

  /**
   * When the next scrape is due and how long before it a render ahead may start (undefined before
   * the scrapes have shown a cadence).
   */
  nextScrape(): { dueAt: number; leadMs: number } | undefined {
    if (this.scrapeGaps.length === 0) return undefined;
    const cadence = Math.min(...this.scrapeGaps);
    const leadMs = Math.min(cadence / 2, Math.max(MIN_LEAD_MS, RENDER_LEAD * this.lastRenderCostMs));
    return { dueAt: this.lastScrapeAt + cadence, leadMs };
  }

  /** Render machinery counters. */
  stats(): RenderStats {
    return { started: this.started, maxInFlight: this.maxInFlight };
  }

  /** One target's series (no process metrics, no build info), or undefined for an unknown name. */
  probe(name: string): RenderedExposition | undefined {
    if (!this.snapshots.has(name)) return undefined;
    let r = this.probeCache.get(name);
    if (!r) {
      const { bytes, seriesCount } = this.exposition.assembleBytes(name, false);
      r = makeRendered(bytes, seriesCount, this.o.now());
      // With a sink, this thread answers /probe only for a name the serving thread did not have yet.
      if (!this.sink) this.probeCache.set(name, r);
    }
    return r;
  }

  private changed(): void {
    this.dirty = true;
    this.fleetDirty = true;
    // Watched: render ahead of the next scrape (spaced, one at a time).
    if (this.mono() - this.lastScrapeAt <= WATCH_WINDOW_MS) void this.request(false).catch(() => {});
  }

  /** The render that will include everything published so far; `urgent`: not spaced. */
  private request(urgent: boolean): Promise<RenderedExposition> {
    const f = this.flight;
    if (f) {
      if (!f.assembled) {
        if (urgent) f.hurry();
        return f.promise;
      }
      if (!this.dirty) return f.promise;
      if (!this.follow) {
        let resolve!: (r: RenderedExposition) => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<RenderedExposition>((res, rej) => ((resolve = res), (reject = rej)));
        this.follow = { promise, resolve, reject, urgent };
      }
      this.follow.urgent ||= urgent;
      return this.follow.promise;
    }
    if (!this.dirty) return Promise.resolve(this.rendered);
    return this.launch(urgent ? 0 : this.gap());
  }

  /** How long a render ahead waits: its spacing after the last render, and the lead before the next scrape. */
  private gap(): number {
    const now = this.mono();
    const spacing = this.lastRenderEnd + Math.min(MAX_RENDER_GAP_MS, RENDER_SPACING * this.lastRenderCostMs) - now;
    const next = this.nextScrape();
    const ahead = next ? next.dueAt - next.leadMs - now : 0;
    return Math.max(0, spacing, ahead);
  }

  private launch(waitMs: number): Promise<RenderedExposition> {
    let hurry!: () => void;
    const waited = new Promise<void>((resolve) => {
      if (waitMs < 1) {
        hurry = () => {};
        setImmediate(resolve);
        return;
      }
      const t = setTimeout(resolve, waitMs);
      hurry = () => {
        clearTimeout(t);
        resolve();
      };
    });
    const flight: Flight = {
      assembled: false,
      hurry: () => hurry(),
      promise: waited.then(() => this.render(flight)).finally(() => this.land(flight)),
    };
    this.flight = flight;
    this.started++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return flight.promise;
  }

  /** A render ended: the one render that was waiting for it (publications during it) starts. */
  private land(flight: Flight): void {
    this.inFlight--;
    if (this.flight === flight) this.flight = undefined;
    const f = this.follow;
    this.follow = undefined;
    if (!f) return;
    if (!this.dirty) return f.resolve(this.rendered);
    this.launch(f.urgent ? 0 : this.gap()).then(f.resolve, f.reject);
  }

  /**
   * The fleet derivations (once per render, not per publication), the text, and its gzip, made off the
   * event loop (zlib's thread pool) before the render is swapped in. Prometheus always asks for gzip; a
   * scrape then only writes ready bytes, whatever the size of the fleet.
   */
  private async render(flight: Flight): Promise<RenderedExposition> {
    flight.assembled = true;
    this.dirty = false;
    const started = this.mono();
    if (this.fleetDirty) {
      this.fleetDirty = false;
      this.refreshFleet();
    }
    const taken = this.exposition.parts();
    let extra = '';
    if (this.o.processMetrics) {
      try {
        extra = await this.o.processMetrics();
      } catch (err) {
        this.o.logger.error({ err: String(err) }, 'process metrics failed: this render has none');
      }
    }
    // The render keeps the gzip only; the text is never assembled whole (gzipParts).
    taken.parts.push(Buffer.from(extra, 'utf8'));
    const seriesCount = taken.seriesCount;
    const gz = await gzipParts(taken.parts, GZIP_LEVEL);
    const r = renderedFromGzip(gz, seriesCount, this.o.now());
    this.rendered = r;
    this.everRendered = true;
    this.lastRenderEnd = this.mono();
    this.lastRenderCostMs = this.lastRenderEnd - started;
    this.renderSink?.rendered(r, this.answersAhead());
    return r;
  }

  private refreshFleet(): void {
    const all = [...this.snapshots.values()];
    const samples = this.o.fleetDerivations.flatMap((d) => d.derive(all));
    // Each fleet series is about one target (its `target` label): it carries that target's user labels.
    const outputOf = (x: Sample) => {
      const s = this.snapshots.get(x.labels['target'] ?? '');
      return s ? this.outputs.of(s.target) : PLAIN_OUTPUT;
    };
    this.exposition.setTarget(FLEET_SEGMENT, new TargetSegment(samples, this.o.index, outputOf));
  }
}
