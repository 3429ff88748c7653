/**
 * `npm run monitoring`: writes the committed alerts/*.rules.yaml and dashboards/*.json from
 * src/monitoring with the default settings. test/monitoring/committed.test.ts fails when they differ.
 */
import { fileURLToPath } from 'node:url';
import { REPOSITORY_HEADER, renderFiles, writeFiles } from './generate.js';
import { DEFAULT_SETTINGS } from './settings.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = renderFiles(DEFAULT_SETTINGS, REPOSITORY_HEADER);
writeFiles(root, files, { protect: false });
process.stdout.write(`npm run monitoring: wrote ${files.map((f) => `${f.path} (${f.summary})`).join(', ')}\n`);
