import { z } from 'zod';
import { CB58Id, Rfc3339Seconds, U64 } from './primitives.js';

/**
 * Index API (`/ext/index/{P,X,C}/{block,tx,vtx}`, only with `--index-enabled`), docs/avalanchego-wire.md §6.
 * `bytes` ("0x"+hex+checksum, a whole container, large on C) is kept as an unchecked string.
 * `timestamp` is when THIS node accepted/indexed the container; `index` is a 0-based string.
 */
export const IndexGetLastAcceptedResult = z.object({
  id: CB58Id,
  bytes: z.string().optional(),
  timestamp: Rfc3339Seconds,
  encoding: z.string().optional(),
  index: U64,
});
export type IndexGetLastAcceptedResult = z.output<typeof IndexGetLastAcceptedResult>;
