/**
 * `generate --format prometheus-chart`: the `serverFiles` values of the prometheus-community `prometheus`
 * chart (no operator): every selected rule group in its `alerting_rules.yml`, which that chart's
 * rule_files already lists.
 */
import YAML from 'yaml';
import { RULE_GROUPS } from '../rules/index.js';
import { groupRules, prometheusRule } from '../rules/render.js';
import type { MonitoringSettings } from '../settings.js';

export function prometheusChartValues(settings: MonitoringSettings, header: string): string {
  const groups = settings.groups.map((g) => ({ name: RULE_GROUPS[g].group, rules: groupRules(RULE_GROUPS[g], settings).map((r) => prometheusRule(r, settings)) }));
  const values = { serverFiles: { 'alerting_rules.yml': { groups } } };
  return `# ${header}\n# helm upgrade --install prometheus prometheus-community/prometheus -f this-file.yaml\n${YAML.stringify(values, { lineWidth: 0, indentSeq: true })}`;
}
