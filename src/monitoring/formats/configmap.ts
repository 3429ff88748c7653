/**
 * `generate --format configmap`: one ConfigMap per dashboard, its one key the dashboard's JSON file as
 * dashboards/ has it, labelled for Grafana's dashboard sidecar (kube-prometheus-stack: `grafana_dashboard: "1"`).
 */
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { dashboardFileName, renderDashboardFile } from '../dashboards/index.js';
import type { MonitoringSettings } from '../settings.js';
import { metadata, type KubernetesOptions } from './kubernetes.js';

export function dashboardConfigMaps(settings: MonitoringSettings, header: string, o: KubernetesOptions, sidecarLabel: [string, string]): ConfigMap[] {
  return settings.dashboards.map((d) => {
    const map = new ConfigMap({
      metadata: metadata(o, `${o.name}-dashboard-${d}`, { [sidecarLabel[0]]: sidecarLabel[1] }),
      data: { [dashboardFileName(d)]: renderDashboardFile(d, settings, header) },
    });
    map.validate();
    return map;
  });
}
