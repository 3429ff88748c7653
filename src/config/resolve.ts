import type { CollectorSettings, IndexSpec, TargetSpec } from '../collectors/types.js';
import { COLLECTOR_NAMES, defaultTargetName, type CollectorName, type Config } from './schema.js';

export interface CollectorPlan {
  readonly name: CollectorName;
  readonly enabled: boolean;
  readonly intervalSeconds: number;
}

export interface ResolvedTarget {
  readonly spec: TargetSpec;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly collectors: readonly CollectorPlan[];
}

export interface CollectorDefaults {
  readonly name: string;
  readonly defaultIntervalSeconds: number;
  readonly defaultEnabled: boolean;
}

/** Turns the validated config into per-target plans (global collector settings, then per-target overrides). */
export function resolveTargets(cfg: Config, defaults: readonly CollectorDefaults[]): ResolvedTarget[] {
  const base = cfg.collection.interval;
  const defaultOf = new Map(defaults.map((d) => [d.name, d]));
  return cfg.targets.map((t) => {
    const collectors = COLLECTOR_NAMES.map((name): CollectorPlan => {
      const d = defaultOf.get(name);
      const global = cfg.collectors[name];
      const local = t.collectors[name];
      const enabled = local?.enabled ?? global?.enabled ?? d?.defaultEnabled ?? true;
      let interval = local?.interval ?? global?.interval ?? d?.defaultIntervalSeconds ?? base;
      // Defaults are multiples of 15 s; with another base interval round up to a multiple of it.
      interval = Math.max(base, Math.ceil(interval / base - 1e-9) * base);
      return { name, enabled, intervalSeconds: interval };
    });
    return {
      spec: {
        name: t.name ?? defaultTargetName(t.url),
        reference: t.reference,
        validatorNodeIds: t.validatorNodeIds,
        expectActive: t.expectActive,
        subnets: t.subnets,
        chains: t.chains,
      },
      url: t.url,
      headers: t.headers,
      collectors,
    };
  });
}

export function collectorSettings(cfg: Config): CollectorSettings {
  const peers = cfg.collectors['info-peers'];
  const idx = cfg.collectors['index-last-accepted'];
  const indexes: IndexSpec[] = [
    { chain: 'P', kind: 'block' },
    { chain: 'C', kind: 'block' },
    { chain: 'X', kind: 'block' },
  ];
  if (idx?.xTx) indexes.push({ chain: 'X', kind: 'tx' });
  if (idx?.xVtx) indexes.push({ chain: 'X', kind: 'vtx' });
  return {
    infoPeersPerPeer: peers?.perPeer ?? false,
    infoPeersSilenceSeconds: peers?.silenceWindow ?? 60,
    indexes,
  };
}
