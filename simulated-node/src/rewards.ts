// platform.getRewardUTXOs and platform.getBalance of the simulated node (vms/platformvm/service.go,
// avalanchego v1.14.2 and v1.15.0; both deprecated since v1.9.12 and still served). With a fixed end, reward
// UTXOs exist only for the own validation that ends in `reward-paid` (reward-period.ts) or at a re-stake of the
// run (own-history.ts), filed under its txID; `reward-missed` ends it without any (an aborted RewardValidatorTx). An auto-renewed own validator
// (ACP-236, version 1.15.0) has none under its txID: each cycle's are filed under the ID of the cycle's
// RewardAutoRenewedValidatorTx {txID, cycle end} (computed here with this file's own codec): at a commit the
// withdrawn shares of the potential reward (to the validation owner) and of the delegation fees (to the
// delegation owner), at an abort the shares re-staked before and the fees, returned (proposal_tx_executor.go
// mintRewards, output indexes from 0). The reward owner addresses hold a seeded balance plus what was paid.
// UTXOs are written with the P-Chain codec (version 0, secp256k1fx.TransferOutput type ID 7) and
// formatting.Hex (with its 4-byte sha256 checksum), by this file's own code.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { cb58Decode, cb58Encode } from './avalanche-ids.js';
import { derivedBytes, h32, sha256 } from './deterministic-random.js';
import { goQuote } from './go-format.js';
import { Args, ARG_ERROR, RpcError, type Service } from './json-rpc-envelope.js';
import { AVAX_ASSET_ID, NAVAX } from './mainnet-constants.js';
import { isAutoRenewed } from './auto-renew.js';
import { rewardEndAfterS } from './reward-period.js';
import { ownLedgers, ownRegistrations, validatorJson, validatorTxId, type ValidatorDef, type ValidatorRegistryModel } from './validator-registry.js';

/** What this file needs of the node model (NodeModel satisfies it structurally). */
export interface RewardsModel extends ValidatorRegistryModel {
  now(): number;
  readonly isValidator: boolean;
  readonly selfNow: ValidatorDef;
}

interface PaidReward {
  txID: string;
  /** validation reward, then the accrued delegation fee (when any), nAVAX */
  amounts: bigint[];
}

/** Whether the own validator is auto-renewed at `atS` (ACP-236: its rewards are per cycle, never under its txID). */
function ownAutoRenewed(m: RewardsModel, atS: number): boolean {
  return isAutoRenewed(m.seed, m.profile.autoRenewedStakers, m.selfNow, atS);
}

/**
 * The own validations with a fixed end that ended with a reward outcome, and what each paid: the reward scenario's
 * (none in reward-missed), and every re-stake of the run (own-history.ts: its reward paid) while a validator.
 */
function endedOwn(m: RewardsModel, nowS: number): PaidReward[] {
  if (!m.isValidator) return [];
  const outcome = m.active.validators?.rewardOutcome;
  const ends: { end: number; paid: boolean }[] = m.history.registrations.filter((r) => r.kind === 'restake').map((r) => ({ end: r.atS, paid: true }));
  if (outcome !== undefined) ends.push({ end: m.switchS + rewardEndAfterS(outcome), paid: outcome === 'paid' });
  return ends.flatMap(({ end, paid }) => {
    if (nowS < end || ownAutoRenewed(m, end)) return [];
    // The entry as it was in its last second: the potential reward the node showed.
    const j = validatorJson(m, m.selfNow, end - 1, false);
    if (!paid) return [{ txID: j['txID'] as string, amounts: [] }];
    const amounts = [BigInt(j['potentialReward'] as string)];
    const accrued = BigInt(j['accruedDelegateeReward'] as string);
    if (accrued > 0n) amounts.push(accrued);
    return [{ txID: j['txID'] as string, amounts }];
  });
}

/** The P-Chain codec's type ID of RewardAutoRenewedValidatorTx (vms/platformvm/txs/codec.go, Helicon types). */
const REWARD_AUTO_RENEWED_VALIDATOR_TX = 42;

/** ID of the RewardAutoRenewedValidatorTx {txID, timestamp = cycle end}, no credentials: sha256 of its signed bytes. */
export function rewardAutoRenewedTxId(txID: string, cycleEnd: number): string {
  return cb58Encode(sha256(Buffer.concat([Buffer.from([0, 0]), u32(REWARD_AUTO_RENEWED_VALIDATOR_TX), cb58Decode(txID) as Buffer, u64(BigInt(cycleEnd)), u32(0)])));
}

/** What one ended cycle of the own auto-renewed validator paid, under its reward tx ID. */
interface CyclePayout {
  readonly rewardTxId: string;
  readonly end: number;
  /** To the validation reward owner, then to the delegation reward owner, nAVAX. */
  readonly validation: bigint;
  readonly delegatee: bigint;
}

