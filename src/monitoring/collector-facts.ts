/**
 * What the rules and their documentation need to know about the collectors, derived from the
 * collectors' own declarations rather than kept by hand (issue 22).
 *
 * src/monitoring may import metrics, config, project-links and version, not collectors
 * (test/architecture/imports.test.ts). The collectors' default intervals reach it through config: every
 * collector declares `--collector.NAME.interval` with its default (config/flags.ts). Their calls do not
 * reach it through any layer it may import, so the chain-route list is kept here and checked against
 * the declared calls by test/monitoring/collector-facts.test.ts with `chainRouteCollectors`.
 */
import { parseDuration } from '../config/duration.js';
import { FLAGS } from '../config/load.js';

/** The default interval of every collector in seconds, in COLLECTORS order (from its interval flag's default). */
export const COLLECTOR_INTERVALS: ReadonlyMap<string, number> = new Map(
  FLAGS.filter((f) => f.collector !== undefined && f.flag === `collector.${f.collector}.interval`).map((f) => {
    const s = parseDuration(f.def);
    if (s === undefined) throw new Error(`--${f.flag}: cannot read its default ${JSON.stringify(f.def)}`);
    return [f.collector!, s] as const;
  }),
);

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

/** The collectors with at least one call on a chain route (of `COLLECTORS`, passed by whoever may import it). */
export function chainRouteCollectors(collectors: readonly { name: string; calls: readonly { pathPrefix: string }[] }[]): string[] {
  return collectors.filter((c) => c.calls.some((call) => isChainRoute(call.pathPrefix))).map((c) => c.name);
}

/**
 * Collectors that call chain routes (/ext/bc/P, /ext/bc/C/rpc, /ext/bc/X, /ext/index/...), in COLLECTORS
 * order: those answer 503 until the chain is bootstrapped, which AvalancheChainNotBootstrapped already
 * pages for. Equal to chainRouteCollectors(COLLECTORS) (the test says which one to add or remove).
 */
export const CHAIN_ROUTE_COLLECTORS: readonly string[] = [
  'platform-validators',
  'platform-validators-full',
  'chain-height',
  'index-last-accepted',
  'platform-validator-fee',
  'validator-rewards',
  'network-economics',
  'subnet-chains',
];
