import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes of a node's answer as text. A node's JSON and its /ext/metrics are ASCII nearly always, and
 * V8's UTF-8 decoding was the largest single cost of the main thread with 1,000 targets (a tenth of
 * it: about 290 MB/s on the bench machine, bench/RESULTS.md issue 21). ASCII is the same text in
 * Latin-1, which is a copy (isAscii checks with SIMD); anything else is decoded as UTF-8, as before.
 */
export function bodyText(buf: Buffer): string {
  return buf.toString(isAscii(buf) ? 'latin1' : 'utf8');
}

/**
 * A streamed body's text chunk by chunk. ASCII chunks are copied as Latin-1 until the first chunk that
 * is not; from that one on, a StringDecoder decodes UTF-8 (it keeps a character split between two
 * chunks for the next). Before it, nothing can be pending: every byte so far was a whole character.
 */
export class BodyTextDecoder {
  private utf8: StringDecoder | undefined;

  write(chunk: Buffer): string {
    if (!this.utf8 && isAscii(chunk)) return chunk.toString('latin1');
    this.utf8 ??= new StringDecoder('utf8');
    return this.utf8.write(chunk);
  }

  end(): string {
    return this.utf8?.end() ?? '';
  }
}
