/**
 * The table of alerts/README.md that lists the alerts of each rule file, from the rule groups themselves
 * (`npm run monitoring` writes it; test/monitoring/docs.test.ts fails when the committed one differs), so
 * that a new alert is listed without anyone remembering to.
 */
import { RULE_GROUPS, ruleFileName } from './rules/index.js';
import { groupRules } from './rules/render.js';
import { GROUP_NAMES, type GroupName, type MonitoringSettings } from './settings.js';

/** What a whole group needs or reads, after its list. */
const GROUP_NOTES: Partial<Record<GroupName, string>> = {
  'node-internals': "from the node's own /ext/metrics, collector node-metrics",
};

const and = (list: readonly string[]): string => (list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);

/** `| file | alerts |` with one row per rule file; a tiered alert once, with its severities. */
export function alertsTable(s: MonitoringSettings): string {
  const rows = GROUP_NAMES.map((g) => {
    const rules = groupRules(RULE_GROUPS[g], s);
    const names = [...new Set(rules.map((r) => r.alert))].map((name) => {
      const same = rules.filter((r) => r.alert === name);
      const notes = [...(same.length > 1 ? [and(same.map((r) => r.severity))] : []), ...(same[0]!.needs ? [`needs ${same[0]!.needs}`] : [])];
      return notes.length ? `${name} (${notes.join('; ')})` : name;
    });
    const note = GROUP_NOTES[g];
    return `| \`${ruleFileName(g)}\` | ${names.join(', ')}${note ? ` (${note})` : ''} |`;
  });
  return ['| file | alerts |', '|---|---|', ...rows].join('\n');
}

/** alerts/README.md with its table of rule files replaced. */
export function withAlertsTable(readme: string, s: MonitoringSettings): string {
  const start = readme.indexOf('| file | alerts |');
  if (start < 0) throw new Error('alerts/README.md: no table starting with "| file | alerts |"');
  const end = readme.indexOf('\n\n', start);
  return `${readme.slice(0, start)}${alertsTable(s)}${readme.slice(end)}`;
}
