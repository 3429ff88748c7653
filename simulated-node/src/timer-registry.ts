// The simulator's wall-clock timers in one place, so that close() stops every one of them ('slow'
// delays, listener re-open retries; the health worker runs on the simulator's clock instead) and no test leaves a timer behind.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).

export class TimerRegistry {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pendingDelays = new Set<() => void>();

  timeout(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  clear(t: NodeJS.Timeout): void {
    clearTimeout(t);
    clearInterval(t);
    this.timers.delete(t);
  }

  /** Resolves after `ms`, or at once when clearAll() runs first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.timers.delete(t);
        this.pendingDelays.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.timers.add(t);
      this.pendingDelays.add(done);
    });
  }

  clearAll(): void {
    for (const t of this.timers) {
      clearTimeout(t);
      clearInterval(t);
    }
    this.timers.clear();
    for (const done of [...this.pendingDelays]) done();
  }
}
