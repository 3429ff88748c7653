// Adding a collector is one file and one line in the COLLECTORS list: everything else is derived from
// the list. This test adds a collector to the list (exactly as the one line would) and sees its flags,
// YAML keys, --help, docs/metrics.md and docs/configuration.md rows, fault-matrix route and series appear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCollector, matchesCall, type CollectorOf } from '../../src/collectors/define.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { flagHelp } from '../../src/config/help.js';
import { bootstrapGatedCollectors } from '../../src/monitoring/collector-facts.js';
import { flagsFor } from '../../src/config/flags.js';
import { loadConfig } from '../../src/config/load.js';
import { renderMetricsDoc } from '../../src/docs/metrics-md.js';
import { renderCollectorsTable, renderFlagsTable } from '../../src/docs/configuration-tables.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { descriptorsOf } from '../../src/metrics/descriptors.js';
import { sample } from '../../src/model.js';
import { rpcCall } from '../../src/node-client/index.js';
import { z } from 'zod';
import { parseExposition, value } from '../helpers/exposition-parser.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { memoryLogger } from '../helpers/log.js';

/**
 * The one new file: a collector that calls a NEW method (toy.getVersionName) with a NEW schema on a
 * NEW endpoint (/ext/bc/toy), and reports the length of the name times an option. Its answer is the
 * same from every node of a network (scope 'network'): a fleet asks it once per network.
 */
const ToyGetVersionNameResult = z.object({ name: z.string() });
const toyGetVersionNameCall = rpcCall({ method: 'toy.getVersionName', endpoint: '/ext/bc/toy', result: ToyGetVersionNameResult, scope: 'network' });
const versionLength: CollectorOf<'version-length'> = defineCollector({
  name: 'version-length',
  description: 'Length of the version string, times a factor (a test collector).',
  needs: 'Info API',
  interval: 30,
  options: { factor: { kind: 'int', default: 1, min: 1, max: 100, help: 'Multiplies the length.' } },
  metrics: [{ name: 'avax_version_length', type: 'gauge', labels: [], help: 'Length of toy.getVersionName name times --collector.version-length.factor.' }],
  calls: [toyGetVersionNameCall],
  async collect(ctx) {
    const r = await ctx.call(toyGetVersionNameCall, undefined);
    if (!r.ok) return { samples: [], errors: [r.error] };
    return { samples: [sample('avax_version_length', {}, r.value.name.length * ctx.options.factor)], errors: [] };
  },
});

/** The one new line. */
const LIST = [...COLLECTORS, versionLength];

