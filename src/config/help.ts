import type { Collector } from '../collectors/define.js';
import { formatDuration } from '../duration.js';
import { collectorFlags, envName, flagsFor } from './flags.js';

/**
 * The flags part of --help, from the settings table and the collector list: every setting, then
 * every collector with its default state and interval and the flags of its options.
 */
export function flagHelp(collectors: readonly Collector<any>[]): string {
  const row = (flag: string, valued: boolean, text: string) => `  --${flag}${valued ? ' VALUE' : ''}`.padEnd(52) + text;
  const settings = flagsFor([]).map((f) => row(f.flag, f.kind !== 'bool', f.help + (f.def ? ` (default ${f.def})` : '')));
  const perCollector = collectors.flatMap((c) => [
    `  ${c.name}: ${c.enabled ? 'on' : 'off'} by default, every ${formatDuration(c.interval)}${c.nodeSpecific ? ', skipped on reference targets' : ''}. ${c.description}`,
    ...collectorFlags(c)
      .slice(2)
      .map((f) => row(f.flag, f.kind !== 'bool', `${f.help} (default ${f.def})`)),
  ]);
  return `Flags (each also readable from the environment, e.g. --node.url as ${envName('node.url')}):
${settings.join('\n')}

Collectors: --collector.NAME / --no-collector.NAME switch one on or off, --collector.NAME.interval DURATION
sets its interval (a multiple of --collection.interval).
${perCollector.join('\n')}
`;
}
