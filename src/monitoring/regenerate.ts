/**
 * `npm run monitoring`: writes the committed alerts/*.rules.yaml and dashboards/*.json from
 * src/monitoring with the default settings, and the thresholds table of alerts/README.md and the
 * thresholds of examples/monitoring.yaml from settings.ts and threshold-docs.ts.
 * test/monitoring/committed.test.ts and docs.test.ts fail when they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPOSITORY_HEADER, renderFiles, writeFiles } from './generate.js';
import { DEFAULT_SETTINGS } from './settings.js';
import { withExampleThresholds, withThresholdTable } from './threshold-docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = renderFiles(DEFAULT_SETTINGS, REPOSITORY_HEADER);
writeFiles(root, files, { protect: false });
const docs: [string, (text: string) => string][] = [
  ['alerts/README.md', (text) => withThresholdTable(text, DEFAULT_SETTINGS.thresholds)],
  ['examples/monitoring.yaml', (text) => withExampleThresholds(text, DEFAULT_SETTINGS.thresholds)],
];
for (const [path, update] of docs) writeFileSync(`${root}${path}`, update(readFileSync(`${root}${path}`, 'utf8')));
process.stdout.write(`npm run monitoring: wrote ${[...files.map((f) => `${f.path} (${f.summary})`), ...docs.map(([p]) => `${p} (thresholds)`)].join(', ')}\n`);
