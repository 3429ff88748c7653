// The containers of the simulated node's index (/ext/index/...): one per accepted block (index =
// height - 1 on P and C, = height on X), frozen where the index stalls (index-stalled), and the
// X-chain tx/vtx indexes that stopped growing at Cortina.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { cb58Encode } from './avalanche-ids.js';
import type { ChainHeights } from './chain-heights.js';
import { derivedBytes, h32, sha256 } from './deterministic-random.js';
import { CHAINS, CORTINA_MS, type ChainAlias } from './mainnet-constants.js';

export interface Container {
  id: string;
  bytes: Buffer;
  timestampMs: number;
  timestampNs: number;
  index: number;
}

interface FrozenIndex {
  index: number;
  ms: number;
  ns: number;
}

export class IndexContainers {
  /** Last X/tx and X/vtx containers (Cortina). */
  readonly frozen: { tx: FrozenIndex; vtx: FrozenIndex };
  private readonly containerCache = new Map<string, Container>();
  private readonly idToContainer = new Map<string, { chain: ChainAlias; height: number }>();
  /** Heights at which the block indexes stopped (index-stalled); empty otherwise. */
  private stalled: Partial<Record<ChainAlias, number>> = {};

  constructor(
    private readonly seed: number,
    private readonly heights: ChainHeights,
  ) {
    this.frozen = {
      tx: { index: 5_232_391 + (h32(seed, 9) % 10_000), ms: CORTINA_MS - 60_000 - (h32(seed, 10) % 600_000), ns: h32(seed, 11) % 1_000_000 },
      vtx: { index: 3_203_412 + (h32(seed, 12) % 10_000), ms: CORTINA_MS - 120_000 - (h32(seed, 13) % 600_000), ns: h32(seed, 14) % 1_000_000 },
    };
  }

  /** index-stalled starts: the block indexes stop at the current heights. */
  stall(): void {
    for (const c of CHAINS) this.stalled[c] = this.heights.height(c);
  }

  /** The block indexes follow the heights again. */
  resume(): void {
    this.stalled = {};
  }

  private indexOffset(chain: ChainAlias): number {
    // Relation between index and height is unverified on real nodes; keep them different.
    return chain === 'X' ? 0 : 1;
  }

  containerAt(chain: ChainAlias, height: number): Container {
    const key = `${chain}/${height}`;
    const hit = this.containerCache.get(key);
    if (hit) return hit;
    const acceptedMs = this.heights.acceptedAtMs(chain, height);
    const size = chain === 'C' ? 700 + (h32(this.seed, height, 21) % 1500) : 180 + (h32(this.seed, height, 22) % 400);
    const bytes = Buffer.alloc(size);
    // proposervm-like header: codec version, type, parent id, timestamp, P-chain height
    bytes.writeUInt16BE(0, 0);
    bytes.writeUInt32BE(chain === 'P' ? 0 : 1, 2);
    derivedBytes(`blk/${this.seed}/${chain}/${height - 1}`, 32).copy(bytes, 6);
    bytes.writeBigUInt64BE(BigInt(Math.floor(acceptedMs / 1000)), 38);
    bytes.writeBigUInt64BE(BigInt(height), 46);
    derivedBytes(`body/${this.seed}/${chain}/${height}`, size - 54).copy(bytes, 54);
    const id = cb58Encode(sha256(bytes));
    const c: Container = {
      id,
      bytes,
      timestampMs: acceptedMs + 3 + (h32(this.seed, height, 23) % 60),
      timestampNs: h32(this.seed, height, 24) % 1_000_000,
      index: height - this.indexOffset(chain),
    };
    if (this.containerCache.size > 5000) this.containerCache.clear();
    if (this.idToContainer.size > 50000) this.idToContainer.clear();
    this.containerCache.set(key, c);
    this.idToContainer.set(id, { chain, height });
    return c;
  }

  blockId(chain: ChainAlias, height: number): string {
    return this.containerAt(chain, height).id;
  }

  /** Last accepted container of the block index (frozen in index-stalled). */
  lastIndexed(chain: ChainAlias): Container {
    const h = this.stalled[chain] ?? this.heights.height(chain);
    return this.containerAt(chain, h);
  }

  containerByIndex(chain: ChainAlias, index: number): Container | null {
    const last = this.lastIndexed(chain);
    if (index < 0 || index > last.index) return null;
    return this.containerAt(chain, index + this.indexOffset(chain));
  }

  /** Looks up a container id among the ones served so far. */
  lookupContainer(chain: ChainAlias, id: string): Container | null {
    const ref = this.idToContainer.get(id);
    if (!ref || ref.chain !== chain) return null;
    const last = this.lastIndexed(chain);
    const c = this.containerAt(chain, ref.height);
    return c.index <= last.index ? c : null;
  }

  /** A container of the frozen X/tx or X/vtx index (stopped growing at Cortina). */
  frozenContainer(kind: 'tx' | 'vtx', index: number): Container {
    const f = this.frozen[kind];
    const bytes = derivedBytes(`${kind}/${this.seed}/${index}`, 120 + (index % 200));
    return {
      id: cb58Encode(sha256(bytes)),
      bytes,
      timestampMs: index === f.index ? f.ms : f.ms - (f.index - index) * 2000,
      timestampNs: index === f.index ? f.ns : 0,
      index,
    };
  }
}
