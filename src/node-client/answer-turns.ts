/**
 * One answer per turn of the event loop. An answer's body has arrived; decoding it, its collector's
 * work and perhaps its target's publication follow in one go. Run for every answer that arrived in the
 * same poll (with 1,000 targets, dozens), that is one stretch of hundreds of milliseconds in which no
 * scrape is read. Here the answers wait in a queue and go on one per turn, with the I/O polled between
 * two of them (issue 21, bench/RESULTS.md: with 1,000 targets the worst 15 s window's event-loop p99 fell from
 * 134 to 89 ms in one pair of runs, from 70 to 28 ms in another).
 * It also lets undici free the socket for the next request before the body is read (it does so one turn
 * after the body ends). Process-wide on purpose: the event loop is.
 */
const queue: (() => void)[] = [];
let draining = false;

function next(): void {
  queue.shift()?.();
  if (queue.length > 0) setImmediate(next);
  else draining = false;
}

/** Resolves in a later turn of the event loop, one caller per turn, first come first served. */
export function answerTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    queue.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(next);
    }
  });
}
