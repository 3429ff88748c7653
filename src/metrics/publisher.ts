import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Logger } from 'pino';
import type { Derivation, FleetDerivation } from '../derive/define.js';
import type { TargetSnapshot } from '../snapshot.js';
import type { DescriptorIndex } from './descriptors.js';
import { Exposition, GZIP_LEVEL, TargetSegment, makeRendered, type RenderedExposition } from './exposition.js';
import type { Sample } from './model.js';
import { targetSamples } from './target-samples.js';

/** Segment name of the fleet-derived series (they carry the target they are about); not a target name. */
const FLEET_SEGMENT = '\u0000fleet';

const gzipAsync = promisify(gzip);

/**
 * Renders are spaced by RENDER_SPACING × the last render's cost (capped at MAX_RENDER_GAP_MS), so that
 * rendering takes at most a tenth of the event loop: with one target a render costs about a
 * millisecond and follows every cycle at once; with 1,000 targets, which finish one after the other
 * across the interval, a render (a few hundred ms for 500,000 series) happens every few seconds
 * instead of after each target. A scrape still gets data at most a few seconds older than the last
 * cycle, well within a 15 s scrape interval.
 */
const RENDER_SPACING = 9;
const MAX_RENDER_GAP_MS = 5000;

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
}

/**
 * From snapshots to bytes, once per cycle: each published snapshot becomes the target's pre-rendered
 * segment (its samples and its derived series), the fleet derivations are recomputed, and the
 * exposition is assembled (coalesced: many targets finishing together give one render). Scrapes get
 * the last rendered bytes; `/probe?target=` gets one target's, assembled once per render.
 */
export class Publisher {
  private readonly exposition: Exposition;
  private readonly snapshots = new Map<string, TargetSnapshot>();
  private readonly probeCache = new Map<string, RenderedExposition>();
  private rendered: RenderedExposition;
  private renderSeq = 0;
  /** The render that will include every publication so far (cleared when it starts assembling). */
  private renderPending: Promise<RenderedExposition> | undefined;
  private lastRenderEnd = 0;
  private lastRenderCostMs = 0;
  private fleetDirty = false;

  constructor(private readonly o: PublisherOptions) {
    this.exposition = new Exposition(o.helpSuffix, o.index);
    this.exposition.setGlobal(o.global);
    this.rendered = makeRendered(this.exposition.assembleBytes().bytes, 0, o.now());
  }

  /** A target's new snapshot; the render that follows is coalesced with other publications. */
  publish(s: TargetSnapshot): Promise<RenderedExposition> {
    this.snapshots.set(s.target.name, s);
    const seg = new TargetSegment(targetSamples(s, this.o.derivations, this.o.now() / 1000), this.o.index);
    if (seg.unknown.length > 0) this.o.logger.error({ target: s.target.name, samples: [...new Set(seg.unknown)].slice(0, 5) }, 'samples without a metric descriptor were dropped');
    this.exposition.setTarget(s.target.name, seg);
    this.fleetDirty = true;
    return this.scheduleRender();
  }

  /** A removed target: its series go with the next render. */
  remove(name: string): void {
    this.snapshots.delete(name);
    this.exposition.removeTarget(name);
    this.fleetDirty = true;
  }

  /** The snapshots as last published (landing page, fleet views). */
  latest(): ReadonlyMap<string, TargetSnapshot> {
    return this.snapshots;
  }

  current(): RenderedExposition {
    return this.rendered;
  }

  /** One target's series (no process metrics, no build info), or undefined for an unknown name. */
  probe(name: string): RenderedExposition | undefined {
    if (!this.snapshots.has(name)) return undefined;
    let r = this.probeCache.get(name);
    if (!r) {
      const { bytes, seriesCount } = this.exposition.assembleBytes(name, false);
      r = makeRendered(bytes, seriesCount, this.o.now());
      this.probeCache.set(name, r);
    }
    return r;
  }

  /**
   * Renders now and waits for it: the fleet derivations (once per render, not per publication), the
   * text, and its gzip, made off the event loop (zlib's thread pool) before the render is swapped in.
   * Prometheus always asks for gzip; a scrape then only writes ready bytes, whatever the size of the
   * fleet. Until the swap, scrapes get the previous render.
   */
  async render(): Promise<RenderedExposition> {
    const seq = ++this.renderSeq;
    const started = performance.now();
    if (this.fleetDirty) {
      this.fleetDirty = false;
      this.refreshFleet();
    }
    const { bytes, seriesCount } = this.exposition.assembleBytes();
    const extra = this.o.processMetrics ? await this.o.processMetrics() : '';
    const buf = extra === '' ? bytes : Buffer.concat([bytes, Buffer.from(extra, 'utf8')]);
    const gz = await gzipAsync(buf, { level: GZIP_LEVEL });
    const r = makeRendered(buf, seriesCount, this.o.now(), gz);
    if (seq === this.renderSeq) {
      this.rendered = r;
      this.probeCache.clear();
    }
    this.lastRenderEnd = performance.now();
    this.lastRenderCostMs = this.lastRenderEnd - started;
    return r;
  }

  /** The render that includes everything published so far (coalesced and spaced, see RENDER_SPACING). */
  scheduleRender(): Promise<RenderedExposition> {
    if (this.renderPending) return this.renderPending;
    const gap = Math.min(MAX_RENDER_GAP_MS, RENDER_SPACING * this.lastRenderCostMs);
    const wait = Math.max(0, this.lastRenderEnd + gap - performance.now());
    const p = new Promise<RenderedExposition>((resolve, reject) => {
      const start = () => {
        // From here on, a new publication needs a new render.
        if (this.renderPending === p) this.renderPending = undefined;
        this.render().then(resolve, reject);
      };
      if (wait < 1) setImmediate(start);
      else setTimeout(start, wait);
    });
    this.renderPending = p;
    return p;
  }

  private refreshFleet(): void {
    const all = [...this.snapshots.values()];
    const samples = this.o.fleetDerivations.flatMap((d) => d.derive(all));
    this.exposition.setTarget(FLEET_SEGMENT, new TargetSegment(samples, this.o.index));
  }
}
