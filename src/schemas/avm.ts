import { z } from 'zod';
import { U64 } from './primitives.js';

/** avm.getHeight on `/ext/bc/X`: `{"height":"…"}` (string; a number is tolerated). */
export const AvmGetHeightResult = z.object({ height: U64 });
export type AvmGetHeightResult = z.output<typeof AvmGetHeightResult>;
