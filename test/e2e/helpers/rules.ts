// Rewrites a COPY of the shipped rule files so that the end-to-end test runs in seconds:
// every `for:` and the range windows of the stall rules are shortened. The shipped files are
// never modified; expressions, labels and annotations are kept as they are.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `for:` durations of the shipped rules → the test's (all between 2 s and 5 s). */
export const FOR_MAP: Readonly<Record<string, string>> = { '1m': '2s', '2m': '2s', '5m': '3s', '10m': '4s', '15m': '5s', '1h': '5s', '1d': '5s' };
/**
 * Range windows → the test's. [15m] (index stall) → [20s] and [5m] (C-Chain stall) → [10s]: the
 * simulated node makes blocks on every chain at least once a second, so these windows are never
 * empty on a healthy node; [10m] (node-internals consensus and poll windows) → [20s] too. [6h] (index
 * unavailable look-back) and [1h] (advertised IPs, AvalancheValidatorIpChanged: one IP on a healthy node) stay.
 */
export const WINDOW_MAP: Readonly<Record<string, string>> = { '15m': '20s', '10m': '20s', '5m': '10s', '6h': '6h', '1h': '1h' };

export interface Rewrite {
  file: string;
  changes: string[];
}

/** Returns the rewritten text and a list of what changed; throws on a duration it has no mapping for. */
export function shortenRuleText(text: string, file = '?'): { text: string; changes: string[] } {
  const changes: string[] = [];
  const out = text
    .split('\n')
    .map((line, i) => {
      if (/^\s*#/.test(line)) return line;
      let l = line.replace(/^(\s*)for:\s*(\S+)\s*$/, (_m, ind: string, d: string) => {
        const to = FOR_MAP[d];
        if (!to) throw new Error(`${file}:${i + 1}: no test mapping for "for: ${d}"`);
        changes.push(`for: ${d} → ${to}`);
        return `${ind}for: ${to}`;
      });
      l = l.replace(/\[(\d+[smhdw])\]/g, (_m, d: string) => {
        const to = WINDOW_MAP[d];
        if (!to) throw new Error(`${file}:${i + 1}: no test mapping for range window [${d}]`);
        if (to !== d) changes.push(`[${d}] → [${to}]`);
        return `[${to}]`;
      });
      return l;
    })
    .join('\n');
  return { text: out, changes };
}

/** Copies every *.rules.yaml of `srcDir` into `dstDir`, shortened. */
export function writeShortenedRules(srcDir: string, dstDir: string): Rewrite[] {
  const files = readdirSync(srcDir).filter((f) => f.endsWith('.rules.yaml')).sort();
  if (files.length === 0) throw new Error(`no *.rules.yaml in ${srcDir}`);
  return files.map((f) => {
    const { text, changes } = shortenRuleText(readFileSync(join(srcDir, f), 'utf8'), f);
    writeFileSync(join(dstDir, f), text);
    return { file: f, changes };
  });
}

/** "for: 5m → 3s ×4, [15m] → [20s] ×2" */
export function summarize(changes: string[]): string {
  const n = new Map<string, number>();
  for (const c of changes) n.set(c, (n.get(c) ?? 0) + 1);
  return [...n].map(([c, k]) => `${c} ×${k}`).join(', ');
}
