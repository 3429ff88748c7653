import type { z } from 'zod';
import { HexQuantity } from './primitives.js';

/** eth_blockNumber on `/ext/bc/C/rpc` (geth-style JSON-RPC): the result is a hex quantity "0x…". */
export const EthBlockNumberResult = HexQuantity;
export type EthBlockNumberResult = z.output<typeof EthBlockNumberResult>;
