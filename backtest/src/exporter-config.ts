// The exporter's configuration for a timeline's fleet, as an operator would write it (YAML through
// the exporter's own loader): one target per simulated node, its own L1 watched, its ID expected to
// be an active validator (on the primary network and its L1), and `vantages` other nodes' IDs watched
// from it (each node is then seen from that many vantages, as AvalancheValidatorFewVantagesConnected
// expects of a fleet; a plain list: they must be active on the primary network, not on this node's L1).
// With `reference`, one more target, `reference`, asks a healthy node of the same network (a public
// API node) and the fleet derivations compare every node's heights with it.
// Targets are named node-<i>; their URL's origin (http://node-<i>.sim.invalid:9650) only routes the
// in-process dispatcher: no name is resolved and no socket opened.

export interface FleetIdentity {
  readonly nodeIds: readonly string[];
  readonly l1SubnetIds: readonly string[];
}

export interface ExporterSettings {
  readonly intervalMs: number;
  /** a target named `reference` (reference: true) on the node after the fleet */
  readonly reference: boolean;
  readonly vantages: number;
  readonly adminLogger: boolean;
  readonly watchL1: boolean;
}

export const targetName = (i: number): string => `node-${i}`;
export const targetOrigin = (i: number): string => `http://node-${i}.sim.invalid:9650`;

/** node-<i> → i (the dispatcher's routing); undefined for an origin of no simulated node */
export function nodeOfOrigin(origin: string): number | undefined {
  const m = /^http:\/\/node-(\d+)\.sim\.invalid:9650$/.exec(origin);
  return m ? Number(m[1]) : undefined;
}

/** The node IDs target i watches besides its own: the next `vantages` nodes of the ring. */
export function watchedBy(i: number, n: number, vantages: number): number[] {
  return Array.from({ length: Math.min(vantages, n - 1) }, (_, k) => (i + 1 + k) % n);
}

/** The exporter's YAML configuration. Exporter process metrics are left out (no rule reads them). */
export function exporterConfigYaml(fleet: FleetIdentity, s: ExporterSettings): string {
  const n = fleet.nodeIds.length;
  const seconds = `${Math.round(s.intervalMs / 1000)}s`;
  const lines = [
    'web: { disableExporterMetrics: true }',
    `collection: { interval: ${seconds} }`,
    ...(s.adminLogger ? ['collectors:', '  admin-logger: { enabled: true }'] : []),
    'targets:',
  ];
  for (let i = 0; i < n; i++) {
    const watched = watchedBy(i, n, s.vantages).map((j) => `"${fleet.nodeIds[j]}"`);
    lines.push(
      `  - name: ${targetName(i)}`,
      `    url: "${targetOrigin(i)}"`,
      '    expectActive: true',
      ...(s.watchL1 ? [`    subnets: ["${fleet.l1SubnetIds[i]}"]`] : []),
      ...(watched.length > 0 ? [`    validatorNodeIds: [${watched.join(', ')}]`] : []),
    );
  }
  if (s.reference) lines.push(`  - name: ${REFERENCE}`, `    url: "${targetOrigin(n)}"`, '    reference: true');
  return lines.join('\n') + '\n';
}

/** The target name of the reference node (a public API node of the same network). */
export const REFERENCE = 'reference';
