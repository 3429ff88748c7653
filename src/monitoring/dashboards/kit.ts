/**
 * The house style of the avalanche-exporter dashboards on top of Grafana's own typed builders
 * (@grafana/grafana-foundation-sdk, whose types are generated from Grafana's schema): a panel whose
 * options Grafana would not accept does not compile. Each helper returns the SDK builder, so a
 * dashboard module chains the SDK's own methods after it.
 *
 * This module and everything under src/monitoring/ is loaded only by `avalanche-exporter generate`
 * and `npm run monitoring`, never by the exporter's `run` path (test/monitoring/lazy-sdk.test.ts).
 */
import * as bargauge from '@grafana/grafana-foundation-sdk/bargauge';
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as statetimeline from '@grafana/grafana-foundation-sdk/statetimeline';
import * as table from '@grafana/grafana-foundation-sdk/table';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import type { PromQL } from '../promql.js';
import { descriptorOf, rulesPromQL } from '../promql.js';
import type { MonitoringSettings, Thresholds } from '../settings.js';

/** What a dashboard module gets: the selector helper (with the target variable) and the thresholds. */
export interface DashboardContext {
  q: PromQL;
  t: Thresholds;
  settings: MonitoringSettings;
}

/** Every panel and query picks its Prometheus through the `datasource` variable. */
export const DS: common.DataSourceRef = { type: 'prometheus', uid: '${datasource}' };

// ------------------------------------------------------------------ queries

/** A range query (time series panels); `legend` is Grafana's legendFormat. */
export function range(expr: string, legend = ''): prometheus.DataqueryBuilder {
  return new prometheus.DataqueryBuilder().datasource(DS).range().expr(expr).legendFormat(legend);
}

/** An instant query (stat and bar gauge panels). */
export function instant(expr: string, legend = ''): prometheus.DataqueryBuilder {
  return new prometheus.DataqueryBuilder().datasource(DS).instant().expr(expr).legendFormat(legend);
}

/** An instant query in table format (one column per query, merged by labels). */
export function tableQuery(expr: string): prometheus.DataqueryBuilder {
  return instant(expr).format(prometheus.PromQueryFormat.Table);
}

/** Gives the queries refIds A, B, C, ... in order (tables rename "Value #B" etc. by them). */
export function refs(...queries: prometheus.DataqueryBuilder[]): prometheus.DataqueryBuilder[] {
  return queries.map((q, i) => q.refId(String.fromCharCode(65 + i)));
}

// ------------------------------------------------------------------ field config

type Step = readonly [color: string, value: number | null];

/**
 * Absolute thresholds from the lowest step up. A step whose value is not above the one before it is
 * dropped in favour of the later one: with a user's threshold below a fixed colour boundary (e.g.
 * thresholds.rewardingStakeLow 0.75 under the fixed orange at 0.8) the user's threshold wins.
 */
export function steps(...list: Step[]): dashboard.ThresholdsConfigBuilder {
  const kept: Step[] = [];
  for (const s of list) {
    while (kept.length > 1 && s[1] !== null && kept[kept.length - 1]![1]! >= s[1]) kept.pop();
    kept.push(s);
  }
  return new dashboard.ThresholdsConfigBuilder()
    .mode(dashboard.ThresholdsMode.Absolute)
    .steps(kept.map(([color, value]) => ({ color, value })));
}

/** Value → text and colour, e.g. valueText([0, 'DOWN', 'red'], [1, 'up', 'green']). */
export function valueText(...list: readonly (readonly [value: number, text: string, color: string])[]): dashboard.ValueMapping[] {
  const options: Record<string, dashboard.ValueMappingResult> = {};
  list.forEach(([v, text, color], index) => (options[String(v)] = { text, color, index }));
  return [{ type: dashboard.MappingType.ValueToText, options }];
}

/** 0 red / 1 green, for the 0/1 gauges. */
export const redGreen = (): dashboard.ThresholdsConfigBuilder => steps(['red', null], ['green', 1]);

