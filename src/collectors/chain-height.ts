import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { AvmGetHeightResult } from '../schemas/avm.js';
import { EthBlockNumberResult } from '../schemas/evm.js';
import { PlatformGetHeightResult, PlatformGetTimestampResult } from '../schemas/platform.js';
import { u64ToNumber } from '../schemas/primitives.js';
import { defineCollector, eachCall, type CollectorOf } from './define.js';

/**
 * The answers that came back (each call is independent), published for the blocks behind a reference target.
 * `c` is eth_blockNumber: under SAE (ACP-194, avalanchego v1.15.0+ once Helicon activated) the last executed
 * block (`latest`), which trails the last accepted one by the node's execution queue; node-metrics reads the
 * accepted, executed and settled heights from /ext/metrics. Every node of a network answers alike, so the
 * comparisons across targets (behind-reference, bootstrap-target) hold.
 */
export interface ChainHeightValue {
  readonly p?: bigint;
  readonly c?: bigint;
  readonly x?: bigint;
  /** P-Chain time, Unix seconds. */
  readonly pTimestamp?: number;
}

/** The chains whose height this collector reads, as their `chain` label. */
export const HEIGHT_CHAINS = ['P', 'C', 'X'] as const;
export type HeightChain = (typeof HEIGHT_CHAINS)[number];

/**
 * The heights that came back, by chain label (a chain answers only once it has bootstrapped: 503
 * before). Also what the fleet derivations compare across targets (behind-reference, bootstrap-target).
 */
export function heightsByChain(v: ChainHeightValue | undefined): Map<HeightChain, number> {
  const out = new Map<HeightChain, number>();
  if (v?.p !== undefined) out.set('P', u64ToNumber(v.p));
  if (v?.c !== undefined) out.set('C', u64ToNumber(v.c));
  if (v?.x !== undefined) out.set('X', u64ToNumber(v.x));
  return out;
}

export function toSamples(v: ChainHeightValue): Sample[] {
  const out: Sample[] = [];
  for (const [chain, h] of heightsByChain(v)) out.push(sample('avax_chain_height', { chain }, h));
  if (v.pTimestamp !== undefined) out.push(sample('avax_pchain_timestamp_seconds', {}, v.pTimestamp));
  return out;
}

export const platformGetHeightCall = rpcCall({ method: 'platform.getHeight', endpoint: ENDPOINTS.platform, result: PlatformGetHeightResult });
// geth-style JSON-RPC: params is an array.
export const ethBlockNumberCall = rpcCall({ method: 'eth_blockNumber', endpoint: ENDPOINTS.cchainRpc, wire: () => [], result: EthBlockNumberResult });
export const avmGetHeightCall = rpcCall({ method: 'avm.getHeight', endpoint: ENDPOINTS.xchain, result: AvmGetHeightResult });
export const platformGetTimestampCall = rpcCall({ method: 'platform.getTimestamp', endpoint: ENDPOINTS.platform, result: PlatformGetTimestampResult });

export const chainHeight: CollectorOf<'chain-height', ChainHeightValue> = defineCollector({
  name: 'chain-height',
  description: 'Heights of P (platform.getHeight), C (eth_blockNumber: the last executed block under SAE, v1.15.0+) and X (avm.getHeight), and P-Chain time.',
  needs: 'P-Chain, X-Chain and C-Chain RPC APIs (each answers 503 until its chain has bootstrapped)',
  interval: 15,
  metrics: [
    gauge(
      'avax_chain_height',
      'Height each chain\'s API reports: P platform.getHeight and X avm.getHeight (last accepted); C eth_blockNumber, the last accepted block on Coreth but the last executed one under SAE (avalanchego v1.15.0+ after Helicon: avax_node_cchain_last_executed_height; accepted: avax_node_last_accepted_height{chain="C"}, settled: avax_node_cchain_last_settled_height).',
      ['chain'],
    ),
    gauge('avax_pchain_timestamp_seconds', 'P-Chain time from platform.getTimestamp, as Unix seconds.'),
  ],
  ...eachCall([platformGetHeightCall, ethBlockNumberCall, avmGetHeightCall, platformGetTimestampCall], ([p, c, x, t]) => {
    const value: ChainHeightValue = { p: p?.height, c, x: x?.height, pTimestamp: t?.timestamp };
    return { value, samples: toSamples(value) };
  }),
});
