import type { CollectorValues } from '../../src/collectors/define.js';
import type { TargetSpec } from '../../src/target.js';
import type { TargetSnapshot } from '../../src/snapshot.js';

/** A snapshot with the given collector values (everything else neutral), for derivation tests. */
export function snapshotWith(values: Partial<CollectorValues>, over: { name?: string; reference?: boolean; up?: 0 | 1 } = {}): TargetSnapshot {
  const target: TargetSpec = { name: over.name ?? 'node', reference: over.reference ?? false, validatorNodeIds: [], subnets: [], chains: [] };
  return {
    target,
    at: 0,
    up: over.up ?? 1,
    collectors: Object.entries(values).map(([name, value]) => ({
      name,
      enabled: true,
      intervalSeconds: 15,
      ran: true,
      success: true,
      durationSeconds: 0,
      errors: [],
      value,
      samples: [],
    })),
    requests: [],
    skippedTicks: 0,
    node: {},
  };
}
