import type { MethodRequests } from '../snapshot.js';
import { RPC_RESULTS, type RpcResult } from '../node-client/errors.js';

interface MethodStats {
  counts: Map<RpcResult, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/** Histogram bucket bounds of avax_rpc_request_duration_seconds. */
export const RPC_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** avax_rpc_requests_total and avax_rpc_request_duration_seconds for one target. */
export class RpcStats {
  private readonly methods = new Map<string, MethodStats>();

  record(method: string, result: RpcResult, seconds: number): void {
    let m = this.methods.get(method);
    if (!m) {
      // Every result starts at 0 so that rate() sees the first error.
      m = { counts: new Map(RPC_RESULTS.map((r) => [r, 0])), buckets: RPC_DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.methods.set(method, m);
    }
    m.counts.set(result, (m.counts.get(result) ?? 0) + 1);
    for (let i = 0; i < RPC_DURATION_BUCKETS.length; i++) if (seconds <= RPC_DURATION_BUCKETS[i]!) m.buckets[i]!++;
    m.sum += seconds;
    m.count++;
  }

  /**
   * The counts so far, per method (sorted), copied: what a snapshot holds. A few numbers per method
   * instead of its 21 series: a snapshot lives until the target's next cycle, and 1,000 targets' request
   * series were 45 MB of the process's live heap (heap profile, issue 21); requestSamples() makes them
   * when the target is published (src/metrics/target-samples.ts).
   */
  snapshot(): MethodRequests[] {
    return [...this.methods.keys()].sort().map((method) => {
      const m = this.methods.get(method)!;
      return { method, results: RPC_RESULTS, counts: RPC_RESULTS.map((r) => m.counts.get(r) ?? 0), bounds: RPC_DURATION_BUCKETS, buckets: [...m.buckets], sum: m.sum, count: m.count };
    });
  }

  /** Total requests so far (benchmarks and tests). */
  total(): number {
    let n = 0;
    for (const m of this.methods.values()) n += m.count;
    return n;
  }
}
