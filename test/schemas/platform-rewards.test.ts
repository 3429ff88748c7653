import { describe, expect, it } from 'vitest';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { decodeCheckedHex, decodeRewardUtxo, PChainAddress, PlatformGetBalanceResult, PlatformGetRewardUTXOsResult, rewardAutoRenewedValidatorTxId, rewardPaid } from '../../src/schemas/platform-rewards.js';
import { result } from '../fixtures/load.js';
import { rewardTxsOfBlocks } from '../helpers/helicon-recording.js';

const OWNER = 'P-avax1d97s60esjz0kv0za4fsxk0gqrep2wkg89pr5r3';

describe('platform.getRewardUTXOs', () => {
  it('default: two TransferOutputs, amounts summed exactly', () => {
    const r = PlatformGetRewardUTXOsResult.parse(result('platform.getRewardUTXOs', 'default'));
    expect(r.utxos.map((u) => u.amount)).toEqual([57_534_246_575n, 500_000_000n]);
    expect(r.numFetched).toBe(2n);
    expect(rewardPaid(r)).toBe(58_034_246_575n);
  });
  it('behavior: no reward → empty list, paid 0', () => {
    expect(rewardPaid(PlatformGetRewardUTXOsResult.parse(result('platform.getRewardUTXOs', 'none')))).toBe(0n);
    expect(rewardPaid(PlatformGetRewardUTXOsResult.parse({ numFetched: '0', utxos: null, encoding: 'hex' }))).toBe(0n);
  });
  it('behavior: a stakeable.LockOut around the TransferOutput', () => {
    expect(rewardPaid(PlatformGetRewardUTXOsResult.parse(result('platform.getRewardUTXOs', 'lockout')))).toBe(1_000_000_000n);
  });
  it('error: a bad checksum, a truncated UTXO, an unknown output type, another encoding are refused', () => {
    const good = result('platform.getRewardUTXOs', 'default').utxos[0] as string;
    const flipped = good.slice(0, 40) + (good[40] === '0' ? '1' : '0') + good.slice(41);
    expect(PlatformGetRewardUTXOsResult.safeParse({ utxos: [flipped] }).error?.issues[0]?.message).toMatch(/bad checksum/);
    const body = decodeCheckedHex(good) as Uint8Array;
    expect(decodeRewardUtxo(body.subarray(0, body.length - 1))).toMatch(/does not match/);
    const other = new Uint8Array(body);
    other[2 + 32 + 4 + 32 + 3] = 9;
    expect(decodeRewardUtxo(other)).toBe('unexpected output type 9');
    expect(decodeRewardUtxo(new Uint8Array(10))).toBe('UTXO too short');
    expect(PlatformGetRewardUTXOsResult.safeParse({ utxos: [], encoding: 'json' }).success).toBe(false);
    expect(decodeCheckedHex('0x12')).toMatch(/too short/);
    expect(decodeCheckedHex('12ab')).toMatch(/expected "0x"/);
  });
});

describe('platform.getBalance', () => {
  it('default: balance = unlocked + lockedStakeable + lockedNotStakeable', () => {
    const b = PlatformGetBalanceResult.parse(result('platform.getBalance', 'default'));
    expect(b.balance).toBe(1_257_534_246_575n);
    expect(b.balance).toBe(b.unlocked! + b.lockedStakeable! + b.lockedNotStakeable!);
  });
  it('behavior: empty (utxoIDs null) and a bad amount', () => {
    expect(PlatformGetBalanceResult.parse(result('platform.getBalance', 'empty')).balance).toBe(0n);
    expect(PlatformGetBalanceResult.safeParse({ balance: '-1' }).success).toBe(false);
  });
});

describe('reward owner addresses', () => {
  it('default: getCurrentValidators keeps validationRewardOwner addresses only', () => {
    const [v] = PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators;
    expect(v!.rewardOwnerAddresses).toEqual([OWNER]);
    expect(v).not.toHaveProperty('validationRewardOwner');
    expect(v).not.toHaveProperty('delegationRewardOwner');
  });
  it('behavior: the real v1.14.2 local-network address shape and invalid ones', () => {
    expect(PChainAddress.safeParse('P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u').success).toBe(true);
    expect(PChainAddress.safeParse(OWNER).success).toBe(true);
    for (const bad of ['P-avax1qself', 'X-avax1d97s60esjz0kv0za4fsxk0gqrep2wkg89pr5r3', '', 'P-avax1' + 'b'.repeat(38)]) expect(PChainAddress.safeParse(bad).success, bad).toBe(false);
  });
});

describe('RewardAutoRenewedValidatorTx ID (ACP-236: the ID a cycle\'s reward UTXOs are filed under)', () => {
  // The IDs a real avalanchego v1.15.0-fuji-rc.4 gave the reward txs of the recorded cycles
  // (test/fixtures/real-node-helicon: README and pblocks-run*.json), with each validator txID and cycle end.
  const RUN1 = 'Wo57DSKtjW2Q5ukmznS6VFGHJ48TfNw7oZgeL8EHDS7BVqfpU';
  const RUN2 = '2pn6y493TjvbQ3JCtka5B8TxrQgt2MfahNuQaEgancLMQa2bn';
  const RECORDED: [string, number, string][] = [
    [RUN1, 1795862332, '2ThDmyc2rtzAVSpFd6g3p3qthGWx376qRhe1q5sYXmrn6K1G2x'],
    [RUN1, 1795862572, 't2F2E96PrpgZm113DUqqJv1vUno5XYTXRv4J7NygsGVEbLWs9'],
    [RUN1, 1795862812, '5P8L8uve728MtEiGP7H4mab4eMiPXLd61NWwBXLJBx8mQQErL'],
    [RUN2, 1795863313, 'MBGVsRBo8s8FrkW72uvsSzhy841wG2iSueJ9yuHiAm5CQFY3u'],
  ];
  it('default: the recorded IDs from (validator txID, cycle end)', () => {
    for (const [tx, end, id] of RECORDED) expect(rewardAutoRenewedValidatorTxId(tx, end), id).toBe(id);
  });
  it('default: every proposal block recorded carries the ID computed from its own tx', () => {
    const blocks = rewardTxsOfBlocks();
    expect(blocks.map((b) => b.height)).toEqual([2, 4, 7, 10]);
    for (const b of blocks) expect(rewardAutoRenewedValidatorTxId(b.txID, b.timestamp), `block ${b.height}`).toBe(b.id);
    // The same cycles as the list above: the block's timestamp is the cycle's end.
    expect(blocks.map((b) => [b.txID, b.timestamp, b.id])).toEqual(RECORDED);
  });
  it('behavior: one second more or another validator gives another ID; invalid inputs give none', () => {
    expect(rewardAutoRenewedValidatorTxId(RUN1, 1795862333)).not.toBe(RECORDED[0]![2]);
    expect(rewardAutoRenewedValidatorTxId(RUN2, 1795862332)).not.toBe(RECORDED[0]![2]);
    for (const [tx, end] of [['not-an-id', 1795862332], [RUN1.slice(0, -1) + 'V', 1795862332], [RUN1, 0], [RUN1, 1.5], [RUN1, -1]] as const) {
      expect(rewardAutoRenewedValidatorTxId(tx, end), `${tx} ${end}`).toBeUndefined();
    }
  });
});
