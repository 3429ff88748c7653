/**
 * `generate --format prometheusrule`: one PrometheusRule (monitoring.coreos.com/v1) per rule group, its
 * spec the rule file's groups exactly as alerts/<group>.rules.yaml has them (the rules promtool tests),
 * each object validated against the CRD's schema by its model before it is printed.
 */
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IPrometheusRuleSpec } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRuleSpec';
import { RULE_GROUPS } from '../rules/index.js';
import { groupRules, prometheusRule } from '../rules/render.js';
import type { MonitoringSettings } from '../settings.js';
import { metadata, type KubernetesOptions } from './kubernetes.js';

export function prometheusRules(settings: MonitoringSettings, o: KubernetesOptions): PrometheusRule[] {
  return settings.groups.map((g) => {
    const def = RULE_GROUPS[g];
    const spec: IPrometheusRuleSpec = { groups: [{ name: def.group, rules: groupRules(def, settings).map((r) => prometheusRule(r, settings)) }] };
    const rule = new PrometheusRule({ metadata: metadata(o, `${o.name}-${g}`), spec });
    rule.validate();
    return rule;
  });
}
