import { z } from 'zod';
import { CB58Id, NodeId, nullableArray, U64 } from './primitives.js';

/**
 * P-Chain blockchain methods (`POST /ext/bc/P`), node-api-spec.md "Blockchain record" and
 * AVALANCHEGO.md §5 (avalanchego v1.14.2). In their own file beside platform.ts (the validator and
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

/** The statuses platform.getBlockchainStatus knows (node-api-spec.md "Blockchain status"). */
export const BLOCKCHAIN_STATUSES = ['Validating', 'Created', 'Preferred', 'Syncing', 'Unknown'] as const;
export type BlockchainStatus = (typeof BLOCKCHAIN_STATUSES)[number];

/** platform.getBlockchainStatus {blockchainID}: `{"status":"Validating"}`; a status outside the known set is refused. */
export const PlatformGetBlockchainStatusResult = z.object({ status: z.enum(BLOCKCHAIN_STATUSES) });
export type PlatformGetBlockchainStatusResult = z.output<typeof PlatformGetBlockchainStatusResult>;

/**
 * platform.getValidatorsAt {height:"proposed", subnetID}: a bare map NodeID → {publicKey, weight}
 * (no `validators` wrapper since v1.10.6, AVALANCHEGO.md §5). Only the NodeIDs are used here: the
 * current validator set of an L1 (inactive L1 validators are not in it).
 */
export const PlatformGetValidatorsAtResult = z.record(NodeId, z.object({ weight: U64.optional() }).nullish());
export type PlatformGetValidatorsAtResult = z.output<typeof PlatformGetValidatorsAtResult>;
