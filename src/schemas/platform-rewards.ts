import { createHash } from 'node:crypto';
import { z } from 'zod';
import { U64, nullableArray } from './primitives.js';

/**
 * What a validation paid and what its reward owner holds (P-Chain API, avalanchego v1.14.2,
 * vms/platformvm/service.go; both methods deprecated since v1.9.12 but still served).
 *
 * platform.getRewardUTXOs {txID} → `{"numFetched":"1","utxos":["0x…"],"encoding":"hex"}`: the UTXOs the
 * RewardValidatorTx of that staking tx created (validation reward and, since Cortina, the accrued
 * delegation fees), each as formatting.Hex: "0x" + hex(bytes ‖ last 4 bytes of sha256(bytes)).
 * An unknown tx, or a validation that ended without reward, gives numFetched "0" and `[]`.
 *
 * platform.getBalance {addresses} → balance, unlocked, lockedStakeable, lockedNotStakeable (AVAX, nAVAX
 * strings), the per-asset maps balances/unlockeds/…, utxoIDs (null when there are none).
 */

/** A bech32 P-Chain address as the node formats owners: `P-avax1…`, `P-fuji1…`, `P-local1…` (20-byte payload). */
export const PChainAddress = z.string().regex(/^P-[a-z0-9]{1,30}1[02-9ac-hj-np-z]{38}$/, { message: 'expected a P-Chain address "P-<hrp>1…"' });

/** The largest reward UTXO accepted (bytes): a TransferOutput with a few owners is ~130 bytes. */
const MAX_UTXO_BYTES = 64 * 1024;

/** formatting.Hex (with checksum) → the bytes, or an error message. */
export function decodeCheckedHex(s: string): Uint8Array | string {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(s)) return 'expected "0x" followed by hex bytes';
  const all = Buffer.from(s.slice(2), 'hex');
  if (all.length < 4) return 'too short for its 4-byte checksum';
  if (all.length > MAX_UTXO_BYTES + 4) return `longer than ${MAX_UTXO_BYTES} bytes`;
  const body = all.subarray(0, all.length - 4);
  const sum = createHash('sha256').update(body).digest().subarray(28);
  if (!sum.equals(all.subarray(all.length - 4))) return 'bad checksum';
  return new Uint8Array(body);
}

/** Type IDs of the P-Chain codec (vms/platformvm/txs/codec.go): secp256k1fx.TransferOutput, stakeable.LockOut. */
const TRANSFER_OUTPUT = 7;
const STAKEABLE_LOCK_OUT = 22;

/** One decoded reward UTXO: its amount in nAVAX and asset (hex of the 32-byte asset ID). */
export interface RewardUtxo {
  readonly amount: bigint;
  readonly assetHex: string;
}

/**
 * Decodes a P-Chain UTXO (codec version 0): txID[32] outputIndex u32 assetID[32] typeID u32, then a
 * TransferOutput (amount u64, locktime u64, threshold u32, addresses) or a LockOut (locktime u64 +
 * a TransferOutput). Returns an error message for anything else.
 */
export function decodeRewardUtxo(bytes: Uint8Array): RewardUtxo | string {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number): boolean => at + n <= bytes.length;
  if (!need(2 + 32 + 4 + 32 + 4)) return 'UTXO too short';
  if (v.getUint16(0) !== 0) return `unknown codec version ${v.getUint16(0)}`;
  at = 2 + 32 + 4;
  const assetHex = Buffer.from(bytes.subarray(at, at + 32)).toString('hex');
  at += 32;
  let type = v.getUint32(at);
  at += 4;
  if (type === STAKEABLE_LOCK_OUT) {
    if (!need(8 + 4)) return 'LockOut too short';
    at += 8;
    type = v.getUint32(at);
    at += 4;
  }
  if (type !== TRANSFER_OUTPUT) return `unexpected output type ${type}`;
  if (!need(8 + 8 + 4 + 4)) return 'TransferOutput too short';
  const amount = v.getBigUint64(at);
  at += 8 + 8 + 4;
  const n = v.getUint32(at);
  at += 4;
  if (at + n * 20 !== bytes.length) return 'TransferOutput length does not match its address count';
  return { amount, assetHex };
}

/** A reward UTXO string → its decoded output (zod issue on anything that is not one). */
const RewardUtxoString = z.string().transform((s, ctx): RewardUtxo => {
  const bytes = decodeCheckedHex(s);
  const out = typeof bytes === 'string' ? bytes : decodeRewardUtxo(bytes);
  if (typeof out === 'string') {
    ctx.addIssue({ code: 'custom', message: `invalid reward UTXO ${JSON.stringify(s.slice(0, 40))}: ${out}` });
    return z.NEVER;
  }
  return out;
});

/** platform.getRewardUTXOs. Only the hex encoding is understood (the node's default and only one). */
export const PlatformGetRewardUTXOsResult = z.object({
  numFetched: U64.optional(),
  utxos: nullableArray(RewardUtxoString),
  encoding: z.literal('hex').optional(),
});
export type PlatformGetRewardUTXOsResult = z.output<typeof PlatformGetRewardUTXOsResult>;

/** The total reward paid, in nAVAX (a primary-network validation is rewarded in AVAX only). */
export function rewardPaid(r: PlatformGetRewardUTXOsResult): bigint {
  let t = 0n;
  for (const u of r.utxos) t += u.amount;
  return t;
}

/**
 * platform.getBalance. `balance` = unlocked + lockedStakeable + lockedNotStakeable of AVAX over all
 * the addresses asked (avalanchego sums them; UTXOs being staked are not in the UTXO set).
 */
export const PlatformGetBalanceResult = z.object({
  balance: U64,
  unlocked: U64.optional(),
  lockedStakeable: U64.optional(),
  lockedNotStakeable: U64.optional(),
});
export type PlatformGetBalanceResult = z.output<typeof PlatformGetBalanceResult>;
