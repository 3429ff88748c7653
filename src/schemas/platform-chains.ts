import { z } from 'zod';
import { got, leanReader, list, nodeIdProblem, requiredCb58Id, requiredObject, string, type Walk } from './lean.js';
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

function readBlockchain(w: Walk, v: unknown, i: number): PlatformBlockchain | undefined {
  const o = requiredObject(w, v, i);
  if (o === undefined) return undefined;
  w.in(i);
  const out: PlatformBlockchain = {
    id: requiredCb58Id(w, o['id'], 'id') as string,
    name: string(w, o['name'], 'name', 256) ?? '',
    subnetID: requiredCb58Id(w, o['subnetID'], 'subnetID') as string,
    vmID: requiredCb58Id(w, o['vmID'], 'vmID') as string,
  };
  w.out();
  return out;
}

/** Lean reader of platform.getBlockchains: every field of a record is used (the same output as the schema). */
export const PlatformGetBlockchainsLean = leanReader((w, v): PlatformGetBlockchainsResult => {
  const o = requiredObject(w, v, undefined);
  return { blockchains: o === undefined ? [] : list(w, o['blockchains'], 'blockchains', readBlockchain) };
});

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

/**
 * What subnet-chains reads of platform.getValidatorsAt: which NodeIDs are in the set (own-key
 * membership of the answer object). Not read: the weights and public keys.
 */
export type PlatformValidatorsAtMembers = Readonly<Record<string, true>>;

/**
 * Lean reader of platform.getValidatorsAt: the NodeID keys (validated like the schema's, `__proto__`
 * skipped as zod's record does) and that each entry is an object or null; weight and publicKey are not
 * read. Gives NodeID → true.
 */
export const PlatformGetValidatorsAtLean = leanReader((w, v): PlatformValidatorsAtMembers => {
  const out: Record<string, true> = {};
  const o = requiredObject(w, v, undefined);
  if (o === undefined) return out;
  for (const key of Object.keys(o)) {
    if (key === '__proto__') continue;
    const problem = nodeIdProblem(key);
    if (problem !== undefined) {
      w.fail(key, problem);
      continue;
    }
    const entry = o[key];
    if (entry !== null && entry !== undefined && (typeof entry !== 'object' || Array.isArray(entry))) w.fail(key, `expected an object or null, got ${got(entry)}`);
    out[key] = true;
  }
  return out;
});
