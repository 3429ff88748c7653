/**
 * A compact, immutable set of NodeIDs: the sorted 32-bit FNV-1a hashes of the IDs. The full
 * primary-network validator list (~1,500 IDs) is kept per target between two runs of
 * platform-validators-full so that info-peers can tell validator peers from the others; as strings
 * that would be ~150 KB per target, as hashes it is 6 KB. A false positive needs a 32-bit collision
 * between a non-validator peer and one of ~1,500 validators (p ≈ 3.5e-7 per peer).
 */
export class NodeIdSet {
  private constructor(private readonly hashes: Uint32Array) {}

  static of(ids: Iterable<string>): NodeIdSet {
    const arr: number[] = [];
    for (const id of ids) arr.push(fnv1a(id));
    const hashes = Uint32Array.from(arr).sort();
    return new NodeIdSet(hashes);
  }

  get size(): number {
    return this.hashes.length;
  }

  has(id: string): boolean {
    const h = fnv1a(id);
    let lo = 0;
    let hi = this.hashes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.hashes[mid]!;
      if (v === h) return true;
      if (v < h) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** 32-bit FNV-1a over the UTF-16 code units (NodeIDs are ASCII). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
