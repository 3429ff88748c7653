import { readFileSync, writeFileSync } from 'node:fs';
import { COLLECTORS } from '../collectors/index.js';
import { DESCRIPTORS } from '../metrics/descriptors.js';
import { renderMetricsDoc } from './metrics-md.js';
import { renderConfigurationDoc } from './configuration-tables.js';

/** `npm run docs`: regenerates docs/metrics.md and the flags and collectors tables of docs/configuration.md. */
const root = new URL('../../', import.meta.url);
writeFileSync(new URL('docs/metrics.md', root), renderMetricsDoc(DESCRIPTORS));
const configuration = new URL('docs/configuration.md', root);
writeFileSync(configuration, renderConfigurationDoc(readFileSync(configuration, 'utf8'), COLLECTORS));
