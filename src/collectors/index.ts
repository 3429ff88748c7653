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
import { platformValidators } from './platform-validators.js';
import { platformValidatorsFull } from './platform-validators-full.js';
import type { Collector } from './types.js';

/** Every collector, in exposition order. Adding a collector = one file + one line here. */
export const COLLECTORS: readonly Collector[] = [
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
];

export const COLLECTOR_BY_NAME: ReadonlyMap<string, Collector> = new Map(COLLECTORS.map((c) => [c.name, c]));
