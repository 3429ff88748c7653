import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { renderMetricsDoc } from '../../src/metrics/docs.js';
import { CONTRACT_EXTENSIONS, reservedNames } from '../helpers/contract-extensions.js';

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
    const reserved = reservedNames(readFileSync(contractPath, 'utf8'));
    for (const d of DESCRIPTORS) {
      if (CONTRACT_EXTENSIONS.has(d.name) || reserved.has(d.name)) continue;
      const c = contract.get(d.name);
      expect(c, `${d.name} missing from METRICS.md`).toBeDefined();
      // Documented deviation: promtool rejects a `quantile` label on a gauge, so this one is a summary.
      expect(d.type, d.name).toBe(d.name === 'avax_peers_observed_uptime_ratio' ? 'summary' : c!.type);
      expect([...d.labels], d.name).toEqual(c!.labels);
    }
  });

  it.skipIf(!existsSync(contractPath))('default: names reserved for later waves are emitted with the reserved labels (issue 7)', () => {
    const reserved = reservedNames(readFileSync(contractPath, 'utf8'));
    expect([...reserved.keys()].sort()).toEqual([
      'avax_acp_abstain_weight',
      'avax_acp_object_weight',
      'avax_acp_support_weight',
      'avax_l1_validator_fee_price_navax_per_second',
      'avax_network_upgrade_timestamp_seconds',
      'avax_validator_bls_key_matches',
    ]);
    for (const [name, labels] of reserved) {
      const d = DESCRIPTORS.find((x) => x.name === name);
      expect(d, `${name} (reserved in METRICS.md) is not emitted`).toBeDefined();
      expect(d!.type, name).toBe('gauge');
      expect([...d!.labels], name).toEqual(labels);
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
