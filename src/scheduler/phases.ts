/**
 * Spreads collectors with longer intervals over the cycles of their period so that the requests per
 * cycle stay level. Without it every 30 s, 60 s and 5 min collector would land on the same cycle as
 * the 15 s ones. `every` is the interval in base cycles; `weight` the requests of one run.
 *
 * Greedy first (shortest interval first, heaviest first, each on the phase that keeps the busiest
 * cycle lowest), then a bounded local search that moves one collector at a time to another phase while
 * that lowers the busiest cycle (or, at equal busiest cycle, the number of cycles at that load): the
 * greedy alone can fill every phase of the 60 s collectors a little, leaving no cycle where a heavy
 * 5-minute collector fits (bench row 4).
 */
export function assignPhases(items: { slot: { every: number; phase: number }; weight: number }[]): void {
  const lcm = (a: number, b: number): number => {
    const g = (x: number, y: number): number => (y === 0 ? x : g(y, x % y));
    return (a / g(a, b)) * b;
  };
  const horizon = Math.min(720, items.reduce((h, i) => lcm(h, i.slot.every), 1));
  const load = new Array<number>(horizon).fill(0);
  const place = (i: (typeof items)[number], sign: 1 | -1) => {
    for (let t = i.slot.phase; t < horizon; t += i.slot.every) load[t]! += sign * i.weight;
  };
  const order = [...items].sort((a, b) => a.slot.every - b.slot.every || b.weight - a.weight);
  for (const item of order) {
    let best = 0;
    let bestCost = Infinity;
    for (let p = 0; p < item.slot.every; p++) {
      let cost = 0;
      for (let t = p; t < horizon; t += item.slot.every) cost = Math.max(cost, load[t]! + item.weight);
      if (cost < bestCost) {
        bestCost = cost;
        best = p;
      }
    }
    item.slot.phase = best;
    place(item, 1);
  }
  // Local search: (busiest cycle, cycles at that load) decreases strictly with every move: it ends.
  const score = (): [number, number] => {
    const max = Math.max(...load);
    return [max, load.filter((l) => l === max).length];
  };
  const better = (a: [number, number], b: [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  for (let pass = 0; pass < 50; pass++) {
    let moved = false;
    for (const item of order) {
      if (item.slot.every === 1 || item.weight === 0) continue;
      const from = item.slot.phase;
      let bestScore = score();
      let bestPhase = from;
      place(item, -1);
      for (let p = 0; p < item.slot.every; p++) {
        if (p === from) continue;
        item.slot.phase = p;
        place(item, 1);
        const s = score();
        if (better(s, bestScore)) {
          bestScore = s;
          bestPhase = p;
        }
        place(item, -1);
      }
      item.slot.phase = bestPhase;
      place(item, 1);
      if (bestPhase !== from) moved = true;
    }
    if (!moved) break;
  }
}
