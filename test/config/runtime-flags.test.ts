import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { v8Flags } from '../../src/runtime-flags.js';

describe('runtime flags (src/runtime-flags.ts)', () => {
  it('default: undici\'s WebAssembly parser stays on Liftoff and the old generation grows by a fixed 35 %', () => {
    const { config } = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650'], env: {} });
    expect(v8Flags(config.runtime)).toEqual(['--liftoff-only', '--heap-growing-percent=35']);
  });

  it('flags: --runtime.heap-growing-percent=0 leaves the factor to V8; another value is passed as it is', () => {
    const off = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.heap-growing-percent=0'], env: {} });
    expect(v8Flags(off.config.runtime)).toEqual(['--liftoff-only']);
    const fifty = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.heap-growing-percent', '50'], env: {} });
    expect(v8Flags(fifty.config.runtime)).toEqual(['--liftoff-only', '--heap-growing-percent=50']);
    expect(() => loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.heap-growing-percent=-5'], env: {} })).toThrow(/heap-growing-percent/);
  });

  it('flags: --runtime.http-parser-tier-up lets V8 optimise the parser; --runtime.optimize-for-size adds its flag', () => {
    const { config } = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.http-parser-tier-up', '--runtime.optimize-for-size'], env: {} });
    expect(v8Flags(config.runtime)).toEqual(['--heap-growing-percent=35', '--optimize-for-size']);
  });

  it('error: a value that is not a boolean is refused with the flag named', () => {
    expect(() => loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--runtime.http-parser-tier-up=maybe'], env: {} })).toThrow(/http-parser-tier-up/);
  });

  it('behavior: V8 honours --heap-growing-percent set at run time (as `run` sets it): the old generation stays near live × (1 + N/100)', () => {
    // A child keeps ~64 MB alive and churns arrays that live long enough to be promoted, then die; it reports the
    // largest heap it had. With V8's own factor (or 300 %) the heap grew to about 308 MB here, with 10 % to 161 MB.
    const script = `
      const v8 = require('v8');
      const flags = process.argv[1];
      if (flags) v8.setFlagsFromString(flags);
      const live = [];
      for (let i = 0; i < 400; i++) live.push(new Array(20000).fill(i));
      const ring = new Array(40);
      let peak = 0;
      const t0 = Date.now();
      for (let r = 0; r < 4000 && Date.now() - t0 < 10000; r++) {
        ring[r % ring.length] = new Array(20000).fill(r);
        if (r % 10 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
      }
      process.stdout.write(String(Math.round(peak / 1048576)));`;
    const peakWith = (percent: number) => {
      const flags = v8Flags({ optimizeForSize: false, httpParserTierUp: true, heapGrowingPercent: percent }).join(' ');
      return Number(execFileSync(process.execPath, ['-e', script, flags], { encoding: 'utf8', timeout: 30_000 }));
    };
    const tight = peakWith(10);
    const loose = peakWith(300);
    expect(tight).toBeGreaterThan(64);
    expect(tight).toBeLessThan(loose * 0.75);
  });
});
