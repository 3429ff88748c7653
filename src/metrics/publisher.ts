import type { Logger } from 'pino';
import type { Derivation, FleetDerivation } from '../derive/define.js';
import type { TargetSnapshot } from '../snapshot.js';
import type { DescriptorIndex } from './descriptors.js';
import { Exposition, TargetSegment, makeRendered, type RenderedExposition } from './exposition.js';
import type { Sample } from './model.js';
import { targetSamples } from './target-samples.js';

/** Segment name of the fleet-derived series (they carry the target they are about); not a target name. */
const FLEET_SEGMENT = '\u0000fleet';

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
  private renderPending: Promise<RenderedExposition> | undefined;

  constructor(private readonly o: PublisherOptions) {
    this.exposition = new Exposition(o.helpSuffix, o.index);
    this.exposition.setGlobal(o.global);
    this.rendered = makeRendered(this.exposition.assemble().text, 0, o.now());
  }

  /** A target's new snapshot; the render that follows is coalesced with other publications. */
  publish(s: TargetSnapshot): Promise<RenderedExposition> {
    this.snapshots.set(s.target.name, s);
    const seg = new TargetSegment(targetSamples(s, this.o.derivations, this.o.now() / 1000), this.o.index);
    if (seg.unknown.length > 0) this.o.logger.error({ target: s.target.name, samples: [...new Set(seg.unknown)].slice(0, 5) }, 'samples without a metric descriptor were dropped');
    this.exposition.setTarget(s.target.name, seg);
    this.refreshFleet();
    return this.scheduleRender();
  }

  /** A removed target: its series go with the next render. */
  remove(name: string): void {
    this.snapshots.delete(name);
    this.exposition.removeTarget(name);
    this.refreshFleet();
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
      const { text, seriesCount } = this.exposition.assemble(name, false);
      r = makeRendered(text, seriesCount, this.o.now());
      this.probeCache.set(name, r);
    }
    return r;
  }

  /** Renders now and waits for it. */
  async render(): Promise<RenderedExposition> {
    const seq = ++this.renderSeq;
    const { text, seriesCount } = this.exposition.assemble();
    const extra = this.o.processMetrics ? await this.o.processMetrics() : '';
    const r = makeRendered(text + extra, seriesCount, this.o.now());
    if (seq === this.renderSeq) this.rendered = r;
    this.probeCache.clear();
    return r;
  }

  scheduleRender(): Promise<RenderedExposition> {
    this.renderPending ??= new Promise<RenderedExposition>((resolve) => setImmediate(() => resolve(this.render()))).finally(() => {
      this.renderPending = undefined;
    });
    return this.renderPending;
  }

  private refreshFleet(): void {
    const all = [...this.snapshots.values()];
    const samples = this.o.fleetDerivations.flatMap((d) => d.derive(all));
    this.exposition.setTarget(FLEET_SEGMENT, new TargetSegment(samples, this.o.index));
  }
}
