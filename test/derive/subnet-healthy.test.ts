import { describe, expect, it } from 'vitest';
import { subnetHealthy, subnetHealthyDerivation } from '../../src/derive/subnet-healthy.js';
import { HealthReport } from '../../src/schemas/health.js';
import { PRIMARY, SUBNET_L1 } from '../fixtures/ids.js';
import { snapshotWith } from './snapshot.js';

const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const RAN = { timestamp: '2026-05-14T09:21:30Z', duration: 1000 };
const FAILING = { ...RAN, error: 'failing', contiguousFailures: 3 };
const PENDING = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
/** A health report: every check passing but those given. */
const report = (over: Record<string, object> = {}) =>
  HealthReport.parse({ checks: { network: RAN, bootstrapped: RAN, P: RAN, X: RAN, C: RAN, [L1_CHAIN]: RAN, ...over }, healthy: Object.keys(over).length === 0 });
const watched = { subnets: [PRIMARY, SUBNET_L1], chains: [{ id: L1_CHAIN, subnet: SUBNET_L1, name: 'l1', vmId: 'vm' }], activeValidators: new Map(), l1Stakes: new Map() };
const derive = (health: ReturnType<typeof report>) =>
  Object.fromEntries(subnetHealthyDerivation.derive(snapshotWith({ health: { health }, 'subnet-chains': watched }), 0).map((s) => [s.labels['subnet'], s.value]));

describe('derive: subnet healthy', () => {
  it('default: every check passing → every watched subnet healthy', () => {
    expect(derive(report())).toEqual({ [PRIMARY]: 1, [SUBNET_L1]: 1 });
  });
  it("behavior: an L1 chain's failing check makes its subnet unhealthy, not the primary network", () => {
    expect(derive(report({ [L1_CHAIN]: FAILING }))).toEqual({ [PRIMARY]: 1, [SUBNET_L1]: 0 });
  });
  it("behavior: a primary chain's failing check is the primary network's only; a node-wide check fails every subnet", () => {
    expect(derive(report({ C: FAILING }))).toEqual({ [PRIMARY]: 0, [SUBNET_L1]: 1 });
    expect(derive(report({ network: FAILING }))).toEqual({ [PRIMARY]: 0, [SUBNET_L1]: 0 });
  });
  it('behavior: a check not yet run (just restarted) → no series for the subnets it counts for', () => {
    expect(derive(report({ [L1_CHAIN]: PENDING }))).toEqual({ [PRIMARY]: 1 });
    expect(derive(report({ bootstrapped: PENDING }))).toEqual({});
  });
  it('behavior: no health report or no watched subnets → no series', () => {
    expect(subnetHealthyDerivation.derive(snapshotWith({ 'subnet-chains': watched }), 0)).toEqual([]);
    expect(subnetHealthyDerivation.derive(snapshotWith({ health: { health: report() } }), 0)).toEqual([]);
  });
  it("behavior: subnetHealthy ignores the other subnets' chain checks", () => {
    const r = report({ [L1_CHAIN]: FAILING });
    expect(subnetHealthy(r, new Set(['P', 'X', 'C']), new Set(['P', 'X', 'C', L1_CHAIN]))).toBe(true);
    expect(subnetHealthy(r, new Set([L1_CHAIN]), new Set(['P', 'X', 'C', L1_CHAIN]))).toBe(false);
  });
});
