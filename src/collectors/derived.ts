import type { Sample } from '../metrics/model.js';
import { PRIMARY_NETWORK_ID } from '../node-client/index.js';

/**
 * Series computed from other series of the same target (after every cycle, from what is published, so a
 * derived value disappears with its inputs and never outlives them):
 *
 * - avax_validator_uptime_max_achievable_ratio{subnet,node_id}: the node's OWN primary-network validation.
 *   With u = avax_uptime_weighted_average_ratio (how the stake sees this node's uptime so far), a
 *   validation from `start` to `end` and the node up from now on: (u·(now−start) + (end−now)) / (end−start).
 *   After the end it is u; before the start 1. It is an estimate: avalanchego's reward check uses each
 *   validator's own uptime measurement, and the weighted average is the best single figure the API gives.
 * - avax_l1_validator_balance_runway_seconds{subnet,node_id}: balance / price of every watched L1
 *   validator, at the current fee price (the price rises when more than the target number of L1
 *   validators are active); 0 for an inactive validator (balance 0).
 */
export function derivedSamples(samples: readonly Sample[], nowSeconds: number, target: string): Sample[] {
  let weighted: number | undefined;
  let ownId: string | undefined;
  let price: number | undefined;
  const starts = new Map<string, number>();
  const ends = new Map<string, number>();
  const balances: Sample[] = [];
  for (const s of samples) {
    switch (s.name) {
      case 'avax_uptime_weighted_average_ratio':
        weighted = s.value;
        break;
      case 'avax_node_info':
        ownId = s.labels['node_id'];
        break;
      case 'avax_l1_validator_fee_price_navax_per_second':
        price = s.value;
        break;
      case 'avax_l1_validator_balance_avax':
        balances.push(s);
        break;
      case 'avax_validator_start_timestamp_seconds':
        if (s.labels['subnet'] === PRIMARY_NETWORK_ID) starts.set(s.labels['node_id']!, s.value);
        break;
      case 'avax_validator_end_timestamp_seconds':
        if (s.labels['subnet'] === PRIMARY_NETWORK_ID) ends.set(s.labels['node_id']!, s.value);
        break;
    }
  }
  const out: Sample[] = [];
  const withTarget = (labels: Record<string, string>) => ({ target, ...labels });
  if (weighted !== undefined && ownId) {
    const start = starts.get(ownId);
    const end = ends.get(ownId);
    if (start !== undefined && end !== undefined && end > start) {
      const r = maxAchievableUptime(weighted, start, end, nowSeconds);
      out.push({ name: 'avax_validator_uptime_max_achievable_ratio', labels: withTarget({ subnet: PRIMARY_NETWORK_ID, node_id: ownId }), value: r });
    }
  }
  if (price !== undefined && price > 0) {
    for (const b of balances) {
      const runway = Math.round((b.value * 1e9) / price);
      out.push({ name: 'avax_l1_validator_balance_runway_seconds', labels: withTarget({ subnet: b.labels['subnet']!, node_id: b.labels['node_id']! }), value: runway });
    }
  }
  return out;
}

/** Best uptime ratio still reachable at `now` (seconds) for a validation [start, end] with uptime `u` so far. */
export function maxAchievableUptime(u: number, start: number, end: number, now: number): number {
  if (now <= start) return 1;
  if (now >= end) return round6(u);
  const r = (u * (now - start) + (end - now)) / (end - start);
  return round6(Math.min(1, Math.max(0, r)));
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
