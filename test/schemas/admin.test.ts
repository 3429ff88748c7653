import { describe, expect, it } from 'vitest';
import { AdminGetLoggerLevelResult } from '../../src/schemas/admin.js';
import { result } from '../fixtures/load.js';

describe('admin.getLoggerLevel', () => {
  it('default: every logger with its levels', () => {
    const v = AdminGetLoggerLevelResult.parse(result('admin.getLoggerLevel', 'debug'));
    expect(v.loggerLevels['C']).toEqual({ logLevel: 'DEBUG', displayLevel: 'INFO' });
  });
  it('behavior: a level in lower case is normalised', () => {
    expect(AdminGetLoggerLevelResult.parse({ loggerLevels: { main: { logLevel: 'verbo' } } }).loggerLevels['main']?.logLevel).toBe('VERBO');
  });
  it('error: an unknown level is refused (no free text in the level label)', () => {
    expect(AdminGetLoggerLevelResult.safeParse({ loggerLevels: { main: { logLevel: 'LOUD' } } }).success).toBe(false);
  });
});
