import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { resolveTargets } from '../../src/config/targets.js';

const files = (map: Record<string, string>) => (p: string) => {
  if (!(p in map)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return map[p]!;
};
const load = (argv: string[], env: NodeJS.ProcessEnv = {}, fs: Record<string, string> = {}) => loadConfig({ argv, env, readFile: files(fs) });
const err = (argv: string[], env: NodeJS.ProcessEnv = {}, fs: Record<string, string> = {}) => {
  try {
    load(argv, env, fs);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('config', () => {
  it('default: every default comes from the one schema', () => {
    const { config } = load([]);
    expect(config.web).toEqual({ listenAddress: ':10650', telemetryPath: '/metrics', disableExporterMetrics: false, maxConcurrentScrapes: 16, enableLifecycle: false, servingThread: 'auto' });
    expect(config.collection).toEqual({ interval: 15, timeout: 10, maxConcurrentTargets: 8 });
    expect(config.node).toEqual({ timeout: 5, maxResponseSize: 32 * 1024 * 1024, connections: 4 });
    expect(config.targets).toHaveLength(1);
    expect(config.targets[0]!.url).toBe('http://127.0.0.1:9650');
    expect(config.log.level).toBe('info');
  });

  it('behavior: flags set target, collectors and repeatable validator IDs', () => {
    const { config } = load([
      '--node.url', 'http://10.0.0.1:9650', '--validator.node-id', 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
      '--validator.node-id=NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', '--no-collector.info-peers', '--collector.health.interval', '1m',
      '--collector.info-peers.per-peer', '--node.header', 'Authorization: Bearer abc', '--node.timeout=2s',
    ]);
    const t = config.targets[0]!;
    expect(t.url).toBe('http://10.0.0.1:9650');
    expect(t.validatorNodeIds).toEqual(['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ']);
    expect(t.headers).toEqual({ Authorization: 'Bearer abc' });
    expect(t.expectActive).toBe(false);
    expect(load(['--validator.expect-active']).config.targets[0]!.expectActive).toBe(true);
    expect(load(['--no-collector.info-acps']).config.collectors['info-acps']).toEqual({ enabled: false });
    expect(config.collectors['info-peers']).toEqual({ enabled: false, perPeer: true });
    expect(config.collectors.health?.interval).toBe(60);
    expect(config.node.timeout).toBe(2);
    const [r] = resolveTargets(config, COLLECTORS);
    expect(r!.spec.name).toBe('10.0.0.1:9650');
    expect(r!.collectors.find((c) => c.name === 'health')).toEqual({ name: 'health', enabled: true, intervalSeconds: 60 });
    expect(r!.collectors.find((c) => c.name === 'info-peers')!.enabled).toBe(false);
  });

  it('behavior: validatorNodeIds takes plain IDs (the primary network) and { nodeId, subnets } entries (issue 43)', () => {
    const L1 = 'BKBZ6xXTnT86B4L5fp8rvtcmNSpvtNz8En9jG61ywV2uWyeHy';
    const yaml = [
      'targets:',
      '  - url: http://10.0.0.1:9650',
      '    expectActive: true',
      `    subnets: [${L1}]`,
      '    validatorNodeIds:',
      '      - NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
      `      - { nodeId: NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ, subnets: [primary, ${L1}, ${L1}] }`,
      '      - { nodeId: NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN }',
      '      - NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    ].join('\n');
    const { config } = load(['--config.file', '/c.yaml'], {}, { '/c.yaml': yaml });
    const [r] = resolveTargets(config, COLLECTORS);
    // Each ID once; the subnets only for the entry that names them (deduplicated), as written.
    expect(r!.spec.validatorNodeIds).toEqual(['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', 'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN']);
    expect(r!.spec.validatorSubnets).toEqual({ 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ': ['primary', L1] });
    // A plain list resolves as before, without per-ID subnets.
    expect(resolveTargets(load(['--validator.node-id', 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg']).config, COLLECTORS)[0]!.spec).not.toHaveProperty('validatorSubnets');
  });

  it.each([
    ['      - { nodeId: NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg, subnets: [primry] }', 'targets[0].validatorNodeIds[0].subnets[0]: expected primary or a CB58 subnet ID'],
    ['      - { nodeId: NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg, subnets: [] }', 'targets[0].validatorNodeIds[0].subnets: expected at least one subnet'],
    ['      - { nodeID: NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg }', 'targets[0].validatorNodeIds[0].nodeID: unknown key; did you mean nodeId? (valid here: nodeId, subnets)'],
    ['      - { subnets: [primary] }', 'targets[0].validatorNodeIds[0].nodeId: expected NodeID-<CB58> (each entry needs its nodeId)'],
    ['      - { nodeId: NodeID-0OIl }', 'targets[0].validatorNodeIds[0].nodeId: expected NodeID-<CB58>'],
    ['      - 7', 'targets[0].validatorNodeIds[0]: expected NodeID-<CB58>, or { nodeId: NodeID-<CB58>, subnets: [primary, <CB58 subnet ID>, …] }'],
    [
      '      - NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg\n      - { nodeId: NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg, subnets: [primary] }',
      'targets[0].validatorNodeIds[1]: NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg is listed twice; list it once (with its subnets, if any)',
    ],
  ])('error: a validatorNodeIds entry %# names its field', (entry, message) => {
    const yaml = `targets:\n  - url: http://10.0.0.1:9650\n    validatorNodeIds:\n${entry}\n`;
    expect(err(['--config.file', '/c.yaml'], {}, { '/c.yaml': yaml })).toContain(message);
  });

  it('behavior: precedence is defaults < file < env < flags', () => {
    const fs = { '/c.yaml': 'web:\n  listenAddress: ":1111"\nlog:\n  level: warn\n' };
    expect(load(['--config.file', '/c.yaml'], {}, fs).config.web.listenAddress).toBe(':1111');
    expect(load(['--config.file', '/c.yaml'], { AVAX_EXPORTER_WEB_LISTEN_ADDRESS: ':2222' }, fs).config.web.listenAddress).toBe(':2222');
    expect(load(['--config.file', '/c.yaml', '--web.listen-address', ':3333'], { AVAX_EXPORTER_WEB_LISTEN_ADDRESS: ':2222' }, fs).config.web.listenAddress).toBe(':3333');
    expect(load(['--config.file', '/c.yaml'], {}, fs).config.log.level).toBe('warn');
  });

  it('behavior: a fleet file with per-target overrides', () => {
    const fs = {
      '/f.yaml': `targets:
  - name: validator-1
    url: http://127.0.0.1:9650
    headers: { Authorization: "Bearer x" }
    collectors: { info-peers: { enabled: false } }
  - name: reference
    url: https://api.example.org
    reference: true
`,
    };
    const { config } = load(['--config.file', '/f.yaml'], {}, fs);
    expect(config.targets.map((t) => t.name)).toEqual(['validator-1', 'reference']);
    expect(config.targets[1]!.reference).toBe(true);
    const r = resolveTargets(config, COLLECTORS);
    expect(r[0]!.collectors.find((c) => c.name === 'info-peers')!.enabled).toBe(false);
    expect(r[1]!.collectors.find((c) => c.name === 'info-peers')!.enabled).toBe(true);
  });

  it.each([
    [['--node.url', 'ftp://x'], 'targets[0].url (--node.url): expected an http or https URL'],
    [['--node.url', 'not a url'], 'targets[0].url (--node.url): expected an http(s) URL'],
    [['--web.listen-address', 'nope'], 'web.listenAddress (--web.listen-address): expected host:port'],
    [['--collection.interval', '7s'], 'collection.interval (--collection.interval): expected an interval that divides a minute'],
    [['--collector.health.interval', '20s'], 'collectors.health.interval (--collector.health.interval): expected a multiple of collection.interval (15s, the default; set --collection.interval to change it), got 20s'],
    [['--node.timeout', 'soon'], 'node.timeout (--node.timeout): expected a duration'],
    [['--log.level', 'loud'], 'log.level (--log.level)'],
    [['--validator.node-id', 'NodeID-0OIl'], 'targets[0].validatorNodeIds[0] (--validator.node-id): expected NodeID-<CB58>'],
    [['--bogus'], 'unknown flag --bogus'],
    [['--node.url'], 'flag --node.url needs a value'],
    [['--node.connections', 'four'], '--node.connections: expected a whole number'],
    [['--web.disable-exporter-metrics=maybe'], '--web.disable-exporter-metrics: expected true or false'],
    [['--validator.expect-active=sometimes'], '--validator.expect-active: expected true or false'],
  ])('error: %j names the field and what was expected', (argv, message) => {
    expect(err(argv as string[])).toContain(message);
  });

  it('error: file problems name the file and the field', () => {
    expect(err(['--config.file', '/missing.yaml'])).toContain('--config.file /missing.yaml: cannot read the file (ENOENT)');
    expect(err(['--config.file', '/bad.yaml'], {}, { '/bad.yaml': 'web: [' })).toContain('not valid YAML');
    expect(err(['--config.file', '/u.yaml'], {}, { '/u.yaml': 'web:\n  listen: ":1"\n' })).toContain('web.listen: unknown key; did you mean listenAddress?');
    expect(err(['--config.file', '/d.yaml'], {}, { '/d.yaml': 'targets:\n  - {name: a, url: "http://127.0.0.1:1"}\n  - {name: a, url: "http://127.0.0.1:2"}\n' })).toContain(
      'targets[1].name: duplicate target name "a"',
    );
    expect(err(['--config.file', '/t.yaml'], {}, { '/t.yaml': 'targets:\n  - {url: 5}\n' })).toContain('targets[0].url');
    expect(err(['--config.file', '/c.yaml', '--node.url', 'http://x:1'], {}, { '/c.yaml': 'targets:\n  - {url: "http://127.0.0.1:1"}\n' })).toContain(
      'cannot be combined with targets',
    );
    expect(err(['--config.file', '/k.yaml'], {}, { '/k.yaml': 'targets:\n  - {url: "http://127.0.0.1:1", collectors: {nope: {enabled: true}}}\n' })).toContain(
      'targets[0].collectors.nope: unknown collector',
    );
  });
});
