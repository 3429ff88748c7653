import { isAscii } from 'node:buffer';
import { randomBytes } from 'node:crypto';

/**
 * JSON.parse of a big answer without one big string. V8 puts a string of more than 128 KB in its
 * large-object space: memory mapped fresh from the kernel for each one and unmapped when it dies. A
 * mainnet node's info.peers (about 640 KB, every 30 s per target) cost more in those page faults than
 * in parsing (bench/RESULTS.md: about 2 ms and 165 faults for the string against 1.1 ms of JSON.parse on
 * the bench machine), and Buffer.concat of its chunks faulted in half as many again.
 *
 * avalanchego's big answers are arrays of objects written without spaces (Go's encoding/json), so
 * `},{` falls between two elements of them. The answer is read as pieces cut at such places, each a
 * string under 128 KB from the chunks as they came (no concatenation):
 *
 * - a skeleton: the bytes before the first cut and after the last, with a marker string between them
 *   (`...{first}, "#marker", {last}...`), parsed on its own;
 * - the elements between the first and the last cut, parsed as `[` piece `]` each, a few per piece;
 * - then the elements take the marker's place in the array that holds it.
 *
 * The pieces joined are the answer's bytes exactly, so when every piece parses, the result is what
 * JSON.parse of the whole text gives. A cut inside a string or inside a nested value leaves a piece
 * that does not parse (an unterminated string, unbalanced brackets); then, and for anything else it
 * does not handle (not ASCII, no cut, a marker not found exactly once), it returns undefined and the
 * caller parses the whole text as before, so a wrong answer fails with the same error as always.
 */

/** Below this, one string is allocated in V8's young generation anyway: nothing to gain. */
export const IN_PIECES_FROM_BYTES = 128 * 1024;
/** Bytes per piece: its string stays well under V8's 128 KB large-object size. */
export const PIECE_BYTES = 64 * 1024;

const CUT = Buffer.from('},{', 'latin1');
/** Not predictable by a node, and invalid JSON where it is not a string (a cut inside a string cannot parse). */
const MARKER = `#in-pieces-${randomBytes(12).toString('hex')}`;

/** The answer's chunks as one run of bytes, without copying them together. */
class Chunks {
  private readonly starts: number[] = [];
  readonly length: number;

  constructor(private readonly chunks: readonly Buffer[]) {
    let at = 0;
    for (const c of chunks) {
      this.starts.push(at);
      at += c.length;
    }
    this.length = at;
  }

  /** Index of the chunk that holds byte `pos` (pos < length). */
  private chunkAt(pos: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private byteAt(pos: number): number {
    const k = this.chunkAt(pos);
    return this.chunks[k]![pos - this.starts[k]!]!;
  }

  /** First `},{` at or after `from`, also across two or three chunks; -1 when there is none. */
  indexOfCut(from: number): number {
    if (from >= this.length) return -1;
    for (let k = this.chunkAt(from); k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const start = this.starts[k]!;
      const local = c.indexOf(CUT, Math.max(0, from - start));
      if (local >= 0) return start + local;
      // A cut that begins in this chunk's last two bytes and ends in the next chunk(s).
      for (let p = Math.max(from, start + c.length - 2); p < start + c.length; p++) {
        if (p + 2 < this.length && this.byteAt(p) === CUT[0] && this.byteAt(p + 1) === CUT[1] && this.byteAt(p + 2) === CUT[2]) return p;
      }
    }
    return -1;
  }

  /** Bytes [a, b) as Latin-1 text (the caller checked they are ASCII). */
  text(a: number, b: number): string {
    let out = '';
    for (let k = this.chunkAt(a); k < this.chunks.length && this.starts[k]! < b; k++) {
      const start = this.starts[k]!;
      const c = this.chunks[k]!;
      out += c.toString('latin1', Math.max(0, a - start), Math.min(c.length, b - start));
    }
    return out;
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The one array that holds the marker as an element, and where; undefined unless exactly one. */
function findMarker(root: unknown): { array: unknown[]; index: number } | undefined {
  let found: { array: unknown[]; index: number } | undefined;
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const e = v[i];
        if (e === MARKER) {
          found = { array: v, index: i };
          count++;
        } else if (typeof e === 'object' && e !== null) stack.push(e);
      }
    } else if (typeof v === 'object' && v !== null) {
      for (const key of Object.keys(v)) {
        const e = (v as Record<string, unknown>)[key];
        if (typeof e === 'object' && e !== null) stack.push(e);
      }
    }
  }
  return count === 1 ? found : undefined;
}

/**
 * The parsed answer, equal to JSON.parse of the chunks' text; undefined when it was not read in pieces
 * (small, not ASCII, no place to cut, or a piece that does not parse): parse the whole text then.
 * `pieceBytes` and `fromBytes` are for tests.
 */
export function parseJsonInPieces(chunks: readonly Buffer[], pieceBytes = PIECE_BYTES, fromBytes = IN_PIECES_FROM_BYTES): unknown {
  const doc = new Chunks(chunks);
  if (doc.length < fromBytes) return undefined;
  for (const c of chunks) if (!isAscii(c)) return undefined;
  const cuts: number[] = [];
  for (let at = doc.indexOfCut(0); at >= 0; at = doc.indexOfCut(Math.max(at + 3, cuts[cuts.length - 1]! + pieceBytes))) {
    cuts.push(at);
  }
  if (cuts.length < 2) return undefined;
  // Every cut is `},{` at position c: an element ends at c (its `}`), the next begins at c + 2 (its `{`).
  const values: unknown[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const piece = parseOrUndefined(`[${doc.text(cuts[i]! + 2, cuts[i + 1]! + 1)}]`);
    if (!Array.isArray(piece)) return undefined;
    for (const v of piece) values.push(v);
  }
  const first = cuts[0]!;
  const last = cuts[cuts.length - 1]!;
  const skeleton = parseOrUndefined(`${doc.text(0, first + 1)},"${MARKER}"${doc.text(last + 1, doc.length)}`);
  if (skeleton === undefined) return undefined;
  const at = findMarker(skeleton);
  if (!at) return undefined;
  const { array, index } = at;
  const tail = array.slice(index + 1);
  array.length = index;
  for (const v of values) array.push(v);
  for (const v of tail) array.push(v);
  return skeleton;
}
