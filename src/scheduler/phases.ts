/**
 * Spreads collectors with longer intervals over the cycles of their period so that the requests per
 * cycle stay level (greedy: heaviest first, each on the phase that keeps the busiest cycle lowest).
 * Without it every 30 s, 60 s and 5 min collector would land on the same cycle as the 15 s ones.
 * `every` is the interval in base cycles; `weight` the requests of one run.
 */
export function assignPhases(items: { slot: { every: number; phase: number }; weight: number }[]): void {
  const lcm = (a: number, b: number): number => {
    const g = (x: number, y: number): number => (y === 0 ? x : g(y, x % y));
    return (a / g(a, b)) * b;
  };
  const horizon = Math.min(720, items.reduce((h, i) => lcm(h, i.slot.every), 1));
  const load = new Array<number>(horizon).fill(0);
  const order = [...items].sort((a, b) => a.slot.every - b.slot.every || b.weight - a.weight);
  for (const { slot, weight } of order) {
    let best = 0;
    let bestCost = Infinity;
    for (let p = 0; p < slot.every; p++) {
      let cost = 0;
      for (let t = p; t < horizon; t += slot.every) cost = Math.max(cost, load[t]! + weight);
      if (cost < bestCost) {
        bestCost = cost;
        best = p;
      }
    }
    slot.phase = best;
    for (let t = best; t < horizon; t += slot.every) load[t]! += weight;
  }
}
