// The chain aliases the simulated node's chain manager knows (info.getBlockchainID, isBootstrapped,
// platform.getBlockchainStatus).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { C_CHAIN_ID, P_CHAIN_ID, X_CHAIN_ID } from './mainnet-constants.js';
import { l1ChainRunning } from './blockchains.js';
import type { NodeModel } from './node-model.js';

/** Chain aliases known to the chain manager: alias or chain ID -> chain ID; null when unknown. */
export function chainLookup(m: NodeModel, s: string): string | null {
  const aliases: Record<string, string> = {
    P: P_CHAIN_ID,
    platform: P_CHAIN_ID,
    X: X_CHAIN_ID,
    avm: X_CHAIN_ID,
    C: C_CHAIN_ID,
    evm: C_CHAIN_ID,
  };
  if (Object.prototype.hasOwnProperty.call(aliases, s)) return aliases[s] as string;
  if (s === P_CHAIN_ID || s === X_CHAIN_ID || s === C_CHAIN_ID) return s;
  // A chain that is not run (not tracked, or its VM missing) is not aliased (chains/manager.go).
  if (s === m.l1ChainId && l1ChainRunning(m)) return s;
  return null;
}
