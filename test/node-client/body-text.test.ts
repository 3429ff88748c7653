// The text of a node's answer (src/node-client/body-text.ts): ASCII copied as Latin-1, anything else
// decoded as UTF-8; whichever path a body takes, the text is the one UTF-8 decoding gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyTextDecoder, bodyText } from '../../src/node-client/body-text.js';

const utf8 = (b: Buffer) => b.toString('utf8');

/** A body cut into chunks at the given offsets, through the streaming decoder. */
function streamed(body: Buffer, cuts: readonly number[]): string {
  const d = new BodyTextDecoder();
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const c of [...at, body.length]) {
    out += d.write(body.subarray(from, c));
    from = c;
  }
  return out + d.end();
}

describe('body text', () => {
  it('default: an ASCII body is the same string as its UTF-8 decoding', () => {
    const b = Buffer.from('{"jsonrpc":"2.0","result":{"nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"},"id":1}');
    expect(bodyText(b)).toBe(utf8(b));
  });

  it('behavior: non-ASCII text (a version string, a help text) and broken UTF-8 decode exactly as UTF-8 does', () => {
    for (const b of [Buffer.from('{"msg":"héllo € 🚀"}'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), Buffer.from([0x61, 0xe2, 0x82])]) {
      expect(bodyText(b)).toBe(utf8(b));
      expect(streamed(b, [1, 2])).toBe(utf8(b));
    }
  });

  it('behavior: a character cut between two chunks after ASCII chunks is whole in the text', () => {
    const b = Buffer.from('# HELP x ascii first\nx{a="€"} 1\n');
    const euro = b.indexOf(0xe2);
    expect(streamed(b, [5, euro + 1])).toBe(utf8(b));
    expect(streamed(b, [euro + 2])).toBe(utf8(b));
  });

  it('property: any bytes, cut anywhere, give the text UTF-8 decoding of the whole body gives', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(400), { maxLength: 8 }), fc.boolean(), (bytes, cuts, ascii) => {
        const b = Buffer.from(ascii ? bytes.map((x) => x & 0x7f) : bytes);
        expect(bodyText(b)).toBe(utf8(b));
        expect(streamed(b, cuts)).toBe(utf8(b));
      }),
      { numRuns: 500 },
    );
  });
});
