// Every query of the rules and dashboards is written with the selector helper, on metrics the
// exporter emits (src/metrics/descriptors.ts), and panels of one metric take its HELP and unit.
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';
import { buildNamedDashboard } from '../../src/monitoring/dashboards/index.js';
import { ofMetric, unitFor } from '../../src/monitoring/dashboards/kit.js';
import { dashboardPromQL, descriptorOf, rulesPromQL } from '../../src/monitoring/promql.js';
import { RULE_GROUPS } from '../../src/monitoring/rules/index.js';
import { groupRules } from '../../src/monitoring/rules/render.js';
import { DASHBOARD_NAMES, DEFAULT_SETTINGS, GROUP_NAMES } from '../../src/monitoring/settings.js';
import { parsePromQL, templateQueries, withoutGrafanaVariables } from './helpers.js';

describe('the selector helper', () => {
  it('behavior: rules get the user selector only; dashboards the target variable first', () => {
    expect(rulesPromQL({}).sel('avax_up')).toBe('avax_up');
    expect(rulesPromQL({}).sel('avax_chain_height', 'chain="C"')).toBe('avax_chain_height{chain="C"}');
    expect(rulesPromQL({ job: 'x', cluster: 'eu-1' }).sel('avax_up')).toBe('avax_up{job="x", cluster="eu-1"}');
    expect(dashboardPromQL({}).sel('avax_up')).toBe('avax_up{target=~"$target"}');
    expect(dashboardPromQL({ job: 'x' }).sel('avax_chain_height', 'chain="C"')).toBe('avax_chain_height{target=~"$target", chain="C", job="x"}');
  });

  it('edge: values are PromQL strings; in annotation printf formats a % of the user is doubled, the verbs are not', () => {
    expect(rulesPromQL({ job: 'a"b\\c' }).sel('avax_up')).toBe('avax_up{job="a\\"b\\\\c"}');
    expect(rulesPromQL({ job: '50%' }).tsel('avax_node_info', 'target=%q')).toBe('avax_node_info{target=%q, job="50%%"}');
    expect(rulesPromQL({ job: '50%' }).sel('avax_node_info')).toBe('avax_node_info{job="50%"}');
  });

  it('error: a metric the exporter does not emit is refused when the rule or panel is generated', () => {
    expect(() => rulesPromQL({}).sel('avax_no_such_metric')).toThrow('avax_no_such_metric is not a metric of avalanche-exporter (src/metrics/descriptors.ts)');
    expect(() => dashboardPromQL({}).sel('up')).toThrow('up is not a metric of avalanche-exporter');
    expect(() => rulesPromQL({}).sel('avax_up_bucket')).toThrow(); // a gauge has no buckets
    expect(rulesPromQL({}).sel('avax_rpc_request_duration_seconds_bucket')).toBe('avax_rpc_request_duration_seconds_bucket');
    expect(descriptorOf('avax_peers_observed_uptime_ratio_count')?.type).toBe('summary');
  });
});

describe('every generated query uses only metrics of DESCRIPTORS', () => {
  const known = new Set(DESCRIPTORS.map((d) => d.name));
  const exprs: { where: string; expr: string }[] = [];
  for (const g of GROUP_NAMES) {
    for (const r of groupRules(RULE_GROUPS[g], DEFAULT_SETTINGS)) {
      exprs.push({ where: `${g} ${r.alert}`, expr: r.expr });
      for (const q of templateQueries(`${r.summary} ${r.description}`)) exprs.push({ where: `${g} ${r.alert} annotation`, expr: q });
    }
  }
  for (const d of DASHBOARD_NAMES) {
    for (const p of buildNamedDashboard(d, DEFAULT_SETTINGS).panels ?? []) {
      for (const t of (p as { targets?: { expr?: string }[] }).targets ?? []) exprs.push({ where: `${d} "${p.title}"`, expr: withoutGrafanaVariables(t.expr ?? '') });
    }
  }

  it('default: the rules, their annotation queries and the panels parse and name only known metrics', () => {
    expect(exprs.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const e of exprs) {
      const { errors, selectors } = parsePromQL(e.expr);
      problems.push(...errors.map((x) => `${e.where}: ${x}`));
      // Watchdog (vector(1)) is the one rule that reads no series: it always fires, by design.
      if (selectors.length === 0 && e.expr !== 'vector(1)') problems.push(`${e.where}: no selector in ${e.expr}`);
      for (const s of selectors) if (!s.metric || !descriptorOf(s.metric)) problems.push(`${e.where}: ${s.metric ?? s.text} is not in DESCRIPTORS`);
    }
    expect(problems).toEqual([]);
    // and the check itself finds an unknown name (sanity)
    expect(parsePromQL('avax_nope{a="b"}').selectors.map((s) => descriptorOf(s.metric!))).toEqual([undefined]);
    expect(known.has('avax_up')).toBe(true);
  });
});

describe('panels from metric descriptors', () => {
  it('behavior: the unit follows the name suffix', () => {
    expect(['avax_validator_end_timestamp_seconds', 'avax_collector_duration_seconds', 'avax_peers_newer_version_ratio', 'avax_l1_validator_fee_price_navax_per_second', 'avax_validator_stake_avax', 'avax_peers'].map(unitFor)).toEqual([
      'dateTimeAsIso',
      's',
      'percentunit',
      'suffix: nAVAX/s',
      'suffix: AVAX',
      undefined,
    ]);
  });

  it('behavior: ofMetric sets the HELP as description and the unit; the panel may override both afterwards', () => {
    const p = ofMetric(new stat.PanelBuilder(), 'avax_collector_duration_seconds').build();
    expect(p.description).toBe(DESCRIPTORS.find((d) => d.name === 'avax_collector_duration_seconds')!.help);
    expect(p.fieldConfig?.defaults?.unit).toBe('s');
    const o = ofMetric(new stat.PanelBuilder(), 'avax_validator_stake_avax').unit('short').description('mine').build();
    expect([o.fieldConfig?.defaults?.unit, o.description]).toEqual(['short', 'mine']);
    expect(() => ofMetric(new stat.PanelBuilder(), 'avax_nope')).toThrow('avax_nope is not a metric');
  });

  it('default: a panel of one metric without its own description shows the HELP (Chain height, Collector duration)', () => {
    const panels = buildNamedDashboard('node', DEFAULT_SETTINGS).panels ?? [];
    const byTitle = (t: string) => panels.find((p) => p.title === t) as { description?: string; fieldConfig?: { defaults?: { unit?: string } } };
    expect(byTitle('Chain height').description).toBe(DESCRIPTORS.find((d) => d.name === 'avax_chain_height')!.help);
    expect(byTitle('Collector duration')).toMatchObject({ description: DESCRIPTORS.find((d) => d.name === 'avax_collector_duration_seconds')!.help, fieldConfig: { defaults: { unit: 's' } } });
  });
});
