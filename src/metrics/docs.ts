import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DESCRIPTORS } from './descriptors.js';

/** docs/metrics.md, generated from the descriptor table (`npm run docs`). */
export function renderMetricsDoc(): string {
  const rows = DESCRIPTORS.map((d) => `| \`${d.name}\` | ${d.type} | ${d.labels.join(', ')} | ${d.collector} | ${d.help.replace(/\|/g, '\\|')} |`);
  return `# Metrics

Generated from \`src/metrics/descriptors.ts\` by \`npm run docs\`. This file is the project's metric contract: the tests
fail when it is out of date, when the exporter emits a family or label it does not list, and when an alert rule or a
dashboard uses a metric it does not document. Every per-node series carries \`target\`. Collectors and their default intervals are listed in the README.

| metric | type | labels | collector | meaning |
|---|---|---|---|---|
${rows.join('\n')}

The exporter process also serves prom-client's \`process_*\` and \`nodejs_*\` metrics unless \`--web.disable-exporter-metrics\` is set.
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(new URL('../../docs/metrics.md', import.meta.url), renderMetricsDoc());
}