/** Override properties of a table column or a query's series. */
export const prop = {
  cellBackground: (): dashboard.DynamicConfigValue => ({ id: 'custom.cellOptions', value: { type: common.TableCellDisplayMode.ColorBackground, mode: common.TableCellBackgroundDisplayMode.Basic } }),
  mappings: (m: dashboard.ValueMapping[]): dashboard.DynamicConfigValue => ({ id: 'mappings', value: m }),
  thresholds: (t: dashboard.ThresholdsConfigBuilder): dashboard.DynamicConfigValue => ({ id: 'thresholds', value: t.build() }),
  unit: (unit: string): dashboard.DynamicConfigValue => ({ id: 'unit', value: unit }),
  decimals: (n: number): dashboard.DynamicConfigValue => ({ id: 'decimals', value: n }),
  dashed: (): dashboard.DynamicConfigValue => ({ id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } }),
  fixedColor: (color: string): dashboard.DynamicConfigValue => ({ id: 'color', value: { mode: dashboard.FieldColorModeId.Fixed, fixedColor: color } }),
};

// ------------------------------------------------------------------ metric descriptors

/**
 * Grafana unit from the metric name's suffix (Prometheus naming: the unit is the last word):
 * `_timestamp_seconds` a date, `_seconds` a duration, `_ratio` a percentage, `_navax_per_second` and
 * `_avax` the Avalanche units. Undefined for plain counts.
 */
export function unitFor(metric: string): string | undefined {
  if (metric.endsWith('_timestamp_seconds')) return 'dateTimeAsIso';
  if (metric.endsWith('_seconds')) return 's';
  if (metric.endsWith('_ratio')) return 'percentunit';
  if (metric.endsWith('_navax_per_second')) return 'suffix: nAVAX/s';
  if (metric.endsWith('_avax')) return 'suffix: AVAX';
  return undefined;
}

/** The HELP text of an exporter metric (src/metrics/descriptors.ts). */
export function helpOf(metric: string): string {
  const d = descriptorOf(metric);
  if (!d) throw new Error(`${metric} is not a metric of avalanche-exporter (src/metrics/descriptors.ts)`);
  return d.help;
}

interface WithFieldDefaults {
  description(d: string): unknown;
  unit(u: string): unknown;
}

/**
 * A panel that shows one exporter metric as it is: its description is the metric's HELP and its unit
 * follows the name, unless the panel sets its own after this call.
 */
export function ofMetric<B extends WithFieldDefaults>(builder: B, metric: string): B {
  builder.description(helpOf(metric));
  const unit = unitFor(metric);
  if (unit) builder.unit(unit);
  return builder;
}

// ------------------------------------------------------------------ panels

/** The panel with its title, reading the `datasource` variable. */
function titled<B extends { title(t: string): B; datasource(d: common.DataSourceRef): B }>(b: B, title: string): B {
  return b.title(title).datasource(DS);
}

/** Single-value panels show the last value. */
const lastValue = () => new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).fields('').values(false);

/** A single-number stat: last value, coloured background, no sparkline. */
export function statPanel(title: string): stat.PanelBuilder {
  return titled(new stat.PanelBuilder(), title)
    .reduceOptions(lastValue())
    .colorMode(common.BigValueColorMode.Background)
    .graphMode(common.BigValueGraphMode.None)
    .justifyMode(common.BigValueJustifyMode.Auto)
    .orientation(common.VizOrientation.Auto)
    .textMode(common.BigValueTextMode.Auto);
}

/** A time series with the legend below and a tooltip of every series, largest first. */
export function timeseriesPanel(title: string): timeseries.PanelBuilder {
  return titled(new timeseries.PanelBuilder(), title)
    .legend(new common.VizLegendOptionsBuilder().displayMode(common.LegendDisplayMode.List).placement(common.LegendPlacement.Bottom).showLegend(true))
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Multi).sort(common.SortOrder.Descending));
}

