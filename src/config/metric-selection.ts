import { z } from 'zod';
import type { MetricSelection } from '../target.js';
import { ALWAYS_EXPOSED } from '../metrics/descriptors.js';
import { familyPattern } from '../metrics/target-output.js';

/**
 * `metrics: { keep: [...], drop: [...] }` (top level for every target, and per target over it): which
 * metric families a target exposes, by regular expressions over the family name (anchored at both
 * ends, as Prometheus anchors its own). Each pattern must compile and match at least one family the
 * exporter declares (a glob such as `avax_node_*` matches none, and would silently keep or drop
 * nothing). A drop pattern may not match a family of ALWAYS_EXPOSED: alerts on a node that does not
 * answer or a failing collector read them.
 */

/** A partial selection, as written: each list replaces the one above it (top level → target). */
export type MetricSelectionInput = Partial<MetricSelection>;

/** What is wrong with one pattern of `list` (undefined: nothing), against every declared family. */
export function patternProblem(source: string, list: 'keep' | 'drop', families: readonly string[]): string | undefined {
  let re: RegExp;
  try {
    re = familyPattern(source);
  } catch (e) {
    return `not a regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  const matched = families.filter((f) => re.test(f));
  if (matched.length === 0) {
    const glob = /(^|[^.\]\)])\*/.test(source) ? ` (a regular expression, not a glob: write ${source.replace(/(^|[^.\]\)])\*/g, '$1.*')})` : '';
    return `matches no metric family of the exporter${glob}; docs/metrics.md lists them`;
  }
  const always = matched.filter((f) => ALWAYS_EXPOSED.includes(f));
  if (list === 'drop' && always.length > 0) {
    return `matches ${always.join(', ')}, always exposed (the alerts on a node that does not answer or a failing collector read them): narrow the pattern; to stop a collector, disable it (collectors: { <name>: { enabled: false } })`;
  }
  return undefined;
}

/** The schema of a `metrics:` block. */
export function metricSelectionSchema(families: readonly string[]): z.ZodType<MetricSelectionInput> {
  const patterns = (list: 'keep' | 'drop') =>
    z.array(z.string({ error: 'expected a regular expression (a string; quote it)' }), { error: `expected a list of regular expressions over family names, e.g. ${list}: ["avax_node_.*"]` }).transform((sources, ctx) => {
      sources.forEach((s, i) => {
        const problem = patternProblem(s, list, families);
        if (problem) ctx.addIssue({ code: 'custom', path: [i], message: problem });
      });
      return sources;
    });
  return z.strictObject({ keep: patterns('keep').optional(), drop: patterns('drop').optional() });
}

/** A target's selection: its own lists over the top-level ones. */
export function mergeSelection(top: MetricSelectionInput, own: MetricSelectionInput | undefined): MetricSelection {
  return { keep: own?.keep ?? top.keep ?? [], drop: own?.drop ?? top.drop ?? [] };
}
