// A target's description, resolved from the configuration: its name, whether it is a reference, the
// validators, subnets and chains it watches, and how its series are dressed (user labels, metric
// selection). Read by the collectors (ctx.target), the scheduler, the snapshot and the renderer.

/** A target as the exporter knows it, resolved from the configuration (config/targets.ts): what its collectors see as `ctx.target`. */
export interface TargetSpec {
  /** Configured name; the `target` label. */
  readonly name: string;
  /** A trusted reference node or public API: node-specific collectors are skipped. */
  readonly reference: boolean;
  /** Watched validator node IDs; empty = the node's own ID (learned from info.getNodeID). */
  readonly validatorNodeIds: readonly string[];
  /**
   * Per watched ID given as `{ nodeId, subnets }`: the subnets where it must be an active validator
   * (`primary` = the primary network, or CB58 subnet IDs). Every other configured ID: the primary network.
   */
  readonly validatorSubnets?: Readonly<Record<string, readonly string[]>>;
  /** --validator.expect-active: the node's own ID must be an active validator; it is watched beside the named ones. */
  readonly expectActive?: boolean;
  /** Subnets besides the primary network whose validators are watched (CB58 subnet IDs). */
  readonly subnets: readonly string[];
  /** Chains besides P, X and C checked by info-is-bootstrapped (alias or blockchain ID). */
  readonly chains: readonly string[];
  /**
   * The operator's own labels (YAML `labels:`, the top-level ones overridden per target), carried on
   * every series of the target; collectors never read them (metrics/target-output.ts renders them).
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Which metric families of the target are exposed (YAML `metrics:`); absent = all of them. */
  readonly metrics?: MetricSelection;
}

/**
 * Metric families a target exposes, by regular expressions over the family name, anchored at both ends
 * as Prometheus anchors its own: with `keep`, only the families that match one of them; then without
 * those that match one of `drop`. The target's status families are always exposed.
 */
export interface MetricSelection {
  readonly keep: readonly string[];
  readonly drop: readonly string[];
}
