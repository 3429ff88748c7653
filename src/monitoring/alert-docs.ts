/**
 * The table of alerts/README.md that lists the alerts of each rule file, from the rule groups themselves
 * (`npm run monitoring` writes it; test/monitoring/docs.test.ts fails when the committed one differs), so
 * that a new alert is listed without anyone remembering to; and its false-page budget table, from
 * FALSE_PAGE_BUDGET (rules/types.ts), which the backtest holds every rule to.
 */
import { RULE_GROUPS, ruleFileName } from './rules/index.js';
import { groupRules } from './rules/render.js';
import { budgetPerNodeDay, FALSE_PAGE_BUDGET } from './rules/types.js';
import { GROUP_NAMES, SEVERITIES, type GroupName, type MonitoringSettings } from './settings.js';
import { replaceBlock } from './text.js';

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

/** Node-days of healthy simulation that bound a rate at `perNodeDay` with no false page (95 %: −ln 0.05 / N). */
export function nodeDaysToProve(perNodeDay: number): number {
  return Math.ceil(-Math.log(0.05) / perNodeDay);
}

/** `| severity | … |`: the false-page budget of each severity (rules/types.ts FALSE_PAGE_BUDGET). */
export function budgetTable(): string {
  const rows = SEVERITIES.map((sev) => {
    const b = FALSE_PAGE_BUDGET[sev];
    const per = budgetPerNodeDay(sev);
    const fleet = Math.round(b.nodeDays / b.pages / 10);
    const need = nodeDaysToProve(per);
    return `| ${sev} | ${b.pages} per ${b.nodeDays.toLocaleString('en-US')} node-days | ${fleet} day${fleet === 1 ? '' : 's'} | ${need.toLocaleString('en-US')} node-days (${Math.ceil(need / 7)} node-weeks) |`;
  });
  return ['| severity | at most, per rule | one false page of a rule on a 10-node fleet every | healthy time that proves it with no false page |', '|---|---|---|---|', ...rows].join('\n');
}

const BUDGET_START = '<!-- generated:budget -->';
const BUDGET_END = '<!-- /generated:budget -->';

/** alerts/README.md with the table between its budget markers replaced by `budgetTable()`. */
export function withBudgetTable(readme: string): string {
  return replaceBlock(readme, 'alerts/README.md', BUDGET_START, BUDGET_END, budgetTable());
}
