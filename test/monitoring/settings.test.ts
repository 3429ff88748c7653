// monitoring.yaml (issue 18): defaults are the committed files' values, and every mistake is named by
// its key, as in the exporter's own configuration.
import { describe, expect, it } from 'vitest';
import { durationWords, parseDuration, percent, promDuration, secondsExpr } from '../../src/monitoring/duration.js';
import { DEFAULT_SETTINGS, MonitoringSettingsError, THRESHOLD_KEYS, isDurationThreshold, parseSettings, parseSettingsYaml, thresholdText } from '../../src/monitoring/settings.js';
import { RUNBOOK_URL } from '../../src/project-links.js';

const err = (yaml: string): string => {
  try {
    parseSettingsYaml(yaml, 'm.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(MonitoringSettingsError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${yaml}`);
};

describe('monitoring settings: defaults', () => {
  it('default: an empty file, an empty mapping and no file give the same settings', () => {
    expect(parseSettingsYaml('', 'm.yaml')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettingsYaml('{}\n', 'm.yaml')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettingsYaml('# only a comment\n', 'm.yaml')).toEqual(DEFAULT_SETTINGS);
  });

  it('default: no selector, the default datasource, every group and dashboard, severities as written, the project runbook', () => {
    expect(DEFAULT_SETTINGS.selector).toEqual({});
    expect(DEFAULT_SETTINGS.datasource).toBeUndefined();
    expect(DEFAULT_SETTINGS.groups).toEqual(['node', 'validator', 'index', 'upgrades', 'fleet', 'exporter', 'node-internals']);
    expect(DEFAULT_SETTINGS.dashboards).toEqual(['overview', 'node', 'validator', 'node-internals']);
    expect(DEFAULT_SETTINGS.severities).toEqual({ critical: { severity: 'critical' }, warning: { severity: 'warning' }, info: { severity: 'info' } });
    expect(DEFAULT_SETTINGS.runbookBaseUrl).toBe(RUNBOOK_URL);
  });

  it('default: every threshold has a default, written once (settings.ts), that reads back from the text monitoring.yaml shows', () => {
    expect(Object.keys(DEFAULT_SETTINGS.thresholds)).toEqual(THRESHOLD_KEYS);
    const written = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, isDurationThreshold(k) ? thresholdText(k, DEFAULT_SETTINGS.thresholds[k]) : DEFAULT_SETTINGS.thresholds[k]]));
    expect(parseSettings({ thresholds: written }).thresholds).toEqual(DEFAULT_SETTINGS.thresholds);
    expect(thresholdText('rewardMissedWindow', 2 * 86400)).toBe('2d');
    expect(thresholdText('peersLow', 20)).toBe('20');
  });
});

describe('monitoring settings: values', () => {
  it('behavior: selector, datasource, groups and dashboards (duplicates dropped, file order kept), durations', () => {
    const s = parseSettingsYaml(
      'selector: { job: avalanche-exporter, cluster: eu-1, shard: 3 }\ndatasource: Mimir\ngroups: [exporter, node, node]\ndashboards: [validator]\nthresholds: { peersLow: 500, upgradeWindow: 3d, chainStallWindow: 1h30m, dataStale: 240 }\n',
    );
    expect(s.selector).toEqual({ job: 'avalanche-exporter', cluster: 'eu-1', shard: '3' });
    expect(s.datasource).toBe('Mimir');
    expect(s.groups).toEqual(['node', 'exporter']);
    expect(s.dashboards).toEqual(['validator']);
    expect(s.thresholds).toMatchObject({ peersLow: 500, upgradeWindow: 3 * 86400, chainStallWindow: 5400, dataStale: 240, vantages: 2 });
  });

  it('behavior: a severity is the value of the severity label or a set of labels', () => {
    const s = parseSettingsYaml('severities:\n  critical: page\n  warning: { severity: ticket, team: validators }\n');
    expect(s.severities).toEqual({ critical: { severity: 'page' }, warning: { severity: 'ticket', team: 'validators' }, info: { severity: 'info' } });
  });

  it('edge: an empty group list writes no rules (dashboards only)', () => {
    expect(parseSettingsYaml('groups: []\n').groups).toEqual([]);
  });
});