describe('adding a collector: one file and one line', () => {
  let node: FixtureNode;
  let exporter: Exporter | undefined;
  beforeAll(async () => {
    node = await startFixtureNode();
    // The node's answer to the new method (what its fixture and its simulator answer would be).
    node.override.set('toy.getVersionName /ext/bc/toy', () => ({ status: 200, body: '{"jsonrpc":"2.0","result":{"name":"avalanchego/1.14.2"},"id":"__ID__"}' }));
  });
  afterAll(async () => {
    await exporter?.stop();
    await node.close();
  });

  it('default: its flags, YAML keys and --help appear', () => {
    const flags = flagsFor(LIST).map((f) => f.flag);
    expect(flags).toEqual(expect.arrayContaining(['collector.version-length', 'collector.version-length.interval', 'collector.version-length.factor']));
    expect(flagsFor(COLLECTORS).map((f) => f.flag)).not.toContain('collector.version-length.factor');
    expect(flagHelp(LIST)).toContain('version-length: on by default, every 30s.');
    expect(flagHelp(LIST)).toContain('--collector.version-length.factor VALUE');

    const byFlag = loadConfig({ argv: ['--collector.version-length.factor', '7', '--no-collector.version-length'], env: {}, collectors: LIST }).config;
    expect(byFlag.collectors['version-length']).toEqual({ factor: 7, enabled: false });
    const byEnv = loadConfig({ argv: [], env: { AVAX_EXPORTER_COLLECTOR_VERSION_LENGTH_FACTOR: '3' }, collectors: LIST }).config;
    expect(byEnv.collectors['version-length']).toEqual({ factor: 3 });
    const yaml = 'collectors:\n  version-length: { factor: 9, interval: 60s }\n';
    const byYaml = loadConfig({ argv: ['--config.file', 'c.yaml'], env: {}, readFile: () => yaml, collectors: LIST }).config;
    expect(byYaml.collectors['version-length']).toEqual({ factor: 9, interval: 60 });
    // Its option is validated like any other (range from its declaration), naming the flag.
    expect(() => loadConfig({ argv: ['--collector.version-length.factor', '0'], env: {}, collectors: LIST })).toThrow(/collectors\.version-length\.factor \(--collector\.version-length\.factor\)/);
    // Without the line, the same YAML is an unknown key.
    expect(() => loadConfig({ argv: ['--config.file', 'c.yaml'], env: {}, readFile: () => yaml })).toThrow(/version-length: unknown key/);
  });

  it('default: its docs/metrics.md row and docs/configuration.md collectors and flags rows appear', () => {
    expect(renderMetricsDoc(descriptorsOf(LIST))).toContain('| `avax_version_length` | gauge | target | count or state | version-length |');
    expect(renderCollectorsTable(LIST)).toContain('| `version-length` | on | 30s | no | Length of the version string, times a factor (a test collector). | `toy.getVersionName` | Info API |');
    expect(renderFlagsTable(LIST)).toContain('| `--collector.version-length.factor` | 1 | Multiplies the length. |');
  });

  it('default: its requests are routed to it by its declared calls (fault matrix)', () => {
    expect(matchesCall(versionLength.calls, { method: 'toy.getVersionName', path: '/ext/bc/toy', params: {} })).toBe(true);
    expect(matchesCall(versionLength.calls, { method: 'toy.getVersionName', path: '/ext/info', params: {} })).toBe(false);
    expect(matchesCall(versionLength.calls, { method: 'info.peers', path: '/ext/info', params: {} })).toBe(false);
  });

  it('default: the exporter alerts know it: a chain route (its endpoint is /ext/bc/toy) for AvalancheCollectorFailing', () => {
    expect(bootstrapGatedCollectors(LIST)).toContain('version-length');
    expect(bootstrapGatedCollectors(COLLECTORS)).not.toContain('version-length');
  });

  it('default: its network-scoped call is asked once per network in a cycle, however many targets of the network', async () => {
    const yaml = `targets:\n${['a', 'b', 'c'].map((n) => `  - { name: ${n}, url: "${node.url}" }`).join('\n')}\n`;
    const { config } = loadConfig({ argv: ['--config.file', 'fleet.yaml'], env: {}, readFile: () => yaml, collectors: LIST });
    const fleet = await startExporter({ config, logger: memoryLogger('silent').logger, collectors: LIST, listen: false, schedule: false });
    try {
      const asked = () => node.requests.filter((r) => r.method === 'toy.getVersionName').length;
      const before = asked();
      await fleet.collectOnce();
      expect(asked() - before).toBe(1);
      const p = parseExposition(fleet.current().text.toString('utf8'));
      for (const t of ['a', 'b', 'c']) expect(value(p, 'avax_version_length', { target: t }), t).toBe('avalanchego/1.14.2'.length);
      // node-scoped calls stay per target: each target asked its own health
      expect(node.requests.filter((r) => r.method === 'GET /ext/health').length).toBeGreaterThanOrEqual(3);
    } finally {
      await fleet.stop();
    }
  });

  it('default: its series and its status appear in /metrics, with its option applied', async () => {
    const { config } = loadConfig({ argv: ['--node.url', node.url, '--node.name', 'n', '--collector.version-length.factor', '2'], env: {}, collectors: LIST });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, collectors: LIST, listen: false, schedule: false });
    await exporter.collectOnce();
    const p = parseExposition(exporter.current().text.toString('utf8'));
    expect(value(p, 'avax_collector_success', { target: 'n', collector: 'version-length' })).toBe(1);
    expect(value(p, 'avax_version_length', { target: 'n' })).toBe('avalanchego/1.14.2'.length * 2);
    expect(p.families.get('avax_version_length')?.help).toContain('Refreshed every 30s by the version-length collector.');
  });
});