/** A state timeline of 0/1 series coloured by thresholds and value mappings. */
export function stateTimelinePanel(title: string): statetimeline.PanelBuilder {
  return titled(new statetimeline.PanelBuilder(), title)
    .colorScheme(new dashboard.FieldColorBuilder().mode(dashboard.FieldColorModeId.Thresholds))
    .showValue(common.VisibilityMode.Never)
    .mergeValues(true)
    .rowHeight(0.9)
    .alignValue(common.TimelineValueAlignment.Left)
    .legend(new common.VizLegendOptionsBuilder().displayMode(common.LegendDisplayMode.List).placement(common.LegendPlacement.Bottom).showLegend(false))
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Single).sort(common.SortOrder.None));
}

/** A table of instant queries, merged into one row per label set. */
export function tablePanel(title: string, sortBy: string, desc = false): table.PanelBuilder {
  return titled(new table.PanelBuilder(), title)
    .showHeader(true)
    .cellHeight(common.TableCellHeight.Sm)
    .footer(new common.TableFooterOptionsBuilder().show(false).reducer(['sum']).countRows(false))
    .sortBy([new common.TableSortByFieldStateBuilder().displayName(sortBy).desc(desc)])
    .align(common.FieldTextAlignment.Auto)
    .cellOptions({ type: common.TableCellDisplayMode.Auto })
    .inspect(false);
}

/** Horizontal gradient bars. */
export function barGaugePanel(title: string): bargauge.PanelBuilder {
  return titled(new bargauge.PanelBuilder(), title)
    .reduceOptions(lastValue())
    .orientation(common.VizOrientation.Horizontal)
    .displayMode(common.BarGaugeDisplayMode.Gradient)
    .showUnfilled(true)
    .valueMode(common.BarGaugeValueMode.Color)
    .namePlacement(common.BarGaugeNamePlacement.Auto)
    .sizing(common.BarGaugeSizing.Auto)
    .minVizHeight(16)
    .minVizWidth(8)
    .maxVizHeight(300);
}

/** Table columns: merge the queries by label, then hide, order and rename columns ("Value #B" → "up"). */
export function mergeColumns(o: { hide: string[]; order: string[]; rename: Record<string, string> }): dashboard.DataTransformerConfig[] {
  return [
    { id: 'merge', options: {} },
    {
      id: 'organize',
      options: {
        excludeByName: Object.fromEntries(o.hide.map((c) => [c, true])),
        indexByName: Object.fromEntries(o.order.map((c, i) => [c, i])),
        renameByName: o.rename,
      },
    },
  ];
}

/** An expanded row; the panels after it (until the next row) belong to it. */
export function row(title: string): dashboard.RowBuilder {
  return new dashboard.RowBuilder(title).collapsed(false);
}

// ------------------------------------------------------------------ dashboard

/** A builder whose object has no `placement`: Grafana then shows it in its default place (the SDK's is the controls menu). */
function withoutPlacement<T extends { placement?: unknown }>(b: cog.Builder<T>): cog.Builder<T> {
  return {
    build: () => {
      const o = b.build();
      delete o.placement;
      return o;
    },
  };
}

/** A header link that keeps the time range and the variables. */
function headerLink(title: string, type: dashboard.DashboardLinkType): dashboard.DashboardLinkBuilder {
  return new dashboard.DashboardLinkBuilder(title).type(type);
}

/** The link to the other Avalanche dashboards, in the dashboard header. */
function dashboardsLink(): cog.Builder<dashboard.DashboardLink> {
  return withoutPlacement(
    headerLink('Avalanche dashboards', dashboard.DashboardLinkType.Dashboards).tags(['avalanche']).asDropdown(true).includeVars(true).keepTime(true).icon('external link').targetBlank(false).tooltip('').url(''),
  );
}

/** A header link to one other dashboard by uid, keeping the time range and the variables. */
export function dashboardLink(title: string, uid: string, tooltip: string): cog.Builder<dashboard.DashboardLink> {
  return withoutPlacement(
    headerLink(title, dashboard.DashboardLinkType.Link).url(`/d/${uid}`).tags([]).asDropdown(false).includeVars(true).keepTime(true).icon('dashboard').targetBlank(false).tooltip(tooltip),
  );
}

