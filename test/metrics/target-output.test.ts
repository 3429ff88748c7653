// A target's user labels and metric selection in the exposition (issue 27, item 7): every series of
// the target carries its labels (its own series, status series, derived and fleet series, /probe), no
// other series carries them, a selection leaves out exactly its families but never the status ones,
// the text passes promtool, and the cost is paid once per target, not per sample.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetSpec } from '../../src/target.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { ALWAYS_EXPOSED, DESCRIPTOR_INDEX, familyOf } from '../../src/metrics/descriptors.js';
import { TargetSegment } from '../../src/metrics/exposition.js';
import { PLAIN_OUTPUT, TargetOutputs, droppedFamilies, labelSuffix, targetOutput } from '../../src/metrics/target-output.js';
import { parseExposition, type ParsedSample } from '../helpers/exposition-parser.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { memoryLogger } from '../helpers/log.js';
import { scrape } from '../helpers/proc.js';
import { promtoolCheck } from '../helpers/promtool.js';

const spec = (over: Partial<TargetSpec> = {}): TargetSpec => ({ name: 'a', reference: false, validatorNodeIds: [], subnets: [], chains: [], ...over });
const ACME = { operator: 'acme', region: 'eu-west', customer: 'x "quoted" \\ and\nnewline' };
const USER_NAMES = ['operator', 'region', 'customer', 'role'];

describe('target output: the parts', () => {
  it('default: a target without labels or selection is written as before (the shared plain output)', () => {
    expect(targetOutput(spec(), DESCRIPTOR_INDEX)).toBe(PLAIN_OUTPUT);
    expect(targetOutput(spec({ labels: {}, metrics: { keep: [], drop: [] } }), DESCRIPTOR_INDEX)).toBe(PLAIN_OUTPUT);
  });

  it('behavior: the label suffix is escaped as the text format wants, in the configured order', () => {
    expect(labelSuffix(ACME)).toBe(',operator="acme",region="eu-west",customer="x \\"quoted\\" \\\\ and\\nnewline"');
  });

  it('behavior: keep, then drop, anchored at both ends; the status families are never dropped', () => {
    const dropped = droppedFamilies({ keep: ['avax_chain_.*'], drop: ['avax_chain_height_behind_reference'] }, DESCRIPTOR_INDEX);
    const exposed = DESCRIPTOR_INDEX.list.map((d) => d.name).filter((n) => !dropped.has(n));
    expect(exposed.filter((n) => !ALWAYS_EXPOSED.includes(n)).every((n) => n.startsWith('avax_chain_'))).toBe(true);
    expect(exposed).toContain('avax_chain_height');
    expect(exposed).not.toContain('avax_chain_height_behind_reference');
    expect(exposed).toEqual(expect.arrayContaining([...ALWAYS_EXPOSED]));
    // Anchored: `avax_chain_height` drops that family only, not avax_chain_height_behind_reference.
    const one = droppedFamilies({ keep: [], drop: ['avax_chain_height'] }, DESCRIPTOR_INDEX);
    expect([...one]).toEqual(['avax_chain_height']);
  });

  it('behavior: a sample without labels gets the user labels as its only ones', () => {
    const seg = new TargetSegment([{ name: 'avax_up', labels: {}, value: 1 }], DESCRIPTOR_INDEX, targetOutput(spec({ labels: { operator: 'acme' } }), DESCRIPTOR_INDEX));
    expect(seg.chunks.get('avax_up')!.toString()).toBe('avax_up{operator="acme"} 1\n');
  });

  it('behavior (cost): one output per target spec, made once however many snapshots it publishes; the segment grows by the suffix per line and nothing else', () => {
    const outputs = new TargetOutputs(DESCRIPTOR_INDEX);
    const s = spec({ labels: ACME, metrics: { keep: [], drop: ['avax_rpc_request_duration_seconds'] } });
    const first = outputs.of(s);
    for (let i = 0; i < 1000; i++) expect(outputs.of(s)).toBe(first);
    expect(outputs.of(spec({ labels: ACME }))).not.toBe(first);
    // Another target with the same selection shares its set of dropped families.
    expect(outputs.of(spec({ name: 'b', metrics: { keep: [], drop: ['avax_rpc_request_duration_seconds'] } })).dropped).toBe(first.dropped);
    const samples = Array.from({ length: 500 }, (_, i) => ({ name: 'avax_peers_by_version', labels: { target: 'a', version: `v${i}` }, value: i }));
    const plain = new TargetSegment(samples, DESCRIPTOR_INDEX);
    const dressed = new TargetSegment(samples, DESCRIPTOR_INDEX, first);
    const size = (seg: TargetSegment) => [...seg.chunks.values()].reduce((n, c) => n + c.length, 0);
    expect(size(dressed) - size(plain)).toBe(samples.length * Buffer.byteLength(first.labelSuffix));
    expect(dressed.seriesCount).toBe(plain.seriesCount);
  });
});

