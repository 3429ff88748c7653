import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { loadWebConfig } from '../server/web-config.js';
import { COLLECTOR_NAMES, configSchema, type Config } from './schema.js';
import { didYouMean, schemaKeysAt } from './suggest.js';

/** A configuration problem: the CLI prints `message` and exits with code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Kind = 'string' | 'bool' | 'int' | 'list' | 'duration' | 'bytes';
interface FlagDef {
  flag: string;
  path: (string | number)[];
  kind: Kind;
  help: string;
  def?: string;
  /** Applies to the single target built from flags. */
  target?: boolean;
}

const perCollectorFlags: FlagDef[] = COLLECTOR_NAMES.flatMap((name): FlagDef[] => [
  { flag: `collector.${name}`, path: ['collectors', name, 'enabled'], kind: 'bool', help: `Enable the ${name} collector (--no-collector.${name} disables it).` },
  { flag: `collector.${name}.interval`, path: ['collectors', name, 'interval'], kind: 'duration', help: `Interval of the ${name} collector (a multiple of --collection.interval).` },
]);

/** Every flag, with the config path it sets. The README flags table follows this list. */
export const FLAGS: readonly FlagDef[] = [
  { flag: 'config.file', path: [], kind: 'string', help: 'YAML configuration file (fleet: a list of targets).' },
  { flag: 'node.url', path: ['targets', 0, 'url'], kind: 'string', target: true, def: 'http://127.0.0.1:9650', help: 'URL of the avalanchego node (userinfo, path prefix and query are kept; never logged).' },
  { flag: 'node.name', path: ['targets', 0, 'name'], kind: 'string', target: true, def: 'host:port of the URL', help: 'Value of the target label.' },
  { flag: 'node.header', path: ['targets', 0, 'headers'], kind: 'list', target: true, help: 'Extra request header "Name: value" (repeatable), e.g. Authorization. Never logged.' },
  { flag: 'node.reference', path: ['targets', 0, 'reference'], kind: 'bool', target: true, def: 'false', help: 'Treat the node as a reference or public API: skip node-specific calls.' },
  { flag: 'node.subnet', path: ['targets', 0, 'subnets'], kind: 'list', target: true, help: 'Subnet ID whose validators are watched too (repeatable).' },
  { flag: 'node.chain', path: ['targets', 0, 'chains'], kind: 'list', target: true, help: 'Extra chain (alias or ID) checked by info-is-bootstrapped (repeatable).' },
  { flag: 'validator.node-id', path: ['targets', 0, 'validatorNodeIds'], kind: 'list', target: true, def: "the node's own ID", help: 'Validator NodeID to watch (repeatable).' },
  { flag: 'validator.expect-active', path: ['targets', 0, 'expectActive'], kind: 'bool', target: true, def: 'false', help: "The node's own ID must be an active validator (alert AvalancheNodeNotInValidatorSet when it is not: a moved or re-keyed node); it is watched in addition to any --validator.node-id." },
  { flag: 'node.timeout', path: ['node', 'timeout'], kind: 'duration', def: '5s, or --collection.timeout if shorter', help: 'Deadline of each request to the node.' },
  { flag: 'node.max-response-size', path: ['node', 'maxResponseSize'], kind: 'bytes', def: '32MiB', help: 'Largest response body accepted from the node.' },
  { flag: 'node.connections', path: ['node', 'connections'], kind: 'int', def: '4', help: 'Keep-alive connections per node.' },
  { flag: 'web.listen-address', path: ['web', 'listenAddress'], kind: 'string', def: ':10650', help: 'Address to serve /metrics on.' },
  { flag: 'web.telemetry-path', path: ['web', 'telemetryPath'], kind: 'string', def: '/metrics', help: 'Path of the metrics endpoint.' },
  { flag: 'web.disable-exporter-metrics', path: ['web', 'disableExporterMetrics'], kind: 'bool', def: 'false', help: 'Leave out process_* and nodejs_* metrics of the exporter process.' },
  { flag: 'web.max-concurrent-scrapes', path: ['web', 'maxConcurrentScrapes'], kind: 'int', def: '16', help: 'Scrapes served at once; more get HTTP 503.' },
  { flag: 'web.enable-lifecycle', path: ['web', 'enableLifecycle'], kind: 'bool', def: 'false', help: 'Enable POST /-/reload (reload the configuration like SIGHUP).' },
  { flag: 'web.config.file', path: ['web', 'configFile'], kind: 'string', help: 'Web configuration file (Prometheus exporter-toolkit format): TLS, mTLS, basic auth, response headers. Re-read on change.' },
  { flag: 'collection.interval', path: ['collection', 'interval'], kind: 'duration', def: '15s', help: 'Base collection cycle (divides a minute or an hour).' },
  { flag: 'collection.timeout', path: ['collection', 'timeout'], kind: 'duration', def: '10s, or --collection.interval if shorter', help: 'Deadline of one collector run.' },
  { flag: 'collection.max-concurrent-targets', path: ['collection', 'maxConcurrentTargets'], kind: 'int', def: '8', help: 'Targets collected at once.' },
  { flag: 'log.level', path: ['log', 'level'], kind: 'string', def: 'info', help: 'trace, debug, info, warn, error, fatal or silent.' },
  ...perCollectorFlags,
  { flag: 'collector.info-peers.per-peer', path: ['collectors', 'info-peers', 'perPeer'], kind: 'bool', def: 'false', help: 'One avax_peer_info series per connected peer (about 2,000 on mainnet).' },
  { flag: 'collector.info-peers.silence-window', path: ['collectors', 'info-peers', 'silenceWindow'], kind: 'duration', def: '60s', help: 'A peer is silent when nothing was received from it for this long.' },
  { flag: 'collector.index-last-accepted.x-tx', path: ['collectors', 'index-last-accepted', 'xTx'], kind: 'bool', def: 'false', help: 'Also poll /ext/index/X/tx (frozen since Cortina).' },
  { flag: 'collector.index-last-accepted.x-vtx', path: ['collectors', 'index-last-accepted', 'xVtx'], kind: 'bool', def: 'false', help: 'Also poll /ext/index/X/vtx (frozen since Cortina).' },
];

