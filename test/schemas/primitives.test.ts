import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CB58Id,
  cb58Encode,
  GO_ZERO_TIME_SECONDS,
  HexBytes,
  HexQuantity,
  isGoZeroTime,
  navaxToAvax,
  NodeId,
  parseRfc3339,
  Percentage,
  Rfc3339Seconds,
  SmallInt,
  U64,
  u64ToNumber,
  UNSCHEDULED_SECONDS,
} from '../../src/schemas/primitives.js';

function messages(schema: z.ZodType, v: unknown): string {
  const r = schema.safeParse(v);
  expect(r.success).toBe(false);
  return r.error!.issues.map((i) => i.message).join('; ');
}

describe('U64', () => {
  it.each([
    ['default: decimal string', '2000000000000', 2000000000000n],
    ['behavior: number', 23961402, 23961402n],
    ['behavior: beyond 2^53 stays exact', '9007199254740993', 9007199254740993n],
    ['behavior: u64 max', '18446744073709551615', 18446744073709551615n],
    ['behavior: zero', '0', 0n],
  ])('%s', (_n, input, want) => {
    expect(U64.parse(input)).toBe(want);
  });
  it.each([
    ['error: negative', '-1'],
    ['error: fraction', '1.5'],
    ['error: empty', ''],
    ['error: hex', '0x10'],
    ['error: beyond 64 bits', '18446744073709551616'],
    ['error: fractional number', 1.5],
    ['error: boolean', true],
    ['error: null', null],
  ])('%s', (_n, input) => {
    expect(U64.safeParse(input).success).toBe(false);
  });
  it('error: message names the value', () => {
    expect(messages(U64, 'abc')).toContain('"abc"');
  });
  it('default: u64ToNumber', () => {
    expect(u64ToNumber(23961402n)).toBe(23961402);
  });
});

describe('SmallInt', () => {
  it('default: string and number', () => {
    expect(SmallInt.parse('1738')).toBe(1738);
    expect(SmallInt.parse(5)).toBe(5);
  });
  it('error: not an unsigned integer', () => {
    expect(SmallInt.safeParse('12a').success).toBe(false);
    expect(SmallInt.safeParse(-3).success).toBe(false);
    expect(SmallInt.safeParse('99999999999999999999').success).toBe(false);
  });
});

describe('Percentage', () => {
  it.each([
    ['default: 4 decimals', '99.9103', 99.9103],
    ['behavior: Float32 style', '2.0000', 2],
    ['behavior: integer string', '100', 100],
    ['behavior: fewer decimals', '99.5', 99.5],
    ['behavior: number', 97.25, 97.25],
  ])('%s', (_n, input, want) => {
    expect(Percentage.parse(input)).toBe(want);
  });
  it('error: not a number', () => {
    expect(messages(Percentage, '99,91')).toContain('expected a decimal number');
    expect(Percentage.safeParse('NaN').success).toBe(false);
    expect(Percentage.safeParse(true).success).toBe(false);
  });
});

describe('navaxToAvax', () => {
  it.each([
    ['default: 2,000 AVAX', 2_000_000_000_000n, 2000],
    ['behavior: fraction', 25_500_000_001n, 25.500000001],
    ['behavior: zero', 0n, 0],
    ['behavior: beyond 2^53 nAVAX', 9_007_199_254_740_993n, 9007199.254740993],
    ['behavior: u64 max', 18_446_744_073_709_551_615n, 18446744073.709551615],
  ])('%s', (_n, input, want) => {
    expect(navaxToAvax(input)).toBeCloseTo(want, 6);
  });
  it('behavior: no precision surprise against a naive Number(x)/1e9', () => {
    // 2^53 + 1 nAVAX: Number() alone would round the last nAVAX away before dividing.
    expect(navaxToAvax(9_007_199_254_740_993n)).toBe(9007199 + 0.254740993);
  });
});