describe('target output: a fleet with labels, end to end', () => {
  let a: FixtureNode;
  let b: FixtureNode;
  let ref: FixtureNode;
  let exporter: Exporter;
  let text: string;
  let samples: ParsedSample[];
  const of = (target: string | undefined) => samples.filter((s) => s.labels['target'] === target);

  beforeAll(async () => {
    [a, b, ref] = await Promise.all([startFixtureNode(), startFixtureNode(), startFixtureNode()]);
    // The reference is 100 P-blocks ahead: a fleet series (avax_chain_height_behind_reference) for a, b and c.
    ref.override.set('platform.getHeight', () => ({ status: 200, body: '{"jsonrpc":"2.0","result":{"height":"23961502"},"id":"__ID__"}' }));
    const yaml = `web: { listenAddress: "127.0.0.1:0" }
labels: { operator: acme }
targets:
  - { name: a, url: "${a.url}", labels: ${JSON.stringify({ region: ACME.region, customer: ACME.customer })} }
  - { name: b, url: "${b.url}", labels: {} }
  - { name: c, url: "${b.url}", labels: { operator: other }, metrics: { keep: ["avax_chain_.*", "avax_node_.*"], drop: ["avax_node_info", "avax_chain_height_behind_reference"] } }
  - { name: ref, url: "${ref.url}", reference: true, labels: { role: reference } }
`;
    const { config } = loadConfig({ argv: ['--config.file', 'c.yaml'], env: {}, readFile: () => yaml });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, schedule: false });
    await exporter.collectOnce();
    text = (await exporter.render()).text.toString();
    samples = parseExposition(text).samples;
  }, 30_000);
  afterAll(async () => {
    await exporter?.stop();
    await Promise.all([a, b, ref].map((n) => n?.close()));
  });

  it('default: every series of a target carries its labels (top level, then its own), whichever part of the exporter made it', () => {
    const want = { operator: 'acme', region: ACME.region, customer: ACME.customer };
    const aSeries = of('a');
    expect(aSeries.length).toBeGreaterThan(100);
    expect(aSeries.filter((s) => !Object.entries(want).every(([k, v]) => s.labels[k] === v)).map((s) => s.name)).toEqual([]);
    // Its own, status, request, derived and fleet series are all among them.
    const families = new Set(aSeries.map((s) => familyOf(s.name)!.collector));
    expect([...families]).toEqual(expect.arrayContaining(['runner', 'chain-height', 'node-info', 'derived', 'fleet']));
    expect(aSeries.find((s) => s.name === 'avax_chain_height_behind_reference' && s.labels['chain'] === 'P')?.labels).toEqual({ target: 'a', chain: 'P', ...want });
    expect(of('ref').every((s) => s.labels['role'] === 'reference' && s.labels['operator'] === 'acme')).toBe(true);
  });

  it('default: no other series carries them: a target with none has only the top-level ones, the exporter\'s own series none', () => {
    expect(of('b').length).toBeGreaterThan(100);
    expect(of('b').filter((s) => Object.keys(s.labels).some((k) => USER_NAMES.includes(k) && !(k === 'operator' && s.labels[k] === 'acme')))).toEqual([]);
    expect(of('c').every((s) => s.labels['operator'] === 'other' && !('region' in s.labels))).toBe(true);
    const untargeted = of(undefined);
    expect(untargeted.some((s) => s.name === 'avax_exporter_build_info')).toBe(true);
    expect(untargeted.filter((s) => Object.keys(s.labels).some((k) => USER_NAMES.includes(k)))).toEqual([]);
  });

  it('behavior: a selection leaves out exactly its families on its target; the status families stay; other targets keep everything', () => {
    const names = (t: string) => new Set(of(t).map((s) => familyOf(s.name)!.name));
    const c = names('c');
    const b = names('b');
    const expected = [...b].filter((f) => ((f.startsWith('avax_chain_') || f.startsWith('avax_node_')) && f !== 'avax_node_info' && f !== 'avax_chain_height_behind_reference') || ALWAYS_EXPOSED.includes(f));
    expect([...c].sort()).toEqual(expected.sort());
    expect(c.has('avax_up') && c.has('avax_collector_success') && c.has('avax_collector_last_success_timestamp_seconds')).toBe(true);
    expect(b.has('avax_node_info') && b.has('avax_rpc_requests_total') && b.has('avax_chain_height_behind_reference')).toBe(true);
  });

  it('behavior: /probe gives the target\'s series with its labels, the same lines as /metrics', async () => {
    const probe = await scrape(`${exporter.url}/probe?target=a`);
    const probed = parseExposition(probe).samples;
    expect(probed.length).toBeGreaterThan(100);
    expect(probed.every((s) => s.labels['target'] === 'a' && s.labels['operator'] === 'acme' && s.labels['customer'] === ACME.customer)).toBe(true);
    const line = (s: ParsedSample) => JSON.stringify([s.name, s.labels, s.value]);
    // /probe has a's own segment (no fleet series, as before); each of its lines is in /metrics.
    const all = new Set(of('a').map(line));
    expect(probed.filter((s) => !all.has(line(s)))).toEqual([]);
    expect(probed.length).toBe(of('a').filter((s) => familyOf(s.name)!.collector !== 'fleet').length);
  });

  it('default: promtool check metrics passes on the exposition with labels and selections', () => {
    expect(['ok', 'skipped']).toContain(promtoolCheck(text));
  });
});
