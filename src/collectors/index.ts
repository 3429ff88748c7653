import { chainHeight } from './chain-height.js';
import { infoAcps } from './info-acps.js';
import { infoUpgrades } from './info-upgrades.js';
import { platformValidatorFee } from './platform-validator-fee.js';
import { health } from './health.js';
import { indexLastAccepted } from './index-last-accepted.js';
import { infoIsBootstrapped } from './info-is-bootstrapped.js';
import { infoPeers } from './info-peers.js';
import { infoUptime } from './info-uptime.js';
import { nodeInfo } from './node-info.js';
import { nodeMetrics } from './node-metrics.js';
import { platformValidators } from './platform-validators.js';
import { platformValidatorsFull } from './platform-validators-full.js';
import { validatorRewards } from './validator-rewards.js';
import { networkEconomics } from './network-economics.js';
import { subnetChains } from './subnet-chains.js';
import { adminLogger } from './admin-logger.js';
import { nodeIp } from './node-ip.js';
import type { AnswerSchema, Call } from '../node-client/call.js';
import type { Collector, CollectorOf } from './define.js';

/**
 * Every collector, in exposition order: the only list. The config schema, the flags and --help,
 * docs/metrics.md, the tables of docs/configuration.md, the request budget, the fault-matrix routes and the type of
 * each `ctx.read` are derived from it. Adding a collector = one file + one line here.
 */
const LIST = [
  nodeInfo,
  health,
  infoIsBootstrapped,
  infoPeers,
  infoUptime,
  platformValidators,
  platformValidatorsFull,
  chainHeight,
  indexLastAccepted,
  infoUpgrades,
  infoAcps,
  platformValidatorFee,
  validatorRewards,
  networkEconomics,
  nodeMetrics,
  subnetChains,
  adminLogger,
  nodeIp,
] as const;

export const COLLECTORS: readonly Collector<any>[] = LIST;

/** Each listed collector's value by its name (`CollectorOf<name, Value>` of its file); none for a collector that publishes none. */
type ValuesOf<L extends readonly unknown[]> = {
  [C in L[number] as C extends CollectorOf<infer N, infer V> ? ([V] extends [undefined] ? never : N) : never]: C extends CollectorOf<string, infer V> ? V : never;
};

declare module './define.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CollectorValues extends ValuesOf<typeof LIST> {}
}

export const COLLECTOR_BY_NAME: ReadonlyMap<string, Collector<any>> = new Map(COLLECTORS.map((c) => [c.name, c]));

/**
 * Every call every collector declares (endpoint, method, params, schema, normal states, scope): the one
 * table the tests, the simulator's schema check, the fault matrix's routes and the docs read.
 */
export const CALLS: readonly { readonly collector: string; readonly call: Call }[] = COLLECTORS.flatMap((c) => c.calls.map((call) => ({ collector: c.name, call })));

/** The schema of a method's answers (the first call declaring it; text calls have none). */
export function schemaOfMethod(method: string): AnswerSchema<unknown> | undefined {
  for (const { call } of CALLS) if (call.method === method && call.kind !== 'text') return call.result;
  return undefined;
}