/** Grafana's built-in "Annotations & Alerts" (hidden toggle). */
function builtInAnnotations(): cog.Builder<dashboard.AnnotationQuery> {
  return withoutPlacement(
    new dashboard.AnnotationQueryBuilder()
      .builtIn(1)
      .datasource({ type: 'grafana', uid: '-- Grafana --' })
      .enable(true)
      .hide(true)
      .iconColor('rgba(0, 211, 255, 1)')
      .name('Annotations & Alerts')
      .type('dashboard'),
  );
}

/**
 * A dashboard with the shared frame: tags, 30 s refresh over the last 6 h, shared crosshair, the link
 * to the other Avalanche dashboards, the built-in annotations, and the `datasource` and `target`
 * variables (target: label_values(avax_up{<selector>}, target), all selected by default), and the ad
 * hoc `filters` of the same datasource (the targets' user labels).
 */
export function avalancheDashboard(o: { uid: string; title: string; description: string }, ctx: DashboardContext): dashboard.DashboardBuilder {
  const ds = new dashboard.DatasourceVariableBuilder('datasource')
    .label('Data source')
    .type('prometheus')
    .hide(dashboard.VariableHide.DontHide)
    .includeAll(false)
    .multi(false)
    .regex('');
  // Without a configured datasource Grafana selects its default Prometheus.
  if (ctx.settings.datasource) ds.current({ selected: true, text: ctx.settings.datasource, value: ctx.settings.datasource });
  const targetQuery = `label_values(${rulesPromQL(ctx.settings.selector).sel('avax_up')}, target)`;
  const target = new dashboard.QueryVariableBuilder('target')
    .label('Target')
    .datasource(DS)
    .query(targetQuery)
    .definition(targetQuery)
    .hide(dashboard.VariableHide.DontHide)
    .includeAll(true)
    .allValue('.+')
    .multi(true)
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .regex('')
    .sort(dashboard.VariableSort.AlphabeticalAsc);
  // The operators' own labels of their targets (the exporter's `labels:`): their names are the
  // operators' choice, so a filter of any label, which Grafana adds to every query of the datasource.
  const filters = new dashboard.AdHocVariableBuilder('filters')
    .label('Filters')
    .description("Filter by any label, e.g. the targets' own labels of the exporter configuration (operator, region, ...): Grafana adds it to every query.")
    .datasource(DS)
    .hide(dashboard.VariableHide.DontHide);
  return new dashboard.DashboardBuilder(o.title)
    .id(null)
    .uid(o.uid)
    .description(o.description)
    .tags(['avalanche', 'avalanche-exporter'])
    .timezone('browser')
    .editable()
    .tooltip(dashboard.DashboardCursorSync.Crosshair)
    .fiscalYearStartMonth(0)
    .liveNow(false)
    .version(1)
    .refresh('30s')
    .time({ from: 'now-6h', to: 'now' })
    .annotation(builtInAnnotations())
    .link(dashboardsLink())
    .withVariable(ds)
    .withVariable(target)
    .withVariable(filters);
}

/**
 * The built dashboard with panel ids 1, 2, 3, ... in layout order (rows included). A panel that sets no
 * thresholds of its own gets plain green ones: Grafana's default (green, red from 80) would paint any
 * series above 80 red.
 */
export function buildDashboard(b: dashboard.DashboardBuilder): dashboard.Dashboard {
  const d = b.build();
  let id = 0;
  const green = steps(['green', null]).build();
  for (const p of d.panels ?? []) {
    p.id = ++id;
    for (const inner of (p as dashboard.RowPanel).panels ?? []) inner.id = ++id;
    const defaults = (p as dashboard.Panel).fieldConfig?.defaults;
    if (p.type !== 'row' && defaults && !defaults.thresholds) defaults.thresholds = green;
  }
  return d;
}