describe('CB58Id and NodeId', () => {
  const primary = '11111111111111111111111111111111LpoYY';
  it('default: primary network ID and a generated 32-byte ID', () => {
    expect(CB58Id.parse(primary)).toBe(primary);
    const id = cb58Encode(new Uint8Array(32).fill(9));
    expect(CB58Id.parse(id)).toBe(id);
  });
  it('default: NodeID with a 20-byte payload', () => {
    const n = `NodeID-${cb58Encode(new Uint8Array(20).fill(3))}`;
    expect(NodeId.parse(n)).toBe(n);
    expect(NodeId.parse('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')).toBe('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
  });
  it('error: bad checksum', () => {
    expect(messages(CB58Id, '11111111111111111111111111111111LpoYZ')).toMatch(/invalid CB58 ID .*bad checksum/);
    expect(messages(NodeId, 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh')).toMatch(/invalid NodeID .*bad checksum/);
  });
  it('error: not base58 (0, O, I, l are not in the alphabet)', () => {
    expect(CB58Id.safeParse('0OIl1111111111111111111111111111LpoYY').success).toBe(false);
  });
  it('error: wrong payload length', () => {
    const short = cb58Encode(new Uint8Array(20).fill(3));
    expect(messages(CB58Id, short)).toContain('payload is 20 bytes, expected 32');
    expect(messages(NodeId, `NodeID-${cb58Encode(new Uint8Array(32))}`)).toContain('payload is 32 bytes, expected 20');
  });
  it('error: NodeID without prefix', () => {
    expect(messages(NodeId, '7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')).toContain('missing "NodeID-" prefix');
  });
  it('error: wrong type', () => {
    expect(CB58Id.safeParse(42).success).toBe(false);
  });
});

describe('Rfc3339Seconds', () => {
  it.each([
    ['default: UTC, no fraction', '2026-05-14T09:21:31Z', 1778750491],
    ['behavior: -04:00 offset', '2026-05-14T05:21:31-04:00', 1778750491],
    ['behavior: +05:30 offset', '2026-05-14T14:51:31+05:30', 1778750491],
    ['behavior: 1 fraction digit', '2026-05-14T09:21:31.5Z', 1778750491.5],
    ['behavior: 9 fraction digits', '2026-05-14T09:21:31.123456789Z', 1778750491.123456789],
    ['behavior: lower-case z', '2026-05-14T09:21:31z', 1778750491],
    ['behavior: leap day', '2024-02-29T00:00:00Z', 1709164800],
    ['behavior: Go zero time', '0001-01-01T00:00:00Z', GO_ZERO_TIME_SECONDS],
    ['behavior: unscheduled upgrade', '9999-12-01T00:00:00Z', UNSCHEDULED_SECONDS],
    ['behavior: epoch', '1970-01-01T00:00:00Z', 0],
  ])('%s', (_n, input, want) => {
    expect(Rfc3339Seconds.parse(input)).toBeCloseTo(want, 6);
  });
  it('behavior: agrees with Date.parse where Date.parse is exact (3 digits)', () => {
    for (const s of ['2021-03-31T14:00:00.123Z', '1999-12-31T23:59:59.999+01:00', '2026-07-28T15:00:00-07:00']) {
      expect(parseRfc3339(s)).toBeCloseTo(Date.parse(s) / 1000, 6);
    }
  });
  it('behavior: isGoZeroTime', () => {
    expect(isGoZeroTime(GO_ZERO_TIME_SECONDS)).toBe(true);
    expect(isGoZeroTime(parseRfc3339('0001-01-01T00:00:00-04:00') as number)).toBe(true);
    expect(isGoZeroTime(0)).toBe(false);
  });
  it.each([
    ['error: no offset', '2026-05-14T09:21:31', 'invalid RFC3339 timestamp'],
    ['error: 10 fraction digits', '2026-05-14T09:21:31.1234567890Z', 'invalid RFC3339 timestamp'],
    ['error: month 13', '2026-13-14T09:21:31Z', 'month out of range'],
    ['error: Feb 30', '2026-02-30T09:21:31Z', 'day out of range'],
    ['error: Feb 29 of a common year', '2025-02-29T09:21:31Z', 'day out of range'],
    ['error: hour 24', '2026-05-14T24:00:00Z', 'time out of range'],
    ['error: offset 25h', '2026-05-14T09:21:31+25:00', 'offset out of range'],
    ['error: Unix seconds', '1778750491', 'invalid RFC3339 timestamp'],
    ['error: date only', '2026-05-14', 'invalid RFC3339 timestamp'],
  ])('%s', (_n, input, msg) => {
    expect(messages(Rfc3339Seconds, input)).toContain(msg);
  });
});

describe('hex', () => {
  it('default: bytes and quantities', () => {
    expect(HexBytes.parse('0xabCD')).toBe('0xabCD');
    expect(HexQuantity.parse('0x43fb6b1')).toBe(71284401n);
    expect(HexQuantity.parse('0x0')).toBe(0n);
  });
  it('error: odd bytes, missing prefix, empty quantity', () => {
    expect(HexBytes.safeParse('0xabc').success).toBe(false);
    expect(HexBytes.safeParse('abcd').success).toBe(false);
    expect(messages(HexQuantity, '0x')).toContain('hex quantity');
    expect(HexQuantity.safeParse('123').success).toBe(false);
  });
});
