import { describe, expect, it } from 'vitest';
import { AvmGetHeightResult } from '../../src/schemas/avm.js';
import { result } from '../fixtures/load.js';

describe('avm.getHeight', () => {
  it('default: string height', () => {
    expect(AvmGetHeightResult.parse(result('avm.getHeight', 'default')).height).toBe(1203456n);
  });
});
