import { formatDuration } from '../duration.js';
import type { DescriptorIndex } from './descriptors.js';

/**
 * The sentence appended to a family's HELP: how often it is refreshed, from the configured
 * intervals, so that a reader of /metrics knows how old a value can be.
 */
export function helpSuffix(index: DescriptorIndex, baseIntervalSeconds: number, intervals: ReadonlyMap<string, number>): (family: string) => string {
  return (family) => {
    const d = index.get(family);
    if (!d) return '';
    if (d.collector === 'runner') return d.name === 'avax_exporter_build_info' ? '' : ` Updated after every collection cycle (every ${formatDuration(baseIntervalSeconds)}).`;
    if (d.collector === 'derived' || d.collector === 'fleet') return ' Computed by the exporter from other series after every collection cycle.';
    const iv = intervals.get(d.collector);
    return iv ? ` Refreshed every ${formatDuration(iv)} by the ${d.collector} collector.` : ` Refreshed by the ${d.collector} collector.`;
  };
}
