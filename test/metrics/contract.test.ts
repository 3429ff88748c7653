// The metric contract is docs/metrics.md, generated from the metric declarations (`npm run docs`).
// These tests keep the document, the code and what the exporter really emits (the golden output) in
// step; alerts and dashboards are checked against the same document in test/consistency/promql.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { renderMetricsDoc } from '../../src/docs/metrics-md.js';
import { renderConfigurationDoc } from '../../src/docs/configuration-tables.js';
import { METRICS_DOC, documentedFamilies, parseMetricsDoc } from '../helpers/metrics-doc.js';

/** The golden runs: fixture answers of v1.14.2 (metrics.txt) and v1.13.5, and a real v1.15.0 node's (its C-Chain on SAE). */
const GOLDEN_DIR = resolve(import.meta.dirname, '../golden');
const GOLDENS = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.txt')).map((f) => resolve(GOLDEN_DIR, f));

/** Families documented but absent from the golden runs (healthy nodes), each with the reason. */
const NOT_IN_GOLDEN: Record<string, string> = {
  avax_node_cchain_gas_time_wall_time_gap_seconds:
    "the recorded v1.15.0 node had executed no C-Chain block yet: it writes MaxInt64 nanoseconds, which gives no series; test/collectors/node-metrics.test.ts reads a real gap from a node after three transfers",
  avax_health_check_failing_since_timestamp_seconds: 'exists only while a health check fails; test/scenarios/exporter.test.ts (unhealthy-network) makes one fail and finds it',
  avax_chain_vm_rpc_protocol_version:
    "exists only for a chain whose VM plugin speaks another RPCChainVM protocol than the node (its check failing with the mismatch); the golden node is healthy (test/scenarios/subnet-chains.test.ts switches the simulated node to l1-vm-protocol-mismatch and finds it)",
  avax_validator_auto_compound_reward_ratio:
    'auto-renewed validators only (ACP-236, avalanchego v1.15.0); the golden node is v1.14.2 (test/real-node/helicon-rewards.test.ts finds it on the answers of a real auto-renewed validator, test/scenarios/helicon.test.ts on the simulated 1.15.0 node)',
  avax_validator_authority_threshold: 'auto-renewed validators only, as avax_validator_auto_compound_reward_ratio',
  avax_validator_authority_addresses: 'auto-renewed validators only, as avax_validator_auto_compound_reward_ratio',
  avax_chain_bootstrap_target_height:
    'exists only while a chain bootstraps on a target and another target of its network has that chain; the golden targets have every chain bootstrapped (test/scenarios/bootstrap-target.test.ts bootstraps one simulated node beside another)',
};

/** Series of the golden outputs: family (histogram suffixes and `quantile` folded in) → label names seen. */
function goldenSeries(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  expect(GOLDENS.map((f) => f.slice(GOLDEN_DIR.length + 1)).sort()).toEqual(['metrics-real-v1.15.0.txt', 'metrics-v1.13.5.txt', 'metrics.txt']);
  for (const line of GOLDENS.flatMap((f) => readFileSync(f, 'utf8').split('\n'))) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!m) continue;
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map((x) => x[1]!);
    const set = out.get(m[1]!) ?? new Set<string>();
    for (const l of labels) set.add(l);
    out.set(m[1]!, set);
  }
  return out;
}

function familyOf(series: string, documented: ReadonlyMap<string, unknown>): string {
  if (documented.has(series)) return series;
  for (const s of ['_bucket', '_sum', '_count']) if (series.endsWith(s) && documented.has(series.slice(0, -s.length))) return series.slice(0, -s.length);
  return series;
}

