// What a newcomer reads when a setting is wrong (issue 12, point 4): defaults that follow the
// interval, messages that say when a value is a default, "did you mean", YAML errors with their
// line, every fault of a web configuration at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { yamlErrorText } from '../../src/config/yaml-file.js';
import { configSchema } from '../../src/config/schema.js';
import { editDistance, nearest, schemaKeysAt } from '../../src/config/suggest.js';
import { nodeVersionProblem } from '../../src/runtime-check.js';
import { loadWebConfig } from '../../src/server/web-config.js';

const load = (argv: string[], files: Record<string, string> = {}) =>
  loadConfig({
    argv,
    env: {},
    readFile: (p) => {
      if (!(p in files)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      return files[p]!;
    },
  });
const err = (argv: string[], files: Record<string, string> = {}): string => {
  try {
    load(argv, files);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(argv)}`);
};

describe('timeouts follow the interval', () => {
  it('default: 15 s interval → 10 s collector timeout → 5 s node timeout', () => {
    const { config } = load([]);
    expect([config.collection.interval, config.collection.timeout, config.node.timeout]).toEqual([15, 10, 5]);
  });

  it('behavior: --collection.interval 5s alone is valid: the collector timeout defaults to the interval, the node timeout to 5 s', () => {
    const { config } = load(['--collection.interval', '5s']);
    expect([config.collection.interval, config.collection.timeout, config.node.timeout]).toEqual([5, 5, 5]);
    const short = load(['--collection.interval', '2s']).config;
    expect([short.collection.timeout, short.node.timeout]).toEqual([2, 2]);
    const fromFile = load(['--config.file', '/c.yaml'], { '/c.yaml': 'collection:\n  interval: 1s\n' }).config;
    expect([fromFile.collection.timeout, fromFile.node.timeout]).toEqual([1, 1]);
  });

  it('behavior: values that are set are kept (a node timeout above the collector timeout is not raised or cut)', () => {
    const { config } = load(['--collection.interval', '30s', '--collection.timeout', '20s', '--node.timeout', '8s']);
    expect([config.collection.interval, config.collection.timeout, config.node.timeout]).toEqual([30, 20, 8]);
    expect(load(['--collection.timeout', '3s']).config.node.timeout).toBe(3);
  });

  it('error: a message about a value the user did not set says it is a default and which flag changes it', () => {
    expect(err(['--collection.timeout', '20s'])).toContain(
      'collection.timeout (--collection.timeout): must not exceed collection.interval (15s, the default; set --collection.interval to change it), got 20s',
    );
    expect(err(['--collector.health.interval', '20s'])).toContain('(15s, the default; set --collection.interval to change it), got 20s');
    // Set by the user: no "default" wording.
    expect(err(['--collection.interval', '5s', '--collection.timeout', '6s'])).toContain('must not exceed collection.interval (5s), got 6s');
  });
});

describe('listen address', () => {
  it.each([['127.0.0.1:99999', '99999'], [':65536', '65536'], ['[::1]:100000', '100000']])('error: %s is rejected naming the field and the port', (addr, port) => {
    expect(err(['--web.listen-address', addr])).toContain(`web.listenAddress (--web.listen-address): expected a port 1-65535 (or 0 for any free port), got ${port}`);
  });
  it('default: ports 0 (any free port), 1 and 65535 are accepted', () => {
    for (const a of ['127.0.0.1:0', ':1', '[::1]:65535']) expect(load(['--web.listen-address', a]).config.web.listenAddress).toBe(a);
  });
});

describe('did you mean', () => {
  it.each([
    [['--node.ulr', 'x'], 'unknown flag --node.ulr; did you mean --node.url?'],
    [['--web.listen_address', ':1'], 'did you mean --web.listen-address?'],
    [['--collection.intervall', '5s'], 'did you mean --collection.interval?'],
    [['--no-collector.helth'], 'did you mean --no-collector.health?'],
    [['--log-level', 'info'], 'did you mean --log.level?'],
  ])('error: flag %j', (argv, message) => {
    expect(err(argv)).toContain(message);
  });

  it('error: a flag far from every flag gets no guess, only the pointer to --help', () => {
    expect(err(['--bogus'])).toBe('unknown flag --bogus; see --help for the flags');
  });

  it('error: misspelt YAML keys name their full path and the nearest valid key there', () => {
    const m = err(['--config.file', '/c.yaml'], {
      '/c.yaml': 'collection:\n  intervall: 5s\ntargets:\n  - url: http://127.0.0.1:9650\n    nmae: a\n    collectors: { helth: { enabled: false } }\nweb:\n  listen: ":1"\n',
    });
    expect(m).toContain('collection.intervall: unknown key; did you mean interval?');
    expect(m).toContain('targets[0].nmae: unknown key; did you mean name?');
    expect(m).toContain('web.listen: unknown key; did you mean listenAddress?');
    expect(m).toMatch(/targets\[0\]\.collectors\.helth: unknown collector \(expected one of [^)]*\); did you mean health\?/);
  });

  it('default: the keys valid at a path come from the schema itself', () => {
    expect(schemaKeysAt(configSchema, ['collection'])).toEqual(['interval', 'timeout', 'maxConcurrentTargets']);
    expect(schemaKeysAt(configSchema, ['targets', 0])).toContain('validatorNodeIds');
    expect(schemaKeysAt(configSchema, ['collectors', 'info-peers'])).toEqual(['enabled', 'interval', 'perPeer', 'silenceWindow']);
    expect(schemaKeysAt(configSchema, ['nope'])).toBeUndefined();
  });

  it('default: edit distance counts a swap as one edit; nearest needs a likely typo', () => {
    expect(editDistance('ulr', 'url')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(nearest('node.ulr', ['node.url', 'node.name'])).toBe('node.url');
    expect(nearest('zzz', ['node.url'])).toBeUndefined();
    expect(nearest('listen', ['listenAddress', 'telemetryPath'])).toBe('listenAddress');
  });
});

describe('YAML syntax errors', () => {
  it('error: the message has the line, the column and the offending line under it', () => {
    const text = 'web:\n  listenAddress: ":1"\ntargets:\n  - url: http://127.0.0.1:9650\n   name: a\n';
    const m = err(['--config.file', '/bad.yaml'], { '/bad.yaml': text });
    expect(m).toContain('--config.file /bad.yaml: not valid YAML:');
    expect(m).toContain('at line 5, column 1');
    expect(m).toContain('5 |    name: a');
    expect(m.split('\n')).toHaveLength(3); // reason, line, caret
  });

  it('error: duplicate keys and unterminated flows point at their line too', () => {
    expect(err(['--config.file', '/d.yaml'], { '/d.yaml': 'log:\n  level: info\nlog:\n  level: warn\n' })).toMatch(/unique at line 3, column 1[^]*3 \| log:/);
    expect(yamlErrorText({ message: 'boom' }, '')).toBe('not valid YAML: boom');
  });
});

describe('web configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-webcfg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('error: a file with several faults lists every one of them', () => {
    const file = join(dir, 'web.yml');
    writeFileSync(
      file,
      'tls_server_config:\n  cert_fil: server.crt\n  key_file: missing.key\n  client_auth_type: RequireAndVerifyClientCert\n' +
        'basic_auth_users:\n  bob: plaintext\nhttp_server_config:\n  headers:\n    Content-Type: x\nrate_limit: 1\n',
    );
    let message = '';
    try {
      loadWebConfig(file);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    const lines = message.split('\n').slice(1).map((l) => l.trim()).sort();
    expect(lines).toEqual([
      'basic_auth_users.bob: expected a bcrypt hash ($2a$, $2b$ or $2y$), e.g. from htpasswd -nBC 10 USER',
      'http_server_config.headers.Content-Type: this header is set by the exporter and cannot be configured',
      'rate_limit: is an exporter-toolkit setting that avalanche-exporter does not implement; remove it',
      'tls_server_config.cert_fil: unknown key; did you mean cert_file?',
      'tls_server_config.cert_file: required when tls_server_config is present',
      'tls_server_config.client_ca_file: required with client_auth_type RequireAndVerifyClientCert',
      'tls_server_config.key_file: cannot read missing.key (ENOENT)',
    ]);
  });

  it('error: a YAML syntax error in the web configuration shows its line', () => {
    const file = join(dir, 'bad.yml');
    writeFileSync(file, 'basic_auth_users:\n  a: [\n');
    expect(() => loadWebConfig(file)).toThrow(/not valid YAML: .* at line \d+, column \d+/);
  });
});

describe('Node.js version', () => {
  it('error: older than 20.18 gets a sentence with where to get a newer one', () => {
    expect(nodeVersionProblem('18.19.0')).toMatch(/^avalanche-exporter needs Node\.js >= 20\.18, this is v18\.19\.0\. Debian 12/);
    expect(nodeVersionProblem('v20.17.0')).toContain('NodeSource');
  });
  it('default: 20.18 and later pass', () => {
    for (const v of ['20.18.0', '20.20.2', 'v22.1.0', '24.0.0']) expect(nodeVersionProblem(v)).toBeUndefined();
  });
});
