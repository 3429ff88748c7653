import type { Collector } from '../collectors/define.js';
import { formatDuration } from '../duration.js';
import { collectorFlags, flagsFor } from '../config/flags.js';

/**
 * The flags and collectors tables of docs/configuration.md, generated from the settings table and the collector
 * list (`npm run docs` rewrites them between their markers; a test fails when they are out of date).
 */
const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderFlagsTable(collectors: readonly Collector<any>[]): string {
  const settings = flagsFor([]).map((f) => `| \`--${f.flag}\` | ${cell(f.def)} | ${cell(f.help)} |`);
  const options = collectors.flatMap((c) => collectorFlags(c).slice(2)).map((f) => `| \`--${f.flag}\` | ${cell(f.def)} | ${cell(f.help)} |`);
  return [
    '| flag | default | meaning |',
    '|---|---|---|',
    ...settings,
    ...options,
    '| `--collector.NAME` / `--no-collector.NAME` | see below | switch a collector on or off |',
    '| `--collector.NAME.interval` | see below | interval of one collector (a multiple of `--collection.interval`) |',
  ].join('\n');
}

export function renderCollectorsTable(collectors: readonly Collector<any>[]): string {
  const rows = collectors.map(
    (c) =>
      `| \`${c.name}\` | ${c.enabled ? 'on' : 'off'} | ${formatDuration(c.interval)} | ${c.nodeSpecific ? 'yes' : 'no'} | ${cell(c.description)} | ${c.calls.map((x) => `\`${x.method}\``).join(', ')} | ${cell(c.needs)} |`,
  );
  return [
    '| collector | default | interval | node-specific (skipped on `reference` targets) | what it collects | calls | what it needs from the node |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export function replaceGenerated(text: string, name: string, content: string): string {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${start} … ${end} section`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}

/** docs/configuration.md with its generated tables as the code declares them. */
export function renderConfigurationDoc(doc: string, collectors: readonly Collector<any>[]): string {
  return replaceGenerated(replaceGenerated(doc, 'flags', renderFlagsTable(collectors)), 'collectors', renderCollectorsTable(collectors));
}
