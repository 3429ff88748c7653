import { describe, expect, it } from 'vitest';
import { IndexGetLastAcceptedResult } from '../../src/schemas/index-api.js';
import { result } from '../fixtures/load.js';

describe('index.getLastAccepted', () => {
  it('default: string index, 9-digit fraction', () => {
    const v = IndexGetLastAcceptedResult.parse(result('index.getLastAccepted', 'P-block'));
    expect(v.index).toBe(23961401n);
    expect(v.timestamp).toBeCloseTo(1778750458.123456789, 6);
  });
  it('behavior: -04:00 offset', () => {
    expect(IndexGetLastAcceptedResult.parse(result('index.getLastAccepted', 'C-block')).timestamp).toBeCloseTo(1778750504.87, 6);
  });
  it('error: bad id checksum, bad timestamp', () => {
    const raw = result('index.getLastAccepted', 'X-block');
    expect(IndexGetLastAcceptedResult.safeParse({ ...raw, id: 'x' + raw.id.slice(1) }).success).toBe(false);
    expect(IndexGetLastAcceptedResult.safeParse({ ...raw, timestamp: '2026-05-14T09:21:12.5' }).error?.issues[0]?.message).toContain(
      'invalid RFC3339 timestamp',
    );
  });
});
