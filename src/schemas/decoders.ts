import { InfoPeersLean } from './info.js';
import type { LeanReader } from './lean.js';
import { PlatformGetBlockchainsLean } from './platform-chains.js';
import { PlatformGetCurrentValidatorsLean } from './platform.js';

/**
 * The lean readers of the answers that can be megabytes, by name: what a decode worker
 * (node-client/decode-worker.ts) can read off the event loop. A worker receives a name, not a function;
 * this table is the one place a name becomes a reader, on both sides.
 */
export const DECODERS = {
  'info.peers': InfoPeersLean,
  'platform.getBlockchains': PlatformGetBlockchainsLean,
  'platform.getCurrentValidators': PlatformGetCurrentValidatorsLean,
} as const satisfies Record<string, LeanReader<unknown>>;

export type DecoderName = keyof typeof DECODERS;

const NAMES: ReadonlyMap<unknown, DecoderName> = new Map(Object.entries(DECODERS).map(([name, reader]) => [reader, name as DecoderName]));

/** The name of a reader in DECODERS, or undefined for a schema a worker cannot read (decoded in place). */
export function decoderNameOf(schema: unknown): DecoderName | undefined {
  return NAMES.get(schema);
}