describe('metric contract (docs/metrics.md)', () => {
  it('default: docs/metrics.md is what the code generates', () => {
    const onDisk = readFileSync(METRICS_DOC, 'utf8');
    expect(onDisk === renderMetricsDoc(DESCRIPTORS), 'docs/metrics.md is out of date with the metric declarations: run `npm run docs` and commit the result').toBe(true);
  });

  it('default: the flags and collectors tables of docs/configuration.md are what the code generates', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
    expect(doc === renderConfigurationDoc(doc, COLLECTORS), 'docs/configuration.md tables are out of date with the collectors and settings: run `npm run docs` and commit the result').toBe(true);
  });

  it('default: the document lists every descriptor once, with its type, labels and collector', () => {
    const documented = documentedFamilies();
    expect([...documented.keys()]).toEqual(DESCRIPTORS.map((d) => d.name));
    for (const d of DESCRIPTORS) {
      expect(documented.get(d.name), d.name).toEqual({ name: d.name, type: d.type, labels: [...d.labels], collector: d.collector });
    }
  });

  it('default: names follow the Prometheus conventions (avax_ prefix, counters end in _total, base units)', () => {
    const problems: string[] = [];
    for (const d of documentedFamilies().values()) {
      if (!/^avax_[a-z0-9_]+$/.test(d.name)) problems.push(`${d.name}: not avax_ snake case`);
      if ((d.type === 'counter') !== d.name.endsWith('_total')) problems.push(`${d.name}: ${d.type}, so it ${d.type === 'counter' ? 'must' : 'must not'} end in _total`);
      if (/_(ms|milliseconds|minutes|hours|percent|kb|mb)(_|$)/.test(d.name)) problems.push(`${d.name}: not a base unit`);
      if (d.name !== 'avax_exporter_build_info' && d.labels[0] !== 'target') problems.push(`${d.name}: first label is not target`);
    }
    expect(problems).toEqual([]);
  });

  it('default: every series of the golden output is documented, with documented labels only', () => {
    const documented = documentedFamilies();
    const problems: string[] = [];
    const byFamily = new Map<string, Set<string>>();
    for (const [series, labels] of goldenSeries()) {
      const name = familyOf(series, documented);
      if (!documented.has(name)) {
        if (series.startsWith('avax_')) problems.push(`${series}: emitted but not in docs/metrics.md`);
        continue; // process_* and nodejs_* come from prom-client (documented in the text below the table)
      }
      byFamily.set(name, new Set([...(byFamily.get(name) ?? []), ...labels]));
    }
    for (const [name, labels] of byFamily) {
      const fam = documented.get(name)!;
      const allowed = new Set([...fam.labels, ...(fam.type === 'histogram' ? ['le'] : [])]);
      for (const l of labels) if (!allowed.has(l)) problems.push(`${name}: label ${l} not documented (${fam.labels.join(', ')})`);
      for (const l of fam.labels) if (!labels.has(l)) problems.push(`${name}: documented label ${l} never emitted`);
    }
    expect(byFamily.size).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('default: every documented family is emitted in the golden output (or listed with the reason it is not)', () => {
    const golden = goldenSeries();
    const emitted = new Set([...golden.keys()].map((s) => familyOf(s, documentedFamilies())));
    const missing = [...documentedFamilies().keys()].filter((n) => !emitted.has(n) && !(n in NOT_IN_GOLDEN));
    expect(missing).toEqual([]);
    // The exceptions stay honest: each is documented and really absent.
    for (const n of Object.keys(NOT_IN_GOLDEN)) {
      expect(documentedFamilies().has(n), n).toBe(true);
      expect(emitted.has(n), `${n} is in the golden output now: remove it from NOT_IN_GOLDEN`).toBe(false);
    }
  });

  it('error: the document parser finds rows and rejects a name listed twice (sanity check of the harness)', () => {
    const row = '| `avax_up` | gauge | target | count or state | runner | x |';
    expect(parseMetricsDoc(`# t\n${row}\n`).get('avax_up')).toEqual({ name: 'avax_up', type: 'gauge', labels: ['target'], collector: 'runner' });
    expect(() => parseMetricsDoc(`${row}\n${row}\n`)).toThrow(/twice/);
    expect(parseMetricsDoc('no table').size).toBe(0);
  });
});
