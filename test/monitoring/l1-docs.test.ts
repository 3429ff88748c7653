// Issue 23: the runbook's table of the L1 series says where each comes from and how fresh it is, from the
// declarations (collector intervals, metric descriptors, derivations), and it is what `npm run monitoring` wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { DERIVATIONS } from '../../src/derive/index.js';
import { L1_DISCOVERY, L1_SERIES, freshness, withL1SeriesTable } from '../../src/monitoring/l1-docs.js';
import { descriptorOf } from '../../src/monitoring/promql.js';
import { ROOT } from '../helpers/proc.js';

describe('L1 series in the runbook (src/monitoring/l1-docs.ts)', () => {
  const runbook = readFileSync(join(ROOT, 'docs', 'runbook.md'), 'utf8');

  it('default: the table in docs/runbook.md is the generated one (run `npm run monitoring`)', () => {
    expect(runbook).toBe(withL1SeriesTable(runbook));
    expect(runbook).toContain('| `avax_node_last_accepted_height`');
  });

  it('default: each series comes from the collector named (a derived one: a collector its derivation reads), at its declared interval', () => {
    for (const r of L1_SERIES) {
      for (const m of r.metrics) {
        const d = descriptorOf(m)!;
        if (r.derived) {
          expect(d.collector, m).toBe('derived');
          const derivation = DERIVATIONS.find((x) => x.metrics.some((y) => y.name === m))!;
          expect(derivation.reads, m).toContain(r.from);
        } else {
          expect(d.collector, m).toBe(r.from);
        }
      }
      const c = COLLECTORS.find((x) => x.name === r.from)!;
      expect(freshness(r.from)).toBe(`every ${c.interval % 60 === 0 ? `${c.interval / 60}m` : `${c.interval}s`} (${r.from})`);
    }
  });

  it('default: the runbook and the dashboards say how L1s are found', () => {
    expect(L1_DISCOVERY).toContain('--node.subnet only adds subnets the node does not validate');
    expect(runbook).toContain('`--node.subnet` (YAML `subnets:`) only adds subnets the');
    const validator = readFileSync(join(ROOT, 'dashboards', 'avalanche-validator.json'), 'utf8');
    expect(validator).toContain(L1_DISCOVERY);
  });
});
