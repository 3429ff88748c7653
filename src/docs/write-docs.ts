import { readFileSync, writeFileSync } from 'node:fs';
import { COLLECTORS } from '../collectors/index.js';
import { DESCRIPTORS } from '../metrics/descriptors.js';
import { renderMetricsDoc } from './metrics-md.js';
import { renderReadme } from './readme-tables.js';

/** `npm run docs`: regenerates docs/metrics.md and the README's flags and collectors tables. */
const root = new URL('../../', import.meta.url);
writeFileSync(new URL('docs/metrics.md', root), renderMetricsDoc(DESCRIPTORS));
const readme = new URL('README.md', root);
writeFileSync(readme, renderReadme(readFileSync(readme, 'utf8'), COLLECTORS));
