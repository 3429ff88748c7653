import type { Collector, OptionSpec } from '../collectors/define.js';
import { formatDuration } from '../duration.js';
import { ConfigError } from './errors.js';
import { SETTINGS, defaultShown, type FlagKind, type SettingSpec } from './settings.js';
import { didYouMean } from './suggest.js';

/**
 * Flags and their environment variables: the settings table plus, for every collector, the flags its
 * file declares (`--collector.NAME`, `--collector.NAME.interval`, and one per option).
 */
export interface FlagDef {
  readonly flag: string;
  readonly path: readonly (string | number)[];
  readonly kind: FlagKind;
  readonly help: string;
  /** The default as --help shows it ('' when none). */
  readonly def: string;
  /** Describes the single target built from flags. */
  readonly target?: boolean;
  /** The collector a flag belongs to (for --help grouping). */
  readonly collector?: string;
}

export const ENV_PREFIX = 'AVAX_EXPORTER_';
export const envName = (flag: string): string => ENV_PREFIX + flag.toUpperCase().replace(/[.-]/g, '_');

/** perPeer → per-peer */
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const optionKind = (o: OptionSpec): FlagKind => (o.kind === 'bool' ? 'bool' : o.kind === 'duration' ? 'duration' : 'int');
const optionDefault = (o: OptionSpec): string => (o.kind === 'duration' ? formatDuration(o.default) : String(o.default));

/** The flags a collector declares: on/off, its interval, and one per option. */
export function collectorFlags(c: Collector<any>): FlagDef[] {
  return [
    { flag: `collector.${c.name}`, path: ['collectors', c.name, 'enabled'], kind: 'bool', def: c.enabled ? 'on' : 'off', collector: c.name, help: `${c.enabled ? 'Enabled' : 'Disabled'} by default: the ${c.name} collector (--no-collector.${c.name} turns it off).` },
    { flag: `collector.${c.name}.interval`, path: ['collectors', c.name, 'interval'], kind: 'duration', def: formatDuration(c.interval), collector: c.name, help: `Interval of the ${c.name} collector (a multiple of --collection.interval).` },
    ...Object.entries(c.options).map(
      ([key, o]): FlagDef => ({ flag: `collector.${c.name}.${kebab(key)}`, path: ['collectors', c.name, key], kind: optionKind(o), def: optionDefault(o), collector: c.name, help: o.help }),
    ),
  ];
}

/** Every flag: the settings table's, then each collector's. */
export function flagsFor(collectors: readonly Collector<any>[]): FlagDef[] {
  return [...SETTINGS.map((s: SettingSpec): FlagDef => ({ flag: s.flag, path: s.path, kind: s.kind, help: s.help, def: defaultShown(s), target: s.target })), ...collectors.flatMap(collectorFlags)];
}

/** One value from a flag or the environment, with where it came from. */
export interface FlagSetting {
  readonly def: FlagDef;
  readonly value: string | boolean;
  readonly source: string;
}

/** Parses argv (without the subcommand) into settings; throws ConfigError on an unknown flag or a missing value. */
export function parseFlags(argv: readonly string[], flags: readonly FlagDef[]): FlagSetting[] {
  const byName = new Map(flags.map((f) => [f.flag, f]));
  // Every spelling a flag may take, for "did you mean" (bool flags also as --no-NAME).
  const spellings = flags.flatMap((f) => (f.kind === 'bool' ? [f.flag, `no-${f.flag}`] : [f.flag]));
  const out: FlagSetting[] = [];
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
    if (!byName.has(name) && name.startsWith('no-') && byName.get(name.slice(3))?.kind === 'bool') {
      negated = true;
      name = name.slice(3);
    }
    const def = byName.get(name);
    if (!def) throw new ConfigError(`unknown flag --${name}${didYouMean(name, spellings, (f) => `--${f}`) || '; see --help for the flags'}`);
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

export function settingsFromEnv(env: NodeJS.ProcessEnv, flags: readonly FlagDef[]): FlagSetting[] {
  const out: FlagSetting[] = [];
  for (const def of flags) {
    const v = env[envName(def.flag)];
    if (v !== undefined && v !== '') out.push({ def, value: v, source: envName(def.flag) });
  }
  return out;
}

/** The configuration value of a flag's string (bools, whole numbers and lists converted). */
export function convert(s: FlagSetting): unknown {
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
