/**
 * The panel shapes the dashboards repeat, on top of kit.ts: a panel placed at its size with its
 * queries, one exporter metric as it is, a 0/1 state timeline, a stat, and a table whose columns are
 * named queries. Each returns the SDK builder, so a dashboard chains the panel's own settings after it
 * (unit, min, max, thresholds, ...). A panel without thresholds of its own is plain green (buildDashboard).
 */
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import type * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import type * as stat from '@grafana/grafana-foundation-sdk/stat';
import type * as statetimeline from '@grafana/grafana-foundation-sdk/statetimeline';
import type * as table from '@grafana/grafana-foundation-sdk/table';
import type * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import type { PromQL } from '../promql.js';
import { instant, mergeColumns, ofMetric, range, redGreen, refs, statPanel, stateTimelinePanel, tablePanel, tableQuery, timeseriesPanel } from './kit.js';

/** Height and width of a panel in grid units (the grid is 24 wide). */
export type Size = readonly [h: number, w: number];

interface Placeable<B> {
  height(h: number): B;
  span(w: number): B;
  description(d: string): B;
  targets(t: cog.Builder<cog.Dataquery>[]): B;
}

/** The panel at `size` with `queries` as A, B, C, ... and the description when one is given. */
export function place<B extends Placeable<B>>(b: B, size: Size, queries: readonly prometheus.DataqueryBuilder[], description?: string): B {
  b.height(size[0]).span(size[1]);
  if (description !== undefined) b.description(description);
  return b.targets(refs(...queries));
}

/** A time series of range queries. */
export function series(size: Size, title: string, description: string | undefined, ...queries: prometheus.DataqueryBuilder[]): timeseries.PanelBuilder {
  return place(timeseriesPanel(title), size, queries, description);
}

/** One exporter metric as it is (its HELP, its unit: ofMetric), selected with `matchers`, as a time series. */
export function metricSeries(size: Size, title: string, q: PromQL, metric: string, legend: string, ...matchers: string[]): timeseries.PanelBuilder {
  return place(ofMetric(timeseriesPanel(title), metric), size, [range(q.sel(metric, ...matchers), legend)]);
}

/** A state timeline of 0/1 series (red 0, green 1) with the texts of `mappings`. */
export function timeline(size: Size, title: string, description: string | undefined, mappings: dashboard.ValueMapping[], ...queries: prometheus.DataqueryBuilder[]): statetimeline.PanelBuilder {
  return place(stateTimelinePanel(title), size, queries, description).mappings(mappings).thresholds(redGreen());
}

/** One exporter 0/1 metric as a state timeline (its HELP as description), by default as it is. */
export function metricTimeline(size: Size, title: string, q: PromQL, metric: string, legend: string, mappings: dashboard.ValueMapping[], expr = q.sel(metric)): statetimeline.PanelBuilder {
  return place(ofMetric(stateTimelinePanel(title), metric), size, [range(expr, legend)]).mappings(mappings).thresholds(redGreen());
}

/** A stat of one instant query. */
export function statOf(size: Size, title: string, expr: string, legend = '', description?: string): stat.PanelBuilder {
  return place(statPanel(title), size, [instant(expr, legend)], description);
}

/** A column of a table: one instant query whose value is the column `name`. */
export interface Column {
  name: string;
  query: string;
  /** Overrides of the column: unit, colours, value texts. */
  props?: dashboard.DynamicConfigValue[];
}

/**
 * A table: one instant query per value column, merged into one row per label set. `labels` are the label
 * columns shown first, `after` label columns shown after the values (`rename` renames label columns);
 * a `hidden` query is there only for its labels. `display` orders the value columns when not as queried.
 */
export function columnsTable(
  size: Size,
  title: string,
  o: {
    sortBy: string;
    desc?: boolean;
    description?: string;
    labels: readonly string[];
    columns: readonly (Column | { hidden: string })[];
    after?: readonly string[];
    rename?: Readonly<Record<string, string>>;
    display?: readonly string[];
  },
): table.PanelBuilder {
  // Grafana names the value column of query X "Value #X", or "Value" when there is one query.
  const ids = o.columns.map((_, i) => (o.columns.length === 1 ? 'Value' : `Value #${String.fromCharCode(65 + i)}`));
  const shown = o.columns.flatMap((c, i) => ('name' in c ? [{ ...c, id: ids[i]! }] : []));
  const b = place(tablePanel(title, o.sortBy, o.desc), size, o.columns.map((c) => tableQuery('name' in c ? c.query : c.hidden)), o.description);
  for (const c of shown) if (c.props) b.overrideByName(c.name, c.props);
  const idOf = (name: string) => shown.find((c) => c.name === name)!.id;
  return b.transformations(
    mergeColumns({
      hide: ['Time', ...ids.filter((id) => !shown.some((c) => c.id === id))],
      order: [...o.labels, ...(o.display ? o.display.map(idOf) : shown.map((c) => c.id)), ...(o.after ?? [])],
      rename: { ...Object.fromEntries(shown.map((c) => [c.id, c.name])), ...o.rename },
    }),
  );
}
