// A small JSON decoder that behaves like Go's json.Decoder.Decode for the first
// value of a request body: same error texts for the common syntax errors, the
// first value only (trailing bytes ignored), and the raw text of the top-level
// object members (so that the JSON-RPC `id` can be echoed byte for byte).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { goQuoteChar } from './go-format.js';

export interface Member {
  key: string;
  raw: string;
  value: unknown;
}

export type DecodeResult =
  | { ok: true; value: unknown; kind: 'object' | 'array' | 'string' | 'number' | 'bool' | 'null'; members: Member[] }
  | { ok: false; error: string };

class SyntaxErr extends Error {}

const WS = new Set([' ', '\t', '\n', '\r']);

export function decodeFirst(text: string): DecodeResult {
  const p = new Parser(text);
  p.skipWs();
  if (p.i >= text.length) return { ok: false, error: 'EOF' };
  try {
    const first = text[p.i] as string;
    const members: Member[] = [];
    const value = p.value('looking for beginning of value', members);
    let kind: 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';
    if (first === '{') kind = 'object';
    else if (first === '[') kind = 'array';
    else if (first === '"') kind = 'string';
    else if (first === 't' || first === 'f') kind = 'bool';
    else if (first === 'n') kind = 'null';
    else kind = 'number';
    if (kind === 'number') {
      // A top-level number ends only at a delimiter; Go reports the next byte.
      if (p.i < text.length) {
        const c = text[p.i] as string;
        if (!WS.has(c)) throw new SyntaxErr(`invalid character ${goQuoteChar(c)} after top-level value`);
      }
    }
    return { ok: true, value, kind, members };
  } catch (e) {
    if (e instanceof SyntaxErr) return { ok: false, error: e.message };
    // The JS stack can be shallower than Go's 10000-level limit.
    if (e instanceof RangeError) return { ok: false, error: 'exceeded max depth' };
    throw e;
  }
}

class Parser {
  i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  private enter(): void {
    if (++this.depth > 10000) throw new SyntaxErr('exceeded max depth');
  }

  skipWs(): void {
    while (this.i < this.s.length && WS.has(this.s[this.i] as string)) this.i++;
  }

  private peek(): string {
    if (this.i >= this.s.length) throw new SyntaxErr('unexpected EOF');
    return this.s[this.i] as string;
  }

  value(context: string, topMembers?: Member[]): unknown {
    this.skipWs();
    const c = this.peek();
    if (c === '{') return this.object(topMembers);
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    throw new SyntaxErr(`invalid character ${goQuoteChar(c)} ${context}`);
  }

  private literal(word: string, v: unknown): unknown {
    for (let k = 0; k < word.length; k++) {
      const c = this.peek();
      if (c !== word[k]) {
        throw new SyntaxErr(`invalid character ${goQuoteChar(c)} in literal ${word} (expecting ${goQuoteChar(word[k] as string)})`);
      }
      this.i++;
    }
    return v;
  }

  private number(): number {
    const start = this.i;
    if (this.peek() === '-') {
      this.i++;
      const c = this.peek();
      if (!(c >= '0' && c <= '9')) throw new SyntaxErr(`invalid character ${goQuoteChar(c)} in numeric literal`);
    }
    if (this.peek() === '0') this.i++;
    else while (this.i < this.s.length && /[0-9]/.test(this.s[this.i] as string)) this.i++;
    if (this.i < this.s.length && this.s[this.i] === '.') {
      this.i++;
      const c = this.peek();
      if (!(c >= '0' && c <= '9')) throw new SyntaxErr(`invalid character ${goQuoteChar(c)} after decimal point in numeric literal`);
      while (this.i < this.s.length && /[0-9]/.test(this.s[this.i] as string)) this.i++;
    }
    if (this.i < this.s.length && (this.s[this.i] === 'e' || this.s[this.i] === 'E')) {
      this.i++;
      if (this.peek() === '+' || this.peek() === '-') this.i++;
      const c = this.peek();
      if (!(c >= '0' && c <= '9')) throw new SyntaxErr(`invalid character ${goQuoteChar(c)} in exponent of numeric literal`);
      while (this.i < this.s.length && /[0-9]/.test(this.s[this.i] as string)) this.i++;
    }
    return Number(this.s.slice(start, this.i));
  }

  private string(): string {
    const start = this.i;
    this.i++; // opening quote
    for (;;) {
      const c = this.peek();
      if (c === '"') {
        this.i++;
        return JSON.parse(this.s.slice(start, this.i)) as string;
      }
      if (c === '\\') {
        this.i++;
        const e = this.peek();
        if (e === 'u') {
          this.i++;
          for (let k = 0; k < 4; k++) {
            const h = this.peek();
            if (!/[0-9a-fA-F]/.test(h)) throw new SyntaxErr(`invalid character ${goQuoteChar(h)} in \\u hexadecimal character escape`);
            this.i++;
          }
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) throw new SyntaxErr(`invalid character ${goQuoteChar(e)} in string escape code`);
        this.i++;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) throw new SyntaxErr(`invalid character ${goQuoteChar(c)} in string literal`);
      this.i++;
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    if (this.open(']')) return out;
    do {
      out.push(this.value('looking for beginning of value'));
    } while (this.another(']', 'array element'));
    return out;
  }

  /** Enters the array or object at its opening character; true when it is empty (and so closed). */
  private open(close: string): boolean {
    this.enter();
    this.i++;
    this.skipWs();
    if (this.peek() !== close) return false;
    this.i++;
    this.depth--;
    return true;
  }

  /** After an element of an array or object: true at a ',' (another follows), false at `close` (it is closed). */
  private another(close: string, element: string): boolean {
    this.skipWs();
    const c = this.peek();
    if (c === ',') {
      this.i++;
      return true;
    }
    if (c === close) {
      this.i++;
      this.depth--;
      return false;
    }
    throw new SyntaxErr(`invalid character ${goQuoteChar(c)} after ${element}`);
  }

  private object(members?: Member[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.open('}')) return out;
    do {
      this.skipWs();
      const c = this.peek();
      if (c !== '"') throw new SyntaxErr(`invalid character ${goQuoteChar(c)} looking for beginning of object key string`);
      const key = this.string();
      this.skipWs();
      const colon = this.peek();
      if (colon !== ':') throw new SyntaxErr(`invalid character ${goQuoteChar(colon)} after object key`);
      this.i++;
      this.skipWs();
      const vStart = this.i;
      const v = this.value('looking for beginning of value');
      const vEnd = this.i;
      Object.defineProperty(out, key, { value: v, enumerable: true, configurable: true, writable: true });
      if (members) members.push({ key, raw: this.s.slice(vStart, vEnd), value: v });
    } while (this.another('}', 'object key:value pair'));
    return out;
  }
}

/**
 * Go's json.Compact for a raw value that is already known to be valid:
 * whitespace outside strings removed, HTML characters escaped.
 */
export function compactRaw(raw: string): string {
  let out = '';
  let inStr = false;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k] as string;
    if (inStr) {
      if (c === '\\') {
        out += c + (raw[k + 1] ?? '');
        k++;
        continue;
      }
      if (c === '"') inStr = false;
      if (c === '<' || c === '>' || c === '&' || c === '\u2028' || c === '\u2029') {
        out += '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
        continue;
      }
      out += c;
      continue;
    }
    if (c === '"') inStr = true;
    if (WS.has(c)) continue;
    out += c;
  }
  return out;
}
