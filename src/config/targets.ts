import { defaultOptions, type Collector } from '../collectors/define.js';
import type { TargetSpec } from '../target.js';
import { cyclesOf } from './intervals.js';
import { defaultTargetName, type Config, type TargetConfig } from './schema.js';
import { mergeSelection } from './metric-selection.js';
import { inShard } from './shard.js';

/** One collector of one target as the configuration resolved it. */
export interface CollectorPlan {
  readonly name: string;
  readonly enabled: boolean;
  readonly intervalSeconds: number;
}

/** A target as the configuration resolved it: what the scheduler runs. */
export interface ResolvedTarget {
  readonly spec: TargetSpec;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly collectors: readonly CollectorPlan[];
}

/** The configured targets this process collects: all of them, or with --shard.total > 1 this replica's. */
export function targetsOfThisShard(cfg: Config): Config['targets'] {
  return cfg.targets.filter((t) => inShard(t.name ?? defaultTargetName(t.url), cfg.shard));
}

/**
 * `validatorNodeIds` as the collectors read it: the IDs (each once), and the subnets of those given as
 * `{ nodeId, subnets }` (where exactly each must be an active validator).
 */
export function watchedValidators(entries: TargetConfig['validatorNodeIds']): Pick<TargetSpec, 'validatorNodeIds' | 'validatorSubnets'> {
  const ids = [...new Set(entries.map((e) => (typeof e === 'string' ? e : e.nodeId)))];
  const subnets: Record<string, readonly string[]> = {};
  for (const e of entries) if (typeof e !== 'string' && e.subnets) subnets[e.nodeId] = [...new Set(e.subnets)];
  return Object.keys(subnets).length > 0 ? { validatorNodeIds: ids, validatorSubnets: subnets } : { validatorNodeIds: ids };
}

/** Turns the validated config into per-target plans (global collector settings, then per-target overrides); with --shard.total > 1 only this replica's targets. */
export function resolveTargets(cfg: Config, collectors: readonly Collector<any>[]): ResolvedTarget[] {
  const base = cfg.collection.interval;
  return targetsOfThisShard(cfg).map((t) => {
    const plans = collectors.map((c) => {
      const global = cfg.collectors[c.name];
      const local = t.collectors[c.name];
      const enabled = local?.enabled ?? global?.enabled ?? c.enabled;
      // A user's interval is a whole number of cycles already (the schema refuses another); a default rounds up to one.
      const interval = cyclesOf(local?.interval ?? global?.interval ?? c.interval, base) * base;
      return { name: c.name, enabled, intervalSeconds: interval };
    });
    return {
      spec: {
        name: t.name ?? defaultTargetName(t.url),
        reference: t.reference,
        ...watchedValidators(t.validatorNodeIds),
        expectActive: t.expectActive,
        subnets: t.subnets,
        chains: t.chains,
        labels: { ...cfg.labels, ...t.labels },
        metrics: mergeSelection(cfg.metrics, t.metrics),
      },
      url: t.url,
      headers: t.headers,
      collectors: plans,
    };
  });
}

/** Every collector's option values: its defaults, overridden by flags, environment and YAML. */
export function collectorOptions(cfg: Config, collectors: readonly Collector<any>[]): Map<string, Readonly<Record<string, unknown>>> {
  return new Map(
    collectors.map((c) => {
      const given = cfg.collectors[c.name] ?? {};
      const values: Record<string, unknown> = { ...defaultOptions(c.options) };
      for (const k of Object.keys(c.options)) if (given[k] !== undefined) values[k] = given[k];
      return [c.name, values] as const;
    }),
  );
}

/**
 * What a reload changes: the targets to stop (gone, or changed in any way: its labels and metric
 * selection too, which are part of its spec) and the ones to start (new, or changed); unchanged
 * targets keep running with their state.
 */
export function diffTargets(before: readonly ResolvedTarget[], after: readonly ResolvedTarget[]): { remove: string[]; add: ResolvedTarget[] } {
  const key = (t: ResolvedTarget) => JSON.stringify([t.url, t.headers, t.spec, t.collectors]);
  const old = new Map(before.map((t) => [t.spec.name, key(t)]));
  const keep = new Set(after.filter((t) => old.get(t.spec.name) === key(t)).map((t) => t.spec.name));
  return { remove: before.map((t) => t.spec.name).filter((n) => !keep.has(n)), add: after.filter((t) => !keep.has(t.spec.name)) };
}
