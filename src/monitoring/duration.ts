/**
 * Durations of monitoring.yaml and their three renderings: a Prometheus duration (`for: 10m`,
 * `[15m]`), a number of seconds in PromQL (`< 7 * 86400`, `> 900`) and words in alert and panel
 * text (`7 days`, `a day`). Whole seconds only: Prometheus `for:` and range windows take nothing finer
 * that would matter here.
 */

import { formatDuration, parseDuration as anyDuration } from '../duration.js';

/** `7d`, `1h30m`, `90s` or a whole number of seconds → seconds (src/duration.ts' grammar, whole seconds only). */
export function parseDuration(input: unknown): number | undefined {
  const s = anyDuration(input);
  return s !== undefined && Number.isInteger(s) ? s : undefined;
}

/** Seconds → Prometheus duration: 600 → `10m`, 86400 → `1d`, 5400 → `1h30m`, 0 → `0s`. */
export const promDuration = formatDuration;

/** Seconds as a PromQL number, in days where whole: 604800 → `7 * 86400`, 86400 → `86400`, 900 → `900`. */
export function secondsExpr(seconds: number): string {
  if (seconds >= 86400 && seconds % 86400 === 0) return seconds === 86400 ? '86400' : `${seconds / 86400} * 86400`;
  return String(seconds);
}

const WORDS: readonly (readonly [string, number])[] = [
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * Seconds in words for alert and panel text, in the largest unit that divides them:
 * 600 → `10 minutes`, 86400 → `1 day` (`a day` with `article`), 3600 → `1 hour` (`an hour`), 90 → `90 seconds`.
 */
export function durationWords(seconds: number, opts: { article?: boolean } = {}): string {
  const [word, n] = WORDS.find(([, n]) => seconds % n === 0 && seconds >= n) ?? WORDS[WORDS.length - 1]!;
  const k = seconds / n;
  if (k === 1) return opts.article ? `${word === 'hour' ? 'an' : 'a'} ${word}` : `1 ${word}`;
  return `${k} ${word}s`;
}

/** A ratio as a percentage for text: 0.9 → `90`, 0.05 → `5`, 0.125 → `12.5`. */
export function percent(ratio: number): string {
  return String(Math.round(ratio * 1e6) / 1e4);
}
