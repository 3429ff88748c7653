import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IN_PIECES_FROM_BYTES, parseJsonInPieces } from '../../src/node-client/json-in-pieces.js';

/** `text` as the chunks a socket may deliver: cut every `size` bytes. */
function chunked(text: string, size: number): Buffer[] {
  const b = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

/** An info.peers answer as avalanchego writes it (no spaces), `n` peers. */
function peersAnswer(n: number, extra: (i: number) => string = () => ''): string {
  const peers = Array.from(
    { length: n },
    (_, i) =>
      `{"ip":"10.0.${i >> 8}.${i & 255}:9651","nodeID":"NodeID-${i}","version":"avalanchego/1.14.2","lastReceived":"2026-11-28T07:37:19Z","observedUptime":"99","trackedSubnets":[],"benched":[]${extra(i)}}`,
  );
  return `{"jsonrpc":"2.0","result":{"numPeers":"${n}","peers":[${peers.join(',')}]},"id":1}\n`;
}

describe('parseJsonInPieces', () => {
  it('reads a mainnet-size info.peers answer in pieces, equal to JSON.parse of the whole', () => {
    const text = peersAnswer(2_000);
    expect(text.length).toBeGreaterThan(IN_PIECES_FROM_BYTES * 2);
    for (const size of [1, 7, 1_000, 16_384, 65_536, text.length]) {
      const got = parseJsonInPieces(chunked(text, size));
      expect(got, `chunks of ${size} bytes`).toEqual(JSON.parse(text));
    }
  });

  it('leaves a small answer, one that is not ASCII and one with nowhere to cut to JSON.parse (undefined)', () => {
    expect(parseJsonInPieces(chunked(peersAnswer(10), 100))).toBeUndefined();
    expect(parseJsonInPieces(chunked(peersAnswer(2_000, (i) => (i === 5 ? ',"name":"nœud"' : '')), 4096))).toBeUndefined();
    const spaced = JSON.stringify(JSON.parse(peersAnswer(2_000)), null, 1);
    expect(parseJsonInPieces(chunked(spaced, 4096))).toBeUndefined();
  });

  it('gives up (undefined) on every answer JSON.parse rejects: truncated, a byte changed, garbage after it', () => {
    const text = peersAnswer(1_500);
    const bad = [text.slice(0, 200_000), text.replace('"numPeers":', '"numPeers"='), `${text}}`, text.replace('"benched":[]},{', '"benched":[]},,{'), text.replace(/\]\},\{/, ']}},{')];
    for (const t of bad) {
      expect(() => JSON.parse(t)).toThrow();
      expect(parseJsonInPieces(chunked(t, 8192))).toBeUndefined();
    }
  });

  it('is not fooled by `},{` inside strings or inside nested values', () => {
    // A cut that lands in a string or a nested array leaves a piece that does not parse: the whole is
    // parsed instead (undefined), never a wrong value. avalanchego's answers have neither (bench/RESULTS.md).
    for (const every of [97, 13, 1]) {
      const tricky = peersAnswer(1_500, (i) => (i % every === 50 % every ? ',"note":"a},{b","nested":[{"x":1},{"y":"},{"}]' : ''));
      const got = parseJsonInPieces(chunked(tricky, 5_000), 1_000, 1_000);
      if (got !== undefined) expect(got).toEqual(JSON.parse(tricky));
    }
    expect(parseJsonInPieces(chunked(peersAnswer(1_500, (i) => (i === 700 ? ',"note":"},{"' : '')), 5_000), 200_000, 1_000)).toEqual(JSON.parse(peersAnswer(1_500, (i) => (i === 700 ? ',"note":"},{"' : ''))));
    // The first and last places to cut are inside a string: the skeleton does not parse, nothing is guessed.
    const inString = `{"a":"},{x},{","b":[${'{"k":1},'.repeat(30_000)}{"k":2}],"c":"},{"}`;
    const got = parseJsonInPieces(chunked(inString, 4096));
    if (got !== undefined) expect(got).toEqual(JSON.parse(inString));
  });

  it('a big array at the top, duplicate keys and __proto__ keys read as JSON.parse reads them', () => {
    const top = `[${'{"k":1,"s":"v"},'.repeat(20_000)}{"k":2}]`;
    expect(parseJsonInPieces(chunked(top, 10_000))).toEqual(JSON.parse(top));
    // JSON.parse keeps the last of duplicate keys: the big array is dropped, so is the marker; the whole is parsed.
    const dup = `{"p":[${'{"k":1},'.repeat(20_000)}{"k":2}],"p":0}`;
    expect(parseJsonInPieces(chunked(dup, 10_000))).toBeUndefined();
    const proto = `{"__proto__":{"x":1},"p":[${'{"__proto__":{"y":2}},'.repeat(15_000)}{"k":2}]}`;
    const got = parseJsonInPieces(chunked(proto, 10_000)) as Record<string, unknown>;
    expect(got).toEqual(JSON.parse(proto));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  });

  it('property: any JSON value, any chunking, any piece size: JSON.parse of the whole or undefined', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    let inPieces = 0;
    const doc = fc.record({ head: value, rows: fc.array(fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 4 }), { minLength: 2, maxLength: 60 }), tail: value });
    fc.assert(
      fc.property(doc, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 400 }), fc.nat(3), (d, chunkSize, piece, mutate) => {
        let text = JSON.stringify(d);
        // Now and then a wrong answer: a byte dropped or a `},{` put in.
        if (mutate === 1 && text.length > 2) text = text.slice(0, text.length >> 1) + text.slice((text.length >> 1) + 1);
        if (mutate === 2) text = text.slice(0, text.length >> 1) + '},{' + text.slice(text.length >> 1);
        let expected: unknown;
        let valid = true;
        try {
          expected = JSON.parse(text);
        } catch {
          valid = false;
        }
        const got = parseJsonInPieces(chunked(text, chunkSize), piece, 1);
        if (!valid) expect(got).toBeUndefined();
        else if (got !== undefined) {
          inPieces++;
          expect(got).toEqual(expected);
        }
      }),
      { numRuns: 400, seed: 21 },
    );
    // The property is about the pieces: most valid documents must have been read that way.
    expect(inPieces).toBeGreaterThan(150);
  });
});
