import { createHash } from 'node:crypto';
import { z } from 'zod';
import { cb58Decode, cb58Encode, U64, nullableArray } from './primitives.js';

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

/**
 * Type IDs of the P-Chain codec (vms/platformvm/txs/codec.go, avalanchego v1.15.0): registration order,
 * with 5 IDs skipped first and 4 after the Banff types (the block types of block/codec.go take them).
 * Apricot 5-22 (secp256k1fx.TransferOutput 7, stakeable.LockOut 22), Banff 23-28, blocks 29-32,
 * Durango 33-34, Etna 35-39, Helicon 40-42 (AddAutoRenewedValidatorTx 40, SetAutoRenewedValidatorConfigTx
 * 41, RewardAutoRenewedValidatorTx 42).
 */
const TRANSFER_OUTPUT = 7;
const STAKEABLE_LOCK_OUT = 22;
const REWARD_AUTO_RENEWED_VALIDATOR_TX = 42;

/**
 * The ID of the RewardAutoRenewedValidatorTx that ends one cycle of an auto-renewed validator (ACP-236,
 * avalanchego v1.15.0 vms/platformvm/txs/reward_auto_renewed_validator_tx.go): the tx is {TxID: the
 * validator's AddAutoRenewedValidatorTx ID, the same in every cycle; Timestamp: the cycle's end, Unix
 * seconds} and has no credentials (proposal_tx_executor.go refuses any). Its ID is sha256 of the signed
 * bytes (txs/tx.go Initialize): codec version 0 (u16), the type ID (u32), the txID (32 bytes), the
 * timestamp (u64, big-endian) and an empty credential list (u32 0). platform.getRewardUTXOs files the
 * cycle's reward UTXOs under this ID, never under the validator's txID, and no API lists it: the P-Chain
 * block of the cycle's end carries it. Undefined when `validatorTxId` is not a CB58 ID or the end is not
 * a positive integer.
 */
export function rewardAutoRenewedValidatorTxId(validatorTxId: string, cycleEnd: number): string | undefined {
  const id = cb58Decode(validatorTxId, 32);
  if (id === undefined || !Number.isSafeInteger(cycleEnd) || cycleEnd <= 0) return undefined;
  const bytes = new Uint8Array(2 + 4 + 32 + 8 + 4);
  const v = new DataView(bytes.buffer);
  v.setUint16(0, 0);
  v.setUint32(2, REWARD_AUTO_RENEWED_VALIDATOR_TX);
  bytes.set(id, 6);
  v.setBigUint64(38, BigInt(cycleEnd));
  v.setUint32(46, 0);
  return cb58Encode(createHash('sha256').update(bytes).digest());
}

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

/**
 * platform.getTxStatus {txID} → `{"status":"Committed"}` (vms/platformvm/service.go, status.Status): a
 * proposal tx (a RewardValidatorTx or RewardAutoRenewedValidatorTx) is stored "Committed" when its
 * commit option was accepted, "Aborted" when its abort option was (block/executor/verifier.go: the tx is
 * added to both options' states with those statuses). Others: "Processing", "Dropped", "Unknown".
 */
export const PlatformGetTxStatusResult = z.object({ status: z.string().max(64) });
export type PlatformGetTxStatusResult = z.output<typeof PlatformGetTxStatusResult>;
