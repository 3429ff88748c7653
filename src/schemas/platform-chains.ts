import { z } from 'zod';
import { leanReader, list, objectItem, requiredCb58Id, requiredObject, string } from './lean.js';
import { CB58Id, nullableArray } from './primitives.js';

/**
 * P-Chain blockchain methods (`POST /ext/bc/P`): avalanchego v1.14.2 vms/platformvm/service.go
 * (GetBlockchains' APIBlockchain, GetBlockchainStatus) and docs/avalanchego-wire.md §5. In their own file beside platform.ts (the validator and
 * fee methods). Objects strip unknown fields.
 */

/** One blockchain record: `{id, name, subnetID, vmID}`. `name` is chosen by the chain's creator. */
export const PlatformBlockchain = z.object({
  id: CB58Id,
  name: z.string().max(256).default(''),
  subnetID: CB58Id,
  vmID: CB58Id,
});
export type PlatformBlockchain = z.output<typeof PlatformBlockchain>;

/** platform.getBlockchains (deprecated since v1.9.12, still answering in v1.14.2): every chain except the P-Chain. */
export const PlatformGetBlockchainsResult = z.object({ blockchains: nullableArray(PlatformBlockchain) });
export type PlatformGetBlockchainsResult = z.output<typeof PlatformGetBlockchainsResult>;

const readBlockchain = objectItem(
  (w, o): PlatformBlockchain => ({
    id: requiredCb58Id(w, o['id'], 'id') as string,
    name: string(w, o['name'], 'name', 256) ?? '',
    subnetID: requiredCb58Id(w, o['subnetID'], 'subnetID') as string,
    vmID: requiredCb58Id(w, o['vmID'], 'vmID') as string,
  }),
);

/** Lean reader of platform.getBlockchains: every field of a record is used (the same output as the schema). */
export const PlatformGetBlockchainsLean = leanReader((w, v): PlatformGetBlockchainsResult => {
  const o = requiredObject(w, v, undefined);
  return { blockchains: o === undefined ? [] : list(w, o['blockchains'], 'blockchains', readBlockchain) };
});

/** The statuses platform.getBlockchainStatus knows (avalanchego v1.14.2 vms/platformvm/status/blockchain_status.go; docs/avalanchego-wire.md §5). */
export const BLOCKCHAIN_STATUSES = ['Validating', 'Created', 'Preferred', 'Syncing', 'Unknown'] as const;
export type BlockchainStatus = (typeof BLOCKCHAIN_STATUSES)[number];

/** platform.getBlockchainStatus {blockchainID}: `{"status":"Validating"}`; a status outside the known set is refused. */
export const PlatformGetBlockchainStatusResult = z.object({ status: z.enum(BLOCKCHAIN_STATUSES) });
export type PlatformGetBlockchainStatusResult = z.output<typeof PlatformGetBlockchainStatusResult>;
