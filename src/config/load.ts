import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { Collector } from '../collectors/define.js';
import { COLLECTORS } from '../collectors/index.js';
import { ConfigError } from './errors.js';
import { convert, flagsFor, parseFlags, settingsFromEnv, type FlagDef } from './flags.js';
import { buildConfigSchema, configSchema, type Config } from './schema.js';
import { DEFAULT_NODE_URL } from './settings.js';
import { readYaml } from './yaml-file.js';
import { didYouMean, schemaKeysAt } from './suggest.js';

export { ConfigError } from './errors.js';
export { envName } from './flags.js';

/** Every flag of the exporter with the built-in collectors (the flags table of docs/configuration.md and --help follow it). */
export const FLAGS: readonly FlagDef[] = flagsFor(COLLECTORS);

function setPath(obj: Record<string, unknown>, path: readonly (string | number)[], value: unknown, append: boolean): void {
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
  /** The collector list whose flags and options are accepted (default: COLLECTORS). */
  collectors?: readonly Collector<any>[];
}

export interface LoadedConfig {
  config: Config;
  configFile?: string;
}

/**
 * Builds the configuration: defaults < YAML file < environment < flags. Throws ConfigError. The file of
 * --web.config.file is the server's to read (cli.ts checks it with the rest: loadChecked).
 */
export function loadConfig(opts: LoadOptions): LoadedConfig {
  const env = opts.env ?? process.env;
  const collectors = opts.collectors ?? COLLECTORS;
  const flags = opts.collectors ? flagsFor(collectors) : FLAGS;
  const schema = opts.collectors ? buildConfigSchema(collectors) : configSchema;
  const flagSettings = parseFlags(opts.argv, flags);
  const envSettings = settingsFromEnv(env, flags);
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
  if (!fileHasTargets) raw['targets'] = [{ url: DEFAULT_NODE_URL }];

  // Environment first, then flags, so flags win; list flags accumulate within one source.
  for (const group of [envSettings, flagSettings]) {
    const seenLists = new Set<string>();
    for (const s of group) {
      if (s.def.flag === 'config.file') continue;
      let value = convert(s);
      // Repeatable "name: value" / "name=value" flags build a map (headers, labels).
      const pairs = PAIR_FLAGS[s.def.flag];
      if (pairs) value = parsePairs(value as string[], s.source, pairs);
      const append = s.def.kind === 'list' && seenLists.has(s.def.flag);
      if (pairs && append) {
        const t = (raw['targets'] as Record<string, unknown>[])[0]!;
        const key = String(s.def.path[2]);
        t[key] = { ...(t[key] as object), ...(value as object) };
      } else {
        setPath(raw, s.def.path, value, append);
      }
      seenLists.add(s.def.flag);
    }
  }

  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.flatMap(unionBranch).slice(0, 20).flatMap((i) => {
      const path = formatPath(i.path as (string | number)[]);
      if (i.code === 'unrecognized_keys') {
        // A misspelt YAML key: name it with its full path and the nearest key valid at that place.
        const valid = schemaKeysAt(schema, i.path) ?? [];
        return i.keys.map((k) => `  ${path ? `${path}.` : ''}${k}: unknown key${didYouMean(k, valid)}${valid.length ? ` (valid here: ${valid.join(', ')})` : ''}`);
      }
      // A target of the file was not set by a --node.* flag: no flag to name there.
      const flag = flags.find((f) => f.path.length > 0 && !(fileHasTargets && f.target) && (path === formatPath(f.path) || path.startsWith(`${formatPath(f.path)}[`)));
      const where = flag ? `${path} (--${flag.flag})` : path || '(top level)';
      return [`  ${where}: ${i.message}`];
    });
    throw new ConfigError(`invalid configuration${configFile ? ` (${configFile})` : ''}:\n${lines.join('\n')}`);
  }
  return { config: parsed.data, configFile };
}

/** The repeatable flags whose values are pairs, and what separates a name from its value. */
const PAIR_FLAGS: Readonly<Record<string, { sep: ':' | '='; shape: string }>> = {
  'node.header': { sep: ':', shape: '"Name: value"' },
  'node.label': { sep: '=', shape: '"name=value"' },
};

function parsePairs(list: string[], source: string, how: { sep: ':' | '='; shape: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(how.sep);
    if (i <= 0) throw new ConfigError(`${source}: expected ${how.shape}, got a value without ${how.sep === ':' ? 'a colon' : 'an ='}`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/**
 * A value that is one of several shapes (a node ID or `{ nodeId, subnets }`) and fits none: when its type
 * is the one of exactly one shape (an object), that shape's problems, each with its own path; otherwise
 * the union's own message.
 */
function unionBranch(i: Issue): Issue[] {
  if (i.code !== 'invalid_union') return [i];
  const typed = i.errors.filter((errs) => !errs.some((e) => e.code === 'invalid_type' && e.path.length === 0));
  if (typed.length !== 1) return [i];
  return typed[0]!.map((e) => ({ ...e, path: [...i.path, ...e.path] }) as Issue).flatMap(unionBranch);
}

function formatPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
