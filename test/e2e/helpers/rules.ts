// Rewrites a COPY of the shipped rule files so that the end-to-end test runs in seconds: every
// `for:`, and every range window, subquery range and offset shorter than an hour, is shortened by a
// rule (not a table), so a new rule or threshold needs nothing here. The shipped files are never
// modified; expressions, labels and annotations are kept as they are.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDuration, promDuration } from '../../../src/monitoring/duration.js';

/**
 * `for: D` → 1 + round(√(D in minutes)) seconds, between 2 s and 5 s: 1m and 2m → 2s, 5m → 3s,
 * 10m → 4s, 15m and longer (1h, 1d) → 5s. Monotonic, so a rule that waits longer than another
 * in the shipped files still does in the test.
 */
export function shortFor(seconds: number): number {
  if (seconds === 0) return 0;
  return Math.min(5, Math.max(2, 1 + Math.round(Math.sqrt(seconds / 60))));
}

/**
 * A range window, subquery range or offset D: below an hour, 2 s per minute, between 10 s
 * and 20 s (5m → 10s, 10m and 15m → 20s). The stall and rate windows: the simulated node makes blocks
 * on every chain at least once a second and is scraped every second, so these windows are never
 * empty on a healthy node. An hour or more stays: those are look-backs that remember (the index
 * answered within [6h], the advertised IPs of [1h], an L1 chain's pauses over [1d]), and on a healthy
 * node there is nothing in them to remember. A subquery's step shrinks with its range.
 */
export function shortWindow(seconds: number): number {
  return seconds >= 3600 ? seconds : Math.min(20, Math.max(10, 2 * Math.round(seconds / 60)));
}

/** How a copy's durations are shortened: `for:` and the windows, subquery ranges and offsets, in seconds. */
export interface Shortening {
  readonly forSeconds: (seconds: number) => number;
  readonly windowSeconds: (seconds: number) => number;
}

/** The end-to-end test's: a simulated node makes blocks every second and is scraped every second. */
export const E2E_SHORTENING: Shortening = { forSeconds: shortFor, windowSeconds: shortWindow };

/**
 * Time scaled by `factor` (0.1: ten times faster), for `for:` and windows under an hour (`for:` of an hour or
 * more and the look-backs of an hour or more stay), never below `floorSeconds`: real nodes make blocks every
 * few seconds, not every second, and the exporter sees them once per cycle.
 */
export function scaledShortening(factor: number, floorSeconds: number): Shortening {
  const scale = (s: number) => (s === 0 ? 0 : s >= 3600 ? s : Math.max(floorSeconds, Math.round(s * factor)));
  return { forSeconds: scale, windowSeconds: scale };
}

export interface Rewrite {
  file: string;
  changes: string[];
}

const DURATION = String.raw`(?:\d+[smhdw])+`;

/** Returns the rewritten text and a list of what changed; throws on a duration it cannot read. */
export function shortenRuleText(text: string, file = '?', how: Shortening = E2E_SHORTENING): { text: string; changes: string[] } {
  const changes: string[] = [];
  const seconds = (d: string, where: string, i: number): number => {
    const s = parseDuration(d.replace(/(\d+)w/, (_m, n: string) => `${Number(n) * 7}d`));
    if (s === undefined) throw new Error(`${file}:${i + 1}: cannot read the duration "${d}" of ${where}`);
    return s;
  };
  const shorten = (d: string, rule: (s: number) => number, where: string, i: number): string => {
    const to = promDuration(rule(seconds(d, where, i)));
    if (to !== d) changes.push(`${where.replace('D', d)} → ${where.replace('D', to)}`);
    return to;
  };
  const out = text
    .split('\n')
    .map((line, i) => {
      if (/^\s*#/.test(line)) return line;
      let l = line.replace(/^(\s*)for:\s*(\S+)\s*$/, (_m, ind: string, d: string) => `${ind}for: ${shorten(d, how.forSeconds, 'for: D', i)}`);
      l = l.replace(/^(\s*)keep_firing_for:\s*(\S+)\s*$/, (_m, ind: string, d: string) => `${ind}keep_firing_for: ${shorten(d, how.forSeconds, 'keep_firing_for: D', i)}`);
      // [range] and [range:step] (a subquery; an empty step is the evaluation interval)
      l = l.replace(new RegExp(String.raw`\[(${DURATION})(?::(${DURATION})?)?\]`, 'g'), (m, r: string, s: string | undefined) => {
        const from = seconds(r, '[D]', i);
        const range = shorten(r, how.windowSeconds, '[D]', i);
        if (!m.includes(':')) return `[${range}]`;
        // The step shrinks with the range (the same number of points); an empty step stays empty.
        const factor = how.windowSeconds(from) / from;
        return `[${range}:${s ? shorten(s, (x) => Math.max(1, Math.round(x * factor)), '[:D]', i) : ''}]`;
      });
      l = l.replace(new RegExp(String.raw`\boffset (${DURATION})`, 'g'), (_m, d: string) => `offset ${shorten(d, how.windowSeconds, 'offset D', i)}`);
      return l;
    })
    .join('\n');
  return { text: out, changes };
}

/** Copies every *.rules.yaml of `srcDir` into `dstDir`, shortened. */
export function writeShortenedRules(srcDir: string, dstDir: string, how: Shortening = E2E_SHORTENING): Rewrite[] {
  const files = readdirSync(srcDir).filter((f) => f.endsWith('.rules.yaml')).sort();
  if (files.length === 0) throw new Error(`no *.rules.yaml in ${srcDir}`);
  return files.map((f) => {
    const { text, changes } = shortenRuleText(readFileSync(join(srcDir, f), 'utf8'), f, how);
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
