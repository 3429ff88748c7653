// Chain heights of the simulated node: they grow with the clock (blocks per second per chain) and
// never decrease; when each block was accepted; the P-chain time; the AVAX supply. A scenario may slow
// some chains down from its switch (consensus stuck, a node falling behind); nodes of one network
// share their heights when they are seeded with the same chain seed.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { h32 } from './deterministic-random.js';
import { NAVAX, type ChainAlias } from './mainnet-constants.js';

export interface BlockRates {
  P: number;
  C: number;
  X: number;
}

/** This simulated node has had its index enabled since this moment. */
const INDEX_START_MS = Date.UTC(2022, 8, 1, 12, 0, 0);

export class ChainHeights {
  private readonly baseHeight: Record<ChainAlias | 'L1', number>;
  private readonly lastHeight: Record<ChainAlias | 'L1', number>;
  private readonly supplyBase: bigint;
  /** chains accepting blocks slower than the network since `sinceMs` (scenario hook `chainProgress`) */
  private slowed: { chains: ReadonlySet<ChainAlias | 'L1'>; rate: number; sinceMs: number; from: Partial<Record<ChainAlias | 'L1', number>> } | null = null;

  constructor(
    private readonly seed: number,
    /** start of the simulation (ms): the heights are the base heights then */
    private readonly t0: number,
    private readonly now: () => number,
    private readonly rates: BlockRates,
  ) {
    this.baseHeight = {
      P: 23_961_402 + (h32(seed, 2) % 200_000),
      C: 71_284_913 + (h32(seed, 3) % 500_000),
      X: 517_990 + (h32(seed, 4) % 50_000),
      L1: 1_204_551 + (h32(seed, 5) % 100_000),
    };
    this.lastHeight = { ...this.baseHeight };
    this.supplyBase = 468_000_000n * NAVAX + BigInt(h32(seed, 6) % 5_000_000) * NAVAX + BigInt(h32(seed, 7));
  }

  private rate(chain: ChainAlias | 'L1'): number {
    const r = chain === 'L1' ? this.rates.C * 0.5 : this.rates[chain];
    return Number.isFinite(r) && r > 0 ? r : 0;
  }

  /**
   * The height the network reaches at `ms` (blocks at the network's pace, no scenario slowing them), also before
   * the start of the simulation (the block accepted at a time, as acceptedAtMs says).
   */
  networkHeightAt(chain: ChainAlias | 'L1', ms: number): number {
    return this.baseHeight[chain] + Math.floor(((ms - this.t0) * this.rate(chain)) / 1000);
  }

  /** Height of the last accepted block; grows with the clock, never decreases. */
  height(chain: ChainAlias | 'L1'): number {
    const now = this.now();
    let h = this.networkHeightAt(chain, Math.max(now, this.t0));
    const s = this.slowed;
    if (s && s.chains.has(chain)) {
      const from = s.from[chain] ?? h;
      h = Math.min(h, from + Math.floor((Math.max(0, now - s.sinceMs) * this.rate(chain) * s.rate) / 1000));
    }
    if (h > this.lastHeight[chain]) this.lastHeight[chain] = h;
    return this.lastHeight[chain];
  }

  /**
   * From now on (or `graceMs` later: the network's pace until then) `chains` accept blocks at `rate` times the
   * network's pace (0: none).
   */
  slow(chains: readonly (ChainAlias | 'L1')[], rate: number, graceMs = 0): void {
    this.slowed = null;
    const sinceMs = this.now() + Math.max(0, graceMs);
    const from: Partial<Record<ChainAlias | 'L1', number>> = {};
    for (const c of chains) from[c] = Math.max(this.height(c), this.networkHeightAt(c, sinceMs));
    this.slowed = { chains: new Set(chains), rate: Math.max(0, rate), sinceMs, from };
  }

  /** The chains keep the network's pace again: they catch up at once. */
  resume(): void {
    this.slowed = null;
  }

  /** When this node accepted block `h` (ms). */
  acceptedAtMs(chain: ChainAlias | 'L1', h: number): number {
    const r = this.rate(chain);
    const base = this.baseHeight[chain];
    if (r === 0) return this.t0;
    return Math.max(INDEX_START_MS, this.t0 + Math.floor(((h - base) * 1000) / r));
  }

  /** P-chain time (1 s precision): time of the last accepted P block. */
  pChainTimeMs(): number {
    const ms = this.acceptedAtMs('P', this.height('P'));
    return Math.floor(Math.min(ms, this.now()) / 1000) * 1000;
  }

  /** platform.getCurrentSupply: grows with the P-chain height. */
  currentSupply(): bigint {
    const h = this.height('P');
    return this.supplyBase + BigInt(h - this.baseHeight.P) * 1_137_000_000n;
  }
}
