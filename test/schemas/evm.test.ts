import { describe, expect, it } from 'vitest';
import { EthBlockNumberResult } from '../../src/schemas/evm.js';
import { result } from '../fixtures/load.js';

describe('eth_blockNumber', () => {
  it('default: hex quantity', () => {
    expect(EthBlockNumberResult.parse(result('eth_blockNumber', 'default'))).toBe(0x43fb6b1n);
  });
  it('error: decimal where hex is expected', () => {
    expect(EthBlockNumberResult.safeParse('71284401').success).toBe(false);
    expect(EthBlockNumberResult.safeParse(71284401).success).toBe(false);
  });
});
