// A target's user labels and metric selection in the configuration (issue 27, item 7): what is
// accepted, how the top level and the target combine, each refusal with the message that names the
// problem and its fix, and a reload that sees a change of labels as a changed target.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineCollector } from '../../src/collectors/define.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { MAX_LABEL_VALUE_LENGTH, MAX_USER_LABELS } from '../../src/config/user-labels.js';
import { diffTargets, resolveTargets } from '../../src/config/targets.js';
import { labelNamesOf, DESCRIPTORS } from '../../src/metrics/descriptors.js';

const fromYaml = (yaml: string, collectors = COLLECTORS) => loadConfig({ argv: ['--config.file', 'c.yaml'], env: {}, readFile: () => yaml, collectors }).config;
const err = (yaml: string, collectors = COLLECTORS): string => {
  try {
    fromYaml(yaml, collectors);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`expected a ConfigError for ${yaml}`);
};
/** One target `a` with this YAML (flow mappings) as its labels. */
const withLabels = (labels: string) => `targets:\n  - { name: a, url: "http://127.0.0.1:9650", labels: ${labels} }\n`;
const withMetrics = (metrics: string) => `targets:\n  - { name: a, url: "http://127.0.0.1:9650", metrics: ${metrics} }\n`;

describe('user labels: accepted', () => {
  it('flags: --node.label name=value (repeatable, also comma-separated) labels the single node of flag mode; the env var too', () => {
    const flags = loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', '--node.label', 'region=eu-west', '--node.label', 'operator=acme,customer=x'], env: {} }).config;
    const [t] = resolveTargets(flags, COLLECTORS);
    expect(t!.spec.labels).toEqual({ region: 'eu-west', operator: 'acme', customer: 'x' });
    const env = loadConfig({ argv: [], env: { AVAX_EXPORTER_NODE_LABEL: 'region=eu-west' } }).config;
    expect(resolveTargets(env, COLLECTORS)[0]!.spec.labels).toEqual({ region: 'eu-west' });
  });

  it('error: --node.label without = or with a name the exporter uses is refused, naming the flag', () => {
    const refuse = (argv: string[]) => {
      try {
        loadConfig({ argv: ['--node.url', 'http://127.0.0.1:9650', ...argv], env: {} });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(refuse(['--node.label', 'region'])).toMatch(/--node.label: expected "name=value"/);
    expect(refuse(['--node.label', 'chain=C'])).toMatch(/targets\[0\]\.labels\.chain.*label of the exporter's own series/);
  });

  it('default: no labels and no selection: every target has none (its series as before)', () => {
    const [t] = resolveTargets(fromYaml('targets:\n  - { url: "http://127.0.0.1:9650" }\n'), COLLECTORS);
    expect(t!.spec.labels).toEqual({});
    expect(t!.spec.metrics).toEqual({ keep: [], drop: [] });
  });

  it('behavior: top-level labels go to every target, a target overrides them name by name and adds its own', () => {
    const cfg = fromYaml(`labels: { operator: acme, region: eu-west }
metrics: { drop: ["avax_rpc_request_duration_seconds"] }
targets:
  - { name: a, url: "http://127.0.0.1:9650", labels: { region: us-east, customer: x } }
  - { name: b, url: "http://127.0.0.1:9651", metrics: { keep: ["avax_chain_.*"] } }
  - { name: c, url: "http://127.0.0.1:9652", metrics: { drop: [] } }
`);
    const [a, b, c] = resolveTargets(cfg, COLLECTORS);
    expect(a!.spec.labels).toEqual({ operator: 'acme', region: 'us-east', customer: 'x' });
    expect(b!.spec.labels).toEqual({ operator: 'acme', region: 'eu-west' });
    // Each list of a target replaces the top-level one; a list the target does not give is inherited.
    expect(a!.spec.metrics).toEqual({ keep: [], drop: ['avax_rpc_request_duration_seconds'] });
    expect(b!.spec.metrics).toEqual({ keep: ['avax_chain_.*'], drop: ['avax_rpc_request_duration_seconds'] });
    expect(c!.spec.metrics).toEqual({ keep: [], drop: [] });
  });

  it('behavior: a value of any characters up to the bound is kept as written (escaped when rendered)', () => {
    const v = `é"\\\\x${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 5)}`;
    const [t] = resolveTargets(fromYaml(withLabels(`{ site: ${JSON.stringify(v)} }`)), COLLECTORS);
    expect(t!.spec.labels).toEqual({ site: v });
  });
});

describe('user labels: each refusal names the problem and the fix', () => {
  it.each([
    ['Region-1', 'targets[0].labels.Region-1: expected a Prometheus label name (a letter or _, then letters, digits or _): rename it, e.g. Region_1'],
    ['1zone', 'targets[0].labels.1zone: expected a Prometheus label name (a letter or _, then letters, digits or _): rename it, e.g. _1zone'],
    ['__meta', 'targets[0].labels.__meta: label names starting with __ are reserved for Prometheus itself: rename it, e.g. meta'],
    ['target', 'targets[0].labels.target: target is the label the exporter puts on every series of a target (its name: set it with name:); choose another label name'],
    ['instance', 'targets[0].labels.instance: instance is set by Prometheus on every series it scrapes (this one would become exported_instance); choose another label name'],
    ['job', 'targets[0].labels.job: job is set by Prometheus'],
    // (how many more families carry `chain` grows with the collectors: the count is not pinned here)
    ['chain', "targets[0].labels.chain: chain is a label of the exporter's own series (avax_chain_bootstrapped, avax_peers_benched and "],
    ['collector', "targets[0].labels.collector: collector is a label of the exporter's own series (avax_collector_success, avax_collector_duration_seconds and 1 more; docs/metrics.md lists them): it would clash there; choose another label name"],
    ['le', "targets[0].labels.le: le is a label of the exporter's own series (avax_rpc_request_duration_seconds"],
    ['quantile', "targets[0].labels.quantile: quantile is a label of the exporter's own series (avax_peers_observed_uptime_ratio"],
  ])('error: the name %s', (name, message) => {
    expect(err(withLabels(`{ ${JSON.stringify(name)}: v }`))).toContain(message);
  });

  it('error: the refused names are every label of the declared families (with le and quantile), not a list written beside them', () => {
    const reserved = labelNamesOf(DESCRIPTORS);
    for (const name of reserved.keys()) if (name !== 'target') expect(err(withLabels(`{ ${name}: v }`))).toContain(`labels.${name}: ${name} is a label of the exporter's own series`);
    // A collector that declares a new label name makes it refused, with no other change.
    const toy = defineCollector({
      name: 'toy-datacenter',
      description: 'A test collector with a label of its own.',
      needs: 'nothing',
      interval: 60,
      options: {},
      metrics: [{ name: 'avax_toy_things', type: 'gauge', labels: ['datacenter'], help: 'Things per datacenter (a test collector).' }],
      calls: [],
      collect: async () => ({ samples: [], errors: [] }),
    });
    expect(fromYaml(withLabels('{ datacenter: fra1 }')).targets[0]!.labels).toEqual({ datacenter: 'fra1' });
    expect(err(withLabels('{ datacenter: fra1 }'), [...COLLECTORS, toy])).toContain('labels.datacenter: datacenter is a label of the exporter\'s own series (avax_toy_things;');
  });

  it.each([
    ['""', 'targets[0].labels.site: expected a non-empty value (leave the label out instead: an empty value is no label in Prometheus)'],
    ['42', 'targets[0].labels.site: expected a string value, got number (quote it: "42")'],
    ['true', 'targets[0].labels.site: expected a string value, got boolean (quote it: "true")'],
    ['[a, b]', 'targets[0].labels.site: expected a string value, got object'],
    [JSON.stringify('x'.repeat(MAX_LABEL_VALUE_LENGTH + 1)), `targets[0].labels.site: expected at most ${MAX_LABEL_VALUE_LENGTH} characters, got ${MAX_LABEL_VALUE_LENGTH + 1}`],
  ])('error: the value %s', (value, message) => {
    expect(err(withLabels(`{ site: ${value} }`))).toContain(message);
  });

  it('error: more than the bound of labels, in one block or with the top-level ones', () => {
    const many = (n: number, prefix: string) => `{ ${Array.from({ length: n }, (_, i) => `${prefix}${i}: v`).join(', ')} }`;
    expect(err(withLabels(many(MAX_USER_LABELS + 1, 'l')))).toContain(`targets[0].labels: expected at most ${MAX_USER_LABELS} labels, got ${MAX_USER_LABELS + 1}`);
    expect(err(`labels: ${many(10, 'g')}\n${withLabels(many(10, 'l'))}`)).toContain(`targets[0].labels: expected at most ${MAX_USER_LABELS} labels with the top-level ones, got 20`);
    // The same name at both levels counts once.
    expect(fromYaml(`labels: ${many(10, 'l')}\n${withLabels(many(10, 'l'))}`).targets[0]!.labels).toBeDefined();
  });

  it('error: the top-level block is checked like a target\'s', () => {
    expect(err('labels: { "__x": v }\n')).toContain('labels.__x: label names starting with __ are reserved for Prometheus itself');
  });
});

describe('metric selection: accepted and refused', () => {
  it('error: a drop pattern that matches a status family is refused, with why and what to do instead', () => {
    expect(err(withMetrics('{ drop: [avax_up] }'))).toContain(
      'targets[0].metrics.drop[0]: matches avax_up, always exposed (the alerts on a node that does not answer or a failing collector read them): narrow the pattern; to stop a collector, disable it (collectors: { <name>: { enabled: false } })',
    );
    expect(err(withMetrics('{ drop: ["avax_collector_.*"] }'))).toContain('matches avax_collector_success, avax_collector_duration_seconds, avax_collector_last_success_timestamp_seconds, always exposed');
    expect(err(`metrics: { drop: ["avax_.*"] }\n${withMetrics('{}')}`)).toContain('metrics.drop[0]: matches avax_up,');
  });

  it('behavior: keep may leave the status families out of its patterns: they are exposed anyway (not an error)', () => {
    expect(fromYaml(withMetrics('{ keep: ["avax_chain_height"] }')).targets[0]!.metrics).toEqual({ keep: ['avax_chain_height'] });
  });

  it.each([
    ['{ keep: ["avax_node_*"] }', 'targets[0].metrics.keep[0]: matches no metric family of the exporter (a regular expression, not a glob: write avax_node_.*); docs/metrics.md lists them'],
    ['{ drop: ["avax_chain_hieght"] }', 'targets[0].metrics.drop[0]: matches no metric family of the exporter; docs/metrics.md lists them'],
    ['{ drop: ["avax_(chain"] }', 'targets[0].metrics.drop[0]: not a regular expression ('],
    ['{ dorp: ["avax_chain_height"] }', 'targets[0].metrics.dorp: unknown key; did you mean drop? (valid here: keep, drop)'],
    ['{ keep: [42] }', 'targets[0].metrics.keep[0]: expected a regular expression (a string; quote it)'],
    ['{ drop: avax_chain_height }', 'targets[0].metrics.drop: expected a list of regular expressions over family names, e.g. drop: ["avax_node_.*"]'],
  ])('error: %s', (metrics, message) => {
    expect(err(withMetrics(metrics))).toContain(message);
  });
});

describe('reload: labels and selection are part of the target', () => {
  const two = (aLabels: string, bMetrics = '{}') =>
    resolveTargets(
      fromYaml(`targets:\n  - { name: a, url: "http://127.0.0.1:9650", labels: ${aLabels} }\n  - { name: b, url: "http://127.0.0.1:9651", metrics: ${bMetrics} }\n`),
      COLLECTORS,
    );

  it('behavior: a target whose labels change is restarted; the others keep running', () => {
    const d = diffTargets(two('{ region: eu }'), two('{ region: us }'));
    expect(d.remove).toEqual(['a']);
    expect(d.add.map((t) => t.spec.name)).toEqual(['a']);
    expect(d.add[0]!.spec.labels).toEqual({ region: 'us' });
  });

  it('behavior: a changed selection, or top-level labels that reach every target, change those targets; the same again changes nothing', () => {
    expect(diffTargets(two('{}'), two('{}', '{ drop: ["avax_node_.*"] }')).remove).toEqual(['b']);
    const before = resolveTargets(fromYaml('targets:\n  - { name: a, url: "http://127.0.0.1:9650" }\n  - { name: b, url: "http://127.0.0.1:9651" }\n'), COLLECTORS);
    const after = resolveTargets(fromYaml('labels: { operator: acme }\ntargets:\n  - { name: a, url: "http://127.0.0.1:9650" }\n  - { name: b, url: "http://127.0.0.1:9651" }\n'), COLLECTORS);
    expect(diffTargets(before, after).remove).toEqual(['a', 'b']);
    expect(diffTargets(two('{ region: eu }'), two('{ region: eu }'))).toEqual({ remove: [], add: [] });
  });
});

describe('the example of docs/configuration.md and examples/config.yaml', () => {
  it('default: the docs/configuration.md block loads and gives each target the labels and selection the text says', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## User labels and metric selection'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const [v1, rpc] = resolveTargets(fromYaml(yaml), COLLECTORS);
    expect(v1!.spec.labels).toEqual({ operator: 'acme', region: 'eu-west', customer: 'x' });
    expect(v1!.spec.metrics).toEqual({ keep: [], drop: ['avax_rpc_request_duration_seconds'] });
    expect(rpc!.spec.labels).toEqual({ operator: 'other' });
    expect(rpc!.spec.metrics).toEqual({ keep: ['avax_chain_.*', 'avax_node_.*'], drop: ['avax_node_info'] });
    // The refusal the document quotes is the one check-config prints.
    const quoted = /`(targets\[0\]\.labels\.region-1: [^`]+)`/.exec(section)![1]!;
    expect(err(withLabels('{ region-1: v }'))).toContain(quoted);
  });

  it('default: examples/config.yaml gives its targets labels of their own', () => {
    const text = readFileSync(new URL('../../examples/config.yaml', import.meta.url), 'utf8');
    const targets = resolveTargets(fromYaml(text), COLLECTORS);
    expect(targets.map((t) => t.spec.labels)).toEqual([{ operator: 'acme', region: 'eu-west' }, { operator: 'acme', region: 'us-east' }, { operator: 'acme' }, { operator: 'acme' }]);
  });
});
