import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { v8Flags } from '../../src/runtime-flags.js';

describe('runtime flags (src/runtime-flags.ts)', () => {
  it('default: undici\'s WebAssembly parser stays on Liftoff, nothing else is set', () => {
    const { config } = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650'], env: {} });
    expect(v8Flags(config.runtime)).toEqual(['--liftoff-only']);
  });

  it('flags: --runtime.http-parser-tier-up lets V8 optimise the parser; --runtime.optimize-for-size adds its flag', () => {
    const { config } = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.http-parser-tier-up', '--runtime.optimize-for-size'], env: {} });
    expect(v8Flags(config.runtime)).toEqual(['--optimize-for-size']);
  });

  it('error: a value that is not a boolean is refused with the flag named', () => {
    expect(() => loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.http-parser-tier-up=maybe'], env: {} })).toThrow(/http-parser-tier-up/);
  });
});
