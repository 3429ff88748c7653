import type { Sample } from '../model.js';
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

  /** The request series, without the `target` label (the renderer adds it). */
  samples(): Sample[] {
    const out: Sample[] = [];
    const methods = [...this.methods.keys()].sort();
    for (const method of methods) {
      const m = this.methods.get(method)!;
      for (const r of RPC_RESULTS) out.push({ name: 'avax_rpc_requests_total', labels: { method, result: r }, value: m.counts.get(r) ?? 0 });
    }
    for (const method of methods) {
      const m = this.methods.get(method)!;
      RPC_DURATION_BUCKETS.forEach((le, i) =>
        out.push({ name: 'avax_rpc_request_duration_seconds_bucket', labels: { method, le: String(le) }, value: m.buckets[i]! }),
      );
      out.push({ name: 'avax_rpc_request_duration_seconds_bucket', labels: { method, le: '+Inf' }, value: m.count });
      out.push({ name: 'avax_rpc_request_duration_seconds_sum', labels: { method }, value: m.sum });
      out.push({ name: 'avax_rpc_request_duration_seconds_count', labels: { method }, value: m.count });
    }
    return out;
  }

  /** Total requests so far (benchmarks and tests). */
  total(): number {
    let n = 0;
    for (const m of this.methods.values()) n += m.count;
    return n;
  }
}
