import { z } from 'zod';

/**
 * The operator's own labels of a target (YAML `labels:` at the top level for every target, and per
 * target over them), carried on every series of the target. A name must be a Prometheus label name
 * that nothing else uses on those series: not Prometheus' own (`__…`, and `job` and `instance`,
 * which it sets on every scraped series), not `target`, and none of the labels of the exporter's
 * families (`reserved`, read off the metric descriptors). Values are short non-empty strings.
 */

/** At most this many user labels per target (a label is on every series of the target). */
export const MAX_USER_LABELS = 16;
/** At most this many characters per value. */
export const MAX_LABEL_VALUE_LENGTH = 128;

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** What is wrong with a user label name (undefined: nothing); `reserved` maps each exporter label to its families. */
export function labelNameProblem(name: string, reserved: ReadonlyMap<string, readonly string[]>): string | undefined {
  if (!LABEL_NAME.test(name)) {
    const fixed = name.replace(/[^a-zA-Z0-9_]/g, '_').replace(/^(?=[0-9])/, '_');
    return `expected a Prometheus label name (a letter or _, then letters, digits or _): rename it, e.g. ${fixed}`;
  }
  if (name.startsWith('__')) return `label names starting with __ are reserved for Prometheus itself: rename it, e.g. ${name.replace(/^_+/, '') || 'label'}`;
  if (name === 'target') return 'target is the label the exporter puts on every series of a target (its name: set it with name:); choose another label name';
  if (name === 'job' || name === 'instance') return `${name} is set by Prometheus on every series it scrapes (this one would become exported_${name}); choose another label name`;
  const families = reserved.get(name);
  if (families) {
    const shown = families.slice(0, 2).join(', ') + (families.length > 2 ? ` and ${families.length - 2} more` : '');
    return `${name} is a label of the exporter's own series (${shown}; docs/metrics.md lists them): it would clash there; choose another label name`;
  }
  return undefined;
}

/** What is wrong with a user label value (undefined: nothing). */
export function labelValueProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a string value, got ${value === null ? 'nothing' : typeof value}${typeof value === 'number' || typeof value === 'boolean' ? ` (quote it: "${String(value)}")` : ''}`;
  if (value === '') return 'expected a non-empty value (leave the label out instead: an empty value is no label in Prometheus)';
  if (value.length > MAX_LABEL_VALUE_LENGTH) return `expected at most ${MAX_LABEL_VALUE_LENGTH} characters, got ${value.length}`;
  return undefined;
}

/** The schema of a `labels:` block. */
export function userLabelsSchema(reserved: ReadonlyMap<string, readonly string[]>): z.ZodType<Readonly<Record<string, string>>> {
  return z.record(z.string(), z.unknown()).transform((labels, ctx) => {
    const names = Object.keys(labels);
    if (names.length > MAX_USER_LABELS) ctx.addIssue({ code: 'custom', message: `expected at most ${MAX_USER_LABELS} labels, got ${names.length}` });
    for (const [name, value] of Object.entries(labels)) {
      const problem = labelNameProblem(name, reserved) ?? labelValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
    }
    return labels as Record<string, string>;
  });
}