describe('monitoring settings: errors name the key', () => {
  it('error: a threshold of the wrong kind', () => {
    expect(err('thresholds: { peersLow: x }')).toBe('invalid monitoring settings (m.yaml):\n  thresholds.peersLow: expected a whole number ≥ 1, got "x"');
    expect(err('thresholds: { peersLow: 0 }')).toContain('thresholds.peersLow: expected a whole number ≥ 1, got 0');
    expect(err('thresholds: { rewardingStakeLow: 1.5 }')).toContain('thresholds.rewardingStakeLow: expected a ratio between 0 and 1, got 1.5');
    expect(err('thresholds: { upgradeWindow: 7 days }')).toContain('thresholds.upgradeWindow: expected a duration such as 10m, 6h or 7d, got "7 days"');
    expect(err('thresholds: { chainStallWindow: 30s }')).toContain('thresholds.chainStallWindow: expected a duration such as 10m, 6h or 7d of at least 1m, got "30s"');
    expect(err('thresholds: { vantages: 1 }')).toContain('thresholds.vantages: expected a whole number ≥ 2, got 1');
  });

  it('error: an unknown key, with the nearest valid one', () => {
    expect(err('thresholds: { peerLow: 3 }')).toMatch(/^invalid monitoring settings \(m\.yaml\):\n {2}thresholds\.peerLow: unknown key; did you mean peersLow\? \(valid here: peersLow, /);
    expect(err('selectors: { job: x }')).toContain('selectors: unknown key; did you mean selector?');
    expect(err('severities: { crtical: page }')).toContain('severities.crtical: unknown key; did you mean critical?');
  });

  it('error: a retired threshold says why it went (issue 43), not only that it is unknown', () => {
    const m = err('thresholds: { l1ChainBusyPause: 5m, l1ChainLookback: 1d, l1ChainStallWindow: 20m }');
    expect(m).toContain("thresholds.l1ChainBusyPause: no longer a threshold: AvalancheL1ChainStalled no longer judges an L1 chain by how busy it was (a busy L1 that goes idle paged); it reads the chain's own health check instead (issue 43); remove it");
    expect(m).toContain('thresholds.l1ChainLookback: no longer a threshold:');
    expect(m).not.toContain('l1ChainStallWindow');
  });

  it('error: an unknown group or dashboard, with the nearest name', () => {
    expect(err('groups: [node, validators]')).toContain('groups[1]: expected one of node, validator, index, upgrades, fleet, exporter, node-internals, got "validators"; did you mean validator?');
    expect(err('dashboards: overview')).toContain('dashboards: expected a list, got string "overview"');
  });

  it('error: tiers out of order', () => {
    expect(err('thresholds: { validationEndingWarning: 20d }')).toContain('thresholds.validationEndingWarning: expected less than thresholds.validationEndingInfo (14d), got 20d');
    expect(err('thresholds: { l1RunwayCritical: 7d }')).toContain('thresholds.l1RunwayCritical: expected less than thresholds.l1RunwayWarning (7d), got 7d');
  });

  it('error: selector label names and values', () => {
    expect(err('selector: { bad-name: x }')).toContain('selector.bad-name: "bad-name" is not a label name (letters, digits and _, not starting with a digit or __)');
    expect(err('selector: { __name__: avax_up }')).toContain('selector.__name__: "__name__" is not a label name');
    expect(err('selector: { job: "a`b" }')).toContain('selector.job: expected a label value (text without backticks, {{, }} or line breaks), got "a`b"');
    expect(err('selector: { env: "{{ x }}" }')).toContain('selector.env: expected a label value');
    expect(err('selector: { job: "" }')).toContain('selector.job: expected a label value');
    expect(err('selector: [job]')).toContain('selector: expected a mapping, got a list');
    expect(err('thresholds: 3')).toContain('thresholds: expected a mapping, got number 3');
  });

  it('error: runbook URL, datasource, YAML and the top level', () => {
    expect(err('runbookBaseUrl: https://wiki.example/runbook#top')).toContain('runbookBaseUrl: expected an http(s) URL without #anchor');
    expect(err('runbookBaseUrl: ftp://x')).toContain('runbookBaseUrl: expected an http(s) URL');
    expect(err('datasource: ""')).toContain('datasource: expected the name or uid of a Grafana data source');
    expect(err('thresholds: { peersLow: 20\n')).toMatch(/^m\.yaml: not valid YAML: .*\(line \d+, column \d+\)$/);
    expect(err('- a\n- b\n')).toBe('m.yaml: expected a mapping at the top level');
    expect(() => parseSettings('text', 'x')).toThrow('x: expected a mapping at the top level');
  });
});

describe('durations and numbers in rules and text', () => {
  it('behavior: Prometheus durations in, seconds out, and back', () => {
    expect(parseDuration('7d')).toBe(604800);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration(900)).toBe(900);
    expect(parseDuration('900')).toBe(900);
    for (const bad of ['1m1h', '1h1h', '1.5h', '7 days', '', '-5m', 1.5, -1, null, '1w']) expect(parseDuration(bad), String(bad)).toBeUndefined();
    expect([600, 86400, 5400, 0, 90].map(promDuration)).toEqual(['10m', '1d', '1h30m', '0s', '1m30s']);
    expect([604800, 86400, 900, 90000].map(secondsExpr)).toEqual(['7 * 86400', '86400', '900', '90000']);
  });

  it('behavior: durations and ratios in words', () => {
    expect(durationWords(600)).toBe('10 minutes');
    expect(durationWords(86400)).toBe('1 day');
    expect(durationWords(86400, { article: true })).toBe('a day');
    expect(durationWords(3600, { article: true })).toBe('an hour');
    expect(durationWords(21600)).toBe('6 hours');
    expect(durationWords(90)).toBe('90 seconds');
    expect([0.9, 0.05, 0.125, 0.5].map(percent)).toEqual(['90', '5', '12.5', '50']);
  });
});
