/**
 * docs/metrics.md, the project's metric contract (generated from the metric declarations by
 * `npm run docs`; test/metrics/contract.test.ts keeps it in step with the code). Tests that need
 * "every documented family" read it through here, so a missing or empty file fails loudly.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const METRICS_DOC = resolve(import.meta.dirname, '../../docs/metrics.md');

export interface DocumentedFamily {
  name: string;
  type: string;
  labels: string[];
  collector: string;
}

/** The rows `| \`avax_x\` | type | labels | unit | collector | meaning |` of a metrics document. */
export function parseMetricsDoc(markdown: string): Map<string, DocumentedFamily> {
  const out = new Map<string, DocumentedFamily>();
  for (const line of markdown.split('\n')) {
    const m = /^\| `(avax_[a-z0-9_]+)` \| (gauge|counter|histogram|summary) \| ([^|]*) \| [^|]* \| ([^|]*) \|/.exec(line);
    if (!m) continue;
    if (out.has(m[1]!)) throw new Error(`docs/metrics.md lists ${m[1]} twice`);
    out.set(m[1]!, { name: m[1]!, type: m[2]!, labels: m[3]!.split(',').map((s) => s.trim()).filter(Boolean), collector: m[4]!.trim() });
  }
  return out;
}

/** Every family documented in docs/metrics.md; throws (failing the test) when the file is missing or has no table. */
export function documentedFamilies(): Map<string, DocumentedFamily> {
  const families = parseMetricsDoc(readFileSync(METRICS_DOC, 'utf8'));
  if (families.size === 0) throw new Error(`${METRICS_DOC}: no metric rows found (run npm run docs)`);
  return families;
}
