/** Numbers in PromQL and in alert and panel text; the generated blocks of the docs. */

/** A number without floating-point noise: 0.8 + 0.05 → `0.85`, not `0.8500000000000001`. */
export function num(x: number): string {
  return String(Math.round(x * 1e9) / 1e9);
}

/** `doc` (the file `file`) with the text between its `start` and `end` marker lines replaced by `content` (a generated block). */
export function replaceBlock(doc: string, file: string, start: string, end: string, content: string): string {
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${file}: no ${start} … ${end} block`);
  return `${doc.slice(0, i + start.length)}\n${content}\n${doc.slice(j)}`;
}
