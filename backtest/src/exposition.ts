// The Prometheus text exposition the exporter renders, read back line by line: the samples whose
// metric name a rule selects, as `name{labels} value` (label text kept byte for byte: the text
// format and OpenMetrics escape label values the same way). Pure.

/** The metric name of a sample line, or undefined for a comment or a blank line. */
export function sampleName(line: string): string | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  return i > 0 ? line.slice(0, i) : undefined;
}

/** `name{labels} value` of a sample line without a timestamp it may carry (quote-aware). */
export function splitSample(line: string): { series: string; value: string } {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  if (line[i] === '{') {
    let quoted = false;
    for (i++; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '\\') i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === '}') break;
    }
    i++;
  }
  const series = line.slice(0, i);
  const rest = line.slice(i).trim().split(/\s+/);
  return { series, value: rest[0] ?? '' };
}

/** The samples of `text` whose metric name `keep` accepts, as `name{labels} value`. */
export function keptSamples(text: string, keep: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const c = text.charCodeAt(start);
    // '#' and blank lines are skipped without slicing
    if (c !== 35 && end > start) {
      const line = text.slice(start, end);
      const name = sampleName(line);
      if (name !== undefined && keep.has(name)) {
        const { series, value } = splitSample(line);
        out.push(`${series} ${value}`);
      }
    }
    start = end + 1;
  }
  return out;
}

/** Every metric name with a sample in `text` (to show what the filter leaves out). */
export function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const n = sampleName(line);
    if (n !== undefined) names.add(n);
  }
  return names;
}