/** Every ended cycle of the own auto-renewed registrations up to `nowS`, with what its reward tx paid. */
function ownCyclePayouts(m: RewardsModel, nowS: number): CyclePayout[] {
  if (!m.isValidator || !ownAutoRenewed(m, nowS)) return [];
  const out: CyclePayout[] = [];
  for (const reg of ownRegistrations(m, m.active.validators?.rewardOutcome, nowS)) {
    const txID = validatorTxId(m, m.selfNow, reg.key);
    const ledgers = ownLedgers(m, m.selfNow, reg);
    let restakedV = 0n;
    let restakedD = 0n;
    ledgers.forEach((l, i) => {
      if (l.end > nowS) return;
      const aborted = reg.aborted && i === ledgers.length - 1;
      const validation = aborted ? restakedV : l.withdrawnValidation;
      const delegatee = aborted ? l.delegatee + restakedD : l.withdrawnDelegatee;
      out.push({ rewardTxId: rewardAutoRenewedTxId(txID, l.end), end: l.end, validation, delegatee });
      restakedV += l.restakedValidation;
      restakedD += l.restakedDelegatee;
    });
  }
  return out;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const ADDRESS = /^P-([a-z0-9]{1,30})1([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38})$/;

/** The 20 bytes of a P-avax1… address (checksum not verified: the simulator wrote it). */
function addressBytes(addr: string): Buffer | null {
  const m = ADDRESS.exec(addr);
  if (!m) return null;
  const words = [...(m[2] as string).slice(0, -6)].map((c) => BECH32.indexOf(c));
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const w of words) {
    acc = (acc << 5) | w;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return out.length === 20 ? Buffer.from(out) : null;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
}

/** avax.UTXO with a TransferOutput to one address, codec version 0, as formatting.Hex. */
function rewardUtxoHex(txID: string, index: number, amount: bigint, owner: Buffer): string {
  const bytes = Buffer.concat([
    Buffer.from([0, 0]),
    cb58Decode(txID) as Buffer,
    u32(index),
    cb58Decode(AVAX_ASSET_ID) as Buffer,
    u32(7),
    u64(amount),
    u64(0n), // locktime
    u32(1), // threshold
    u32(1),
    owner,
  ]);
  return '0x' + Buffer.concat([bytes, sha256(bytes).subarray(28)]).toString('hex');
}

/** Index of the first reward output: after the stake outputs (one) and the change. */
const FIRST_REWARD_OUTPUT = 2;

/** The seeded balance of the own reward owner, nAVAX. */
function baseBalance(m: RewardsModel): bigint {
  return 12n * NAVAX + BigInt(h32(m.seed, 91) % 1_000_000_000);
}

export function rewardMethods(m: RewardsModel): Service {
  return {
    GetRewardUTXOs: (a: Args) => {
      const enc = a.str('encoding');
      if (enc !== '' && enc !== 'hex') throw new RpcError(ARG_ERROR);
      const tx = a.id('txID');
      const nowS = Math.floor(m.now() / 1000);
      const paid = endedOwn(m, nowS).find((p) => p.txID === tx);
      const owner = addressBytes(m.selfNow.rewardAddr) as Buffer;
      let utxos = paid ? paid.amounts.map((x, i) => rewardUtxoHex(paid.txID, FIRST_REWARD_OUTPUT + i, x, owner)) : [];
      const cycle = ownCyclePayouts(m, nowS).find((c) => c.rewardTxId === tx);
      if (cycle) {
        const outputs: [bigint, string][] = [[cycle.validation, m.selfNow.rewardAddr], [cycle.delegatee, m.selfNow.delegRewardAddr]];
        utxos = outputs.filter(([x]) => x > 0n).map(([x, addr], i) => rewardUtxoHex(cycle.rewardTxId, i, x, addressBytes(addr) as Buffer));
      }
      return { numFetched: String(utxos.length), utxos, encoding: 'hex' };
    },
    GetBalance: (a: Args) => {
      const addrs = new Set(a.strings('addresses'));
      for (const x of addrs) if (!addressBytes(x)) throw new RpcError(`couldn't parse address ${goQuote(x)}: invalid separator or checksum`);
      const utxoIDs: { txID: string; outputIndex: number }[] = [];
      let unlocked = 0n;
      const nowS = Math.floor(m.now() / 1000);
      if (addrs.has(m.selfNow.rewardAddr)) {
        unlocked += baseBalance(m);
        utxoIDs.push({ txID: cb58Encode(derivedBytes(`owner-funding/${m.seed}`, 32)), outputIndex: 0 });
        for (const paid of endedOwn(m, nowS)) {
          paid.amounts.forEach((x, i) => {
            unlocked += x;
            utxoIDs.push({ txID: paid.txID, outputIndex: FIRST_REWARD_OUTPUT + i });
          });
        }
      }
      // The cycles of an auto-renewed own validator: each owner its UTXOs (validation first, at index 0).
      for (const c of ownCyclePayouts(m, nowS)) {
        const outputs: [bigint, string][] = [[c.validation, m.selfNow.rewardAddr], [c.delegatee, m.selfNow.delegRewardAddr]];
        outputs.filter(([x]) => x > 0n).forEach(([x, addr], i) => {
          if (!addrs.has(addr)) return;
          unlocked += x;
          utxoIDs.push({ txID: c.rewardTxId, outputIndex: i });
        });
      }
      const map = unlocked > 0n ? { [AVAX_ASSET_ID]: unlocked.toString() } : {};
      return {
        balance: unlocked.toString(),
        unlocked: unlocked.toString(),
        lockedStakeable: '0',
        lockedNotStakeable: '0',
        balances: map,
        unlockeds: map,
        lockedStakeables: {},
        lockedNotStakeables: {},
        utxoIDs: utxoIDs.length > 0 ? utxoIDs : null,
      };
    },
  };
}
