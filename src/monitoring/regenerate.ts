/**
 * `npm run monitoring`: writes the committed alerts/*.rules.yaml and dashboards/*.json from
 * src/monitoring with the default settings, the tables of alerts/README.md (the alerts of each rule file, and the
 * thresholds, the official Builders Hub comparison of official-docs.ts, the false-page budget) and the
 * thresholds of examples/monitoring.yaml from settings.ts and threshold-docs.ts, and the L1 series table of
 * docs/runbook.md from l1-docs.ts, and the Helm chart's copies of the rule files and dashboards
 * (deploy/helm/avalanche-exporter/files/).
 * test/monitoring/committed.test.ts and docs.test.ts fail when they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withAlertsTable, withBudgetTable } from './alert-docs.js';
import { REPOSITORY_HEADER, chartFiles, renderFiles, writeFiles } from './generate.js';
import { DEFAULT_SETTINGS } from './settings.js';
import { withL1SeriesTable } from './l1-docs.js';
import { withOfficialTable } from './official-docs.js';
import { withExampleThresholds, withThresholdTable } from './threshold-docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const generated = renderFiles(DEFAULT_SETTINGS, REPOSITORY_HEADER);
// The Helm chart renders its PrometheusRules and dashboard ConfigMaps from its copies of the same files.
const files = [...generated, ...chartFiles(generated)];
writeFiles(root, files, { protect: false });
const docs: [string, (text: string) => string][] = [
  ['alerts/README.md', (text) => withBudgetTable(withOfficialTable(withAlertsTable(withThresholdTable(text, DEFAULT_SETTINGS.thresholds), DEFAULT_SETTINGS), DEFAULT_SETTINGS.thresholds))],
  ['examples/monitoring.yaml', (text) => withExampleThresholds(text, DEFAULT_SETTINGS.thresholds)],
  ['docs/runbook.md', withL1SeriesTable],
];
for (const [path, update] of docs) writeFileSync(`${root}${path}`, update(readFileSync(`${root}${path}`, 'utf8')));
process.stdout.write(`npm run monitoring: wrote ${[...files.map((f) => `${f.path} (${f.summary})`), ...docs.map(([p]) => `${p} (generated part)`)].join(', ')}\n`);
