/**
 * What the rules and their documentation need to know about the collectors, read off the collectors'
 * own declarations (issue 22): each collector's default interval and declared calls. Nothing here is
 * kept by hand; a new collector lands in these lists by declaring itself in src/collectors/index.ts.
 */
import { COLLECTORS } from '../collectors/index.js';

/** The default interval of every collector in seconds, in COLLECTORS order. */
export const COLLECTOR_INTERVALS: ReadonlyMap<string, number> = new Map(COLLECTORS.map((c) => [c.name, c.interval] as const));

/**
 * Collectors that run every 5 minutes or less often by default: their data is older between runs, so
 * AvalancheExporterDataStale gives them thresholds.dataStaleSlowCollectors instead of thresholds.dataStale.
 */
export const SLOW_INTERVAL_SECONDS = 300;
export const SLOW_COLLECTORS: readonly string[] = [...COLLECTOR_INTERVALS].filter(([, s]) => s >= SLOW_INTERVAL_SECONDS).map(([name]) => name);

/** The collectors by default interval, shortest first: `[[15, ['health', ...]], [60, [...]], ...]`. */
export function collectorsByInterval(): [seconds: number, names: string[]][] {
  const by = new Map<number, string[]>();
  for (const [name, s] of COLLECTOR_INTERVALS) by.set(s, [...(by.get(s) ?? []), name]);
  return [...by].sort(([a], [b]) => a - b);
}

/** A chain route: /ext/bc/<chain>/... or /ext/index/...; it answers 503 until its chain is bootstrapped. */
export const isChainRoute = (pathPrefix: string): boolean => /^\/ext\/(bc|index)\//.test(pathPrefix);

/**
 * The collectors with at least one call the node refuses until it is bootstrapped: a chain route, or a call
 * declared `untilBootstrapped` (of `COLLECTORS`, passed by whoever may import it).
 */
export function bootstrapGatedCollectors(collectors: readonly { name: string; calls: readonly { pathPrefix: string; untilBootstrapped?: boolean }[] }[]): string[] {
  return collectors.filter((c) => c.calls.some((call) => isChainRoute(call.pathPrefix) || call.untilBootstrapped === true)).map((c) => c.name);
}

/**
 * Collectors that fail until the node is bootstrapped, in COLLECTORS order: those that call chain routes
 * (/ext/bc/P, /ext/bc/C/rpc, /ext/bc/X, /ext/index/...), which answer 503 until then, and info-uptime
 * (info.uptime: "still bootstrapping"). AvalancheChainNotBootstrapped already pages for it.
 */
export const BOOTSTRAP_GATED_COLLECTORS: readonly string[] = bootstrapGatedCollectors(COLLECTORS);
