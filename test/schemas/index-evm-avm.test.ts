import { describe, expect, it } from 'vitest';
import { AvmGetHeightResult } from '../../src/schemas/avm.js';
import { EthBlockNumberResult } from '../../src/schemas/evm.js';
import { IndexGetLastAcceptedResult } from '../../src/schemas/index-api.js';
import { result } from '../fixtures/load.js';

describe('index.getLastAccepted', () => {
  it('default: string index, 9-digit fraction', () => {
    const v = IndexGetLastAcceptedResult.parse(result('index.getLastAccepted', 'P-block'));
    expect(v.index).toBe(23961401n);
    expect(v.timestamp).toBeCloseTo(1778750458.123456789, 6);
  });
  it('behavior: -04:00 offset', () => {
    expect(IndexGetLastAcceptedResult.parse(result('index.getLastAccepted', 'C-block')).timestamp).toBeCloseTo(1778750504.87, 6);
  });
  it('error: bad id checksum, bad timestamp', () => {
    const raw = result('index.getLastAccepted', 'X-block');
    expect(IndexGetLastAcceptedResult.safeParse({ ...raw, id: 'x' + raw.id.slice(1) }).success).toBe(false);
    expect(IndexGetLastAcceptedResult.safeParse({ ...raw, timestamp: '2026-05-14T09:21:12.5' }).error?.issues[0]?.message).toContain(
      'invalid RFC3339 timestamp',
    );
  });
});

describe('eth_blockNumber / avm.getHeight', () => {
  it('default: hex quantity and string height', () => {
    expect(EthBlockNumberResult.parse(result('eth_blockNumber', 'default'))).toBe(0x43fb6b1n);
    expect(AvmGetHeightResult.parse(result('avm.getHeight', 'default')).height).toBe(1203456n);
  });
  it('error: decimal where hex is expected', () => {
    expect(EthBlockNumberResult.safeParse('71284401').success).toBe(false);
    expect(EthBlockNumberResult.safeParse(71284401).success).toBe(false);
  });
});
