/**
 * A counting semaphore, the one used everywhere: at most `n` holders at once (targets collected at
 * once by the scheduler; requests in flight per node in the node client). Waiters are served in
 * order; a waiter whose signal aborts leaves the queue and its acquire rejects with the signal's reason.
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(private readonly n: number) {}

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active < this.n) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(wake);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(wake);
    });
  }

  release(): void {
    this.active--;
    this.waiters.shift()?.();
  }
}
