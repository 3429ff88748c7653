import type { Labels, MetricDescriptor, Sample } from '../model.js';

/** Text exposition format 0.0.4 escaping of a label value: backslash, double quote and newline. */
export function escapeLabelValue(v: string): string {
  // Nearly every value needs nothing: one scan, and the three replacements only when it does.
  if (!NEEDS_ESCAPE.test(v)) return v;
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

const NEEDS_ESCAPE = /[\\"\n]/;

/** HELP text escaping: backslash and newline. */
export function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** `{name="value",...}`; `suffix` (`,name="value"...`, already escaped) ends the set. */
export function formatLabels(labels: Labels, suffix = ''): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return suffix === '' ? '' : `{${suffix.slice(1)}}`;
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += `${k}="${escapeLabelValue(labels[k]!)}"`;
  }
  return `${out}${suffix}}`;
}

/** One sample line; `labelSuffix` as formatLabels' suffix (a target's user labels). */
export function formatSample(s: Sample, labelSuffix = ''): string {
  return `${s.name}${formatLabels(s.labels, labelSuffix)} ${formatValue(s.value)}\n`;
}

export function formatHeader(d: MetricDescriptor, helpSuffix = ''): string {
  return `# HELP ${d.name} ${escapeHelp(d.help + helpSuffix)}\n# TYPE ${d.name} ${d.type}\n`;
}
