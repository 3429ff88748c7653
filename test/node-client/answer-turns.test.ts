// One answer per turn of the event loop (src/node-client/answer-turns.ts): callers go on in order, one
// per turn, so that what one answer's work schedules for the next turn (here an immediate; for a real
// scrape, the poll of its socket) runs before the answer after next, not after all of them.
import { describe, expect, it } from 'vitest';
import { answerTurn } from '../../src/node-client/answer-turns.js';

describe('answerTurn', () => {
  it('default: one caller per turn, in order; work queued by one runs before the answer after next', async () => {
    const log: string[] = [];
    await Promise.all(
      [0, 1, 2].map((i) =>
        answerTurn().then(() => {
          log.push(`answer ${i}`);
          setImmediate(() => log.push(`next turn after ${i}`));
        }),
      ),
    );
    await new Promise((r) => setImmediate(r));
    // All in one turn (the old `setImmediate` per answer), the three answers would come first.
    expect(log).toEqual(['answer 0', 'answer 1', 'next turn after 0', 'answer 2', 'next turn after 1', 'next turn after 2']);
  });

  it('default: 1,000 callers all go on, first come first served, and the queue drains', async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 1000 }, (_, i) => answerTurn().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    let later = false;
    await answerTurn().then(() => (later = true));
    expect(later).toBe(true);
  });
});
