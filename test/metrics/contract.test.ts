import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { renderMetricsDoc } from '../../src/metrics/docs.js';
import { CONTRACT_EXTENSIONS } from '../helpers/contract-extensions.js';

const root = resolve(import.meta.dirname, '../..');
const contractPath = resolve(root, '../shared/METRICS.md');

/** Rows `| \`name\` | type | labels | ... |` of the contract's tables. */
function contractRows(): Map<string, { type: string; labels: string[] }> {
  const out = new Map<string, { type: string; labels: string[] }>();
  for (const line of readFileSync(contractPath, 'utf8').split('\n')) {
    const m = /^\| `(avax_[a-z0-9_]+)` \| (gauge|counter|histogram) \| ([^|]*) \|/.exec(line);
    if (m) out.set(m[1]!, { type: m[2]!, labels: m[3]!.split(',').map((s) => s.trim()).filter(Boolean) });
  }
  return out;
}

describe('metric contract', () => {
  it.skipIf(!existsSync(contractPath))('default: every emitted family is in METRICS.md with the same type and labels', () => {
    const contract = contractRows();
    expect(contract.size).toBeGreaterThan(40);
    for (const d of DESCRIPTORS) {
      if (CONTRACT_EXTENSIONS.has(d.name)) continue;
      const c = contract.get(d.name);
      expect(c, `${d.name} missing from METRICS.md`).toBeDefined();
      // Documented deviation: promtool rejects a `quantile` label on a gauge, so this one is a summary.
      expect(d.type, d.name).toBe(d.name === 'avax_peers_observed_uptime_ratio' ? 'summary' : c!.type);
      expect([...d.labels], d.name).toEqual(c!.labels);
    }
  });

  it.skipIf(!existsSync(contractPath))('default: every family of the contract is emitted', () => {
    const ours = new Set(DESCRIPTORS.map((d) => d.name));
    const missing = [...contractRows().keys()].filter((n) => !ours.has(n));
    expect(missing).toEqual([]);
  });

  it('default: docs/metrics.md is up to date (npm run docs)', () => {
    expect(readFileSync(resolve(root, 'docs/metrics.md'), 'utf8')).toBe(renderMetricsDoc());
  });
});