const FLAG_BY_NAME = new Map(FLAGS.map((f) => [f.flag, f]));
/** Every spelling a flag may take, for "did you mean" (bool flags also as --no-NAME). */
const FLAG_NAMES = FLAGS.flatMap((f) => (f.kind === 'bool' ? [f.flag, `no-${f.flag}`] : [f.flag]));
export const ENV_PREFIX = 'AVAX_EXPORTER_';
export const envName = (flag: string) => ENV_PREFIX + flag.toUpperCase().replace(/[.-]/g, '_');

interface Setting {
  def: FlagDef;
  value: string | boolean;
  source: string;
}

/** Parses argv (without the subcommand) into settings; throws ConfigError on an unknown flag or a missing value. */
export function parseFlags(argv: readonly string[]): Setting[] {
  const out: Setting[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}; flags start with --`);
    let name = arg.slice(2);
    let value: string | boolean | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    let negated = false;
    if (!FLAG_BY_NAME.has(name) && name.startsWith('no-') && FLAG_BY_NAME.get(name.slice(3))?.kind === 'bool') {
      negated = true;
      name = name.slice(3);
    }
    const def = FLAG_BY_NAME.get(name);
    if (!def) throw new ConfigError(`unknown flag --${name}${didYouMean(name, FLAG_NAMES, (f) => `--${f}`) || '; see --help for the flags'}`);
    if (def.kind === 'bool') {
      if (negated) value = false;
      else if (value === undefined) value = true;
    } else if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(`flag --${name} needs a value`);
      value = next;
      i++;
    }
    out.push({ def, value, source: `--${name}` });
  }
  return out;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): Setting[] {
  const out: Setting[] = [];
  for (const def of FLAGS) {
    const v = env[envName(def.flag)];
    if (v !== undefined && v !== '') out.push({ def, value: v, source: envName(def.flag) });
  }
  return out;
}

function convert(s: Setting): unknown {
  const { def, value, source } = s;
  const str = String(value);
  switch (def.kind) {
    case 'bool':
      if (value === true || value === false) return value;
      if (/^(true|1|yes)$/i.test(str)) return true;
      if (/^(false|0|no)$/i.test(str)) return false;
      throw new ConfigError(`${source}: expected true or false, got ${JSON.stringify(str)}`);
    case 'int':
      if (!/^\d+$/.test(str)) throw new ConfigError(`${source}: expected a whole number, got ${JSON.stringify(str)}`);
      return Number(str);
    case 'list':
      return str.split(',').map((x) => x.trim()).filter(Boolean);
    default:
      return str;
  }
}

function setPath(obj: Record<string, unknown>, path: (string | number)[], value: unknown, append: boolean): void {
  let cur: Record<string | number, unknown> = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (cur[k] === undefined || cur[k] === null || typeof cur[k] !== 'object') cur[k] = nextIsIndex ? [] : {};
    cur = cur[k] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (append && Array.isArray(cur[last]) && Array.isArray(value)) cur[last] = [...(cur[last] as unknown[]), ...value];
  else cur[last] = value;
}

export interface LoadOptions {
  argv: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Read a file (injectable for tests). */
  readFile?: (path: string) => string;
}

export interface LoadedConfig {
  config: Config;
  configFile?: string;
}

/** Builds the configuration: defaults < YAML file < environment < flags. Throws ConfigError. */
export function loadConfig(opts: LoadOptions): LoadedConfig {
  const env = opts.env ?? process.env;
  const flagSettings = parseFlags(opts.argv);
  const envSettings = settingsFromEnv(env);
  const all = [...envSettings, ...flagSettings];
  const fileSetting = [...all].reverse().find((s) => s.def.flag === 'config.file');
  const configFile = fileSetting ? String(fileSetting.value) : undefined;

  let raw: Record<string, unknown> = {};
  if (configFile) raw = readYaml(configFile, opts.readFile ?? ((p) => readFileSync(p, 'utf8')));
  const fileHasTargets = Array.isArray(raw['targets']);

  const targetSettings = all.filter((s) => s.def.target);
  if (fileHasTargets && targetSettings.length > 0) {
    const names = [...new Set(targetSettings.map((s) => s.source))].join(', ');
    throw new ConfigError(`${names}: target flags describe a single node and cannot be combined with targets in ${configFile}; put them in the file`);
  }
  if (!fileHasTargets) raw['targets'] = [{ url: 'http://127.0.0.1:9650' }];

  // Environment first, then flags, so flags win; list flags accumulate within one source.
  for (const group of [envSettings, flagSettings]) {
    const seenLists = new Set<string>();
    for (const s of group) {
      if (s.def.flag === 'config.file') continue;
      let value = convert(s);
      if (s.def.flag === 'node.header') value = parseHeaders(value as string[], s.source);
      const append = s.def.kind === 'list' && seenLists.has(s.def.flag);
      if (s.def.flag === 'node.header' && append) {
        const t = (raw['targets'] as Record<string, unknown>[])[0]!;
        t['headers'] = { ...(t['headers'] as object), ...(value as object) };
      } else {
        setPath(raw, s.def.path, value, append);
      }
      seenLists.add(s.def.flag);
    }
  }

  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 20).flatMap((i) => {
      const path = formatPath(i.path as (string | number)[]);
      if (i.code === 'unrecognized_keys') {
        // A misspelt YAML key: name it with its full path and the nearest key valid at that place.
        const valid = schemaKeysAt(configSchema, i.path) ?? [];
        return i.keys.map((k) => `  ${path ? `${path}.` : ''}${k}: unknown key${didYouMean(k, valid)}${valid.length ? ` (valid here: ${valid.join(', ')})` : ''}`);
      }
      const flag = FLAGS.find((f) => f.path.length > 0 && (path === formatPath(f.path) || path.startsWith(`${formatPath(f.path)}[`)));
      const where = flag ? `${path} (--${flag.flag})` : path || '(top level)';
      return [`  ${where}: ${i.message}`];
    });
    throw new ConfigError(`invalid configuration${configFile ? ` (${configFile})` : ''}:\n${lines.join('\n')}`);
  }
  // The web configuration file is checked here too, so that check-config and SIGHUP report it.
  if (parsed.data.web.configFile) loadWebConfig(parsed.data.web.configFile);
  return { config: parsed.data, configFile };
}

function parseHeaders(list: string[], source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    if (i <= 0) throw new ConfigError(`${source}: expected "Name: value", got a value without a colon`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

function readYaml(path: string, read: (p: string) => string): Record<string, unknown> {
  let text: string;
  try {
    text = read(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`--config.file ${path}: cannot read the file (${code})`);
  }
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    throw new ConfigError(`--config.file ${path}: ${yamlErrorText(err, text)}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError(`--config.file ${path}: expected a mapping at the top level`);
  return doc as Record<string, unknown>;
}

function formatPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * A YAML syntax error as a person can act on it: the parser's reason with line and column, then the
 * offending line and a caret under the column.
 */
export function yamlErrorText(err: unknown, text: string): string {
  const e = err as { message?: string; linePos?: { line: number; col: number }[] };
  const reason = String(e.message ?? err).split('\n')[0]!.replace(/:$/, '');
  const pos = e.linePos?.[0];
  if (!pos) return `not valid YAML: ${reason}`;
  const lines = text.split(/\r?\n/);
  const src = lines[pos.line - 1];
  const shownLine = src === undefined || (src === '' && pos.line >= lines.length) ? '(end of file)' : src.replace(/\t/g, ' ');
  const num = `${pos.line} | `;
  const caret = shownLine === '(end of file)' ? '' : `\n    ${' '.repeat(num.length)}${' '.repeat(Math.max(0, pos.col - 1))}^`;
  return `not valid YAML: ${reason}\n    ${num}${shownLine}${caret}`;
}
