/** Every dashboard, in DASHBOARD_NAMES order, and its JSON file. Add one here and to DASHBOARD_NAMES (settings.ts). */
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { dashboardPromQL } from '../promql.js';
import type { DashboardName, MonitoringSettings } from '../settings.js';
import { buildDashboard, type DashboardContext } from './kit.js';
import { nodeInternalsDashboard } from './node-internals.js';
import { nodeDashboard } from './node.js';
import { overviewDashboard } from './overview.js';
import { validatorDashboard } from './validator.js';

export const DASHBOARDS: Readonly<Record<DashboardName, (ctx: DashboardContext) => dashboard.DashboardBuilder>> = {
  overview: overviewDashboard,
  node: nodeDashboard,
  validator: validatorDashboard,
  'node-internals': nodeInternalsDashboard,
};

/** dashboards/avalanche-<name>.json */
export const dashboardFileName = (d: DashboardName): string => `avalanche-${d}.json`;

/** The dashboard model with these settings. */
export function buildNamedDashboard(name: DashboardName, settings: MonitoringSettings): dashboard.Dashboard {
  return buildDashboard(DASHBOARDS[name]({ q: dashboardPromQL(settings.selector), t: settings.thresholds, settings }));
}

/**
 * The JSON file: `_comment` (JSON has no comments; Grafana keeps unknown top-level keys and ignores
 * them) says how it was generated, then the dashboard as Grafana's import expects it.
 */
export function renderDashboardFile(name: DashboardName, settings: MonitoringSettings, header: string): string {
  const d = buildNamedDashboard(name, settings);
  const panels = (d.panels ?? []).map((p) => frontKeys(p, PANEL_FRONT));
  return `${JSON.stringify({ _comment: header, ...frontKeys({ ...d, panels }, DASHBOARD_FRONT) }, null, 2)}\n`;
}

/** Key order for people reading the file (the SDK's is alphabetical-ish): identity first, panels last. */
const DASHBOARD_FRONT = ['id', 'uid', 'title', 'description', 'tags'];
const PANEL_FRONT = ['id', 'type', 'title', 'description', 'gridPos', 'datasource', 'targets'];

function frontKeys<T extends object>(o: T, front: readonly string[]): T {
  const entries = Object.entries(o);
  const first = front.filter((k) => k in o).map((k) => [k, (o as Record<string, unknown>)[k]] as const);
  const rest = entries.filter(([k]) => !front.includes(k) && k !== 'panels');
  const last = 'panels' in o ? [['panels', (o as Record<string, unknown>)['panels']] as const] : [];
  return Object.fromEntries([...first, ...rest, ...last]) as T;
}
