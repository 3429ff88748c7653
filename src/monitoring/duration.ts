/**
 * Durations of monitoring.yaml and their three renderings: a Prometheus duration (`for: 10m`,
 * `[15m]`), a number of seconds in PromQL (`< 7 * 86400`, `> 900`) and words in alert and panel
 * text (`7 days`, `a day`). Whole seconds only: Prometheus `for:` and range windows take nothing finer
 * that would matter here.
 */

const UNITS = [
  ['d', 86400],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
] as const;

/** `7d`, `1h30m`, `90s` or a whole number of seconds → seconds; undefined when not one of those. */
export function parseDuration(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isInteger(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (/^\d+$/.test(s)) return Number(s);
  if (!/^(\d+[dhms])+$/.test(s)) return undefined;
  let total = 0;
  const seen = new Set<string>();
  for (const m of s.matchAll(/(\d+)([dhms])/g)) {
    // Prometheus rejects a unit given twice or out of order (`1m1h`); so does this.
    if (seen.has(m[2]!)) return undefined;
    seen.add(m[2]!);
    total += Number(m[1]) * UNITS.find(([u]) => u === m[2])![1];
  }
  const order = [...s.matchAll(/[dhms]/g)].map((m) => UNITS.findIndex(([u]) => u === m[0]));
  return order.every((v, i) => i === 0 || v > order[i - 1]!) ? total : undefined;
}

/** Seconds → Prometheus duration: 600 → `10m`, 86400 → `1d`, 5400 → `1h30m`, 0 → `0s`. */
export function promDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  let rest = seconds;
  let out = '';
  for (const [u, n] of UNITS) {
    const k = Math.floor(rest / n);
    if (k > 0) {
      out += `${k}${u}`;
      rest -= k * n;
    }
  }
  return out;
}

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
