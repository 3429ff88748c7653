/** Numbers in PromQL and in alert and panel text. */

/** A number without floating-point noise: 0.8 + 0.05 → `0.85`, not `0.8500000000000001`. */
export function num(x: number): string {
  return String(Math.round(x * 1e9) / 1e9);
}
