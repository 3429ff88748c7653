/**
 * The one way rules and dashboards write a series selector, so that every query carries the user's
 * label selector (monitoring.yaml `selector`, e.g. `job="avalanche-exporter"`) and, in dashboards,
 * the `target` variable:
 *
 *   rules:      sel('avax_up')                     → avax_up                (no selector configured)
 *               sel('avax_up')                     → avax_up{job="x"}       (selector { job: x })
 *   dashboards: sel('avax_chain_height', 'chain="C"') → avax_chain_height{target=~"$target", chain="C", job="x"}
 *
 * Every metric name is checked against the exporter's metric descriptors (src/metrics/descriptors.ts):
 * a rule or panel on a metric the exporter does not emit fails when it is generated, not in Grafana.
 */
import { DESCRIPTORS } from '../metrics/descriptors.js';

/** Extra label matchers (label → value), all equality matchers. */
export type Selector = Readonly<Record<string, string>>;

export interface PromQL {
  /** `metric{<target matcher>, <matchers>, <selector>}`; the braces are left out when empty. */
  sel(metric: string, ...matchers: string[]): string;
  /**
   * The same for a query inside a Go template `printf` format string of an annotation (a `%q` in
   * `matchers` is a printf verb): a `%` in the user's selector values is written `%%`.
   */
  tsel(metric: string, ...matchers: string[]): string;
  /** The user's selector alone, e.g. `{job="x"}` or '' (for `label_values(avax_up{...}, target)`). */
  readonly selector: Selector;
}

const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

/** The descriptor of a series name (a histogram's `_bucket` etc. included), or undefined. */
export function descriptorOf(metric: string): (typeof DESCRIPTORS)[number] | undefined {
  const exact = DESCRIPTORS.find((d) => d.name === metric);
  if (exact) return exact;
  return DESCRIPTORS.find((d) => (SUFFIXES[d.type] ?? []).some((s) => metric === d.name + s));
}

/** `label="value"` with the value quoted as a PromQL string. */
export function matcher(label: string, value: string): string {
  return `${label}=${JSON.stringify(value)}`;
}

/**
 * @param selector the user's extra matchers
 * @param target   the target matcher of dashboards (`target=~"$target"`), none in rules
 */
export function promql(selector: Selector, target?: string): PromQL {
  const extra = Object.entries(selector).map(([k, v]) => matcher(k, v));
  const build = (metric: string, matchers: string[], user: string[]): string => {
    if (!descriptorOf(metric)) throw new Error(`${metric} is not a metric of avalanche-exporter (src/metrics/descriptors.ts)`);
    const all = [...(target ? [target] : []), ...matchers, ...user];
    return all.length ? `${metric}{${all.join(', ')}}` : metric;
  };
  return {
    sel: (metric, ...matchers) => build(metric, matchers, extra),
    tsel: (metric, ...matchers) => build(metric, matchers, extra.map((m) => m.replace(/%/g, '%%'))),
    selector,
  };
}

/** For rules: no target matcher. */
export const rulesPromQL = (selector: Selector): PromQL => promql(selector);

/** For dashboards: every selector filters on the `target` variable. */
export const dashboardPromQL = (selector: Selector): PromQL => promql(selector, 'target=~"$target"');
