// Public constants of the Avalanche mainnet as avalanchego v1.14.2 has them (chain IDs, AVAX asset,
// fee price, Cortina), and the chain aliases the simulated node serves.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { PRIMARY_SUBNET_ID } from './avalanche-ids.js';

export type ChainAlias = 'P' | 'X' | 'C';
export const CHAINS: readonly ChainAlias[] = ['P', 'X', 'C'];

export const P_CHAIN_ID = PRIMARY_SUBNET_ID;
export const X_CHAIN_ID = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
export const C_CHAIN_ID = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const AVAX_ASSET_ID = 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z';
/** platform.getValidatorFeeState price (mainnet minimum), nAVAX per second per L1 validator. */
export const L1_FEE_PRICE = 512;
/** Time after which X/tx and X/vtx stopped growing (Cortina). */
export const CORTINA_MS = Date.UTC(2023, 3, 25, 15, 0, 0);

export const DAY = 86400;
export const NAVAX = 1_000_000_000n;
