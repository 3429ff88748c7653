/**
 * The lean readers (src/schemas/lean.ts) against their zod schemas on mutated answers:
 * - exactly one used place changed (value, container, map key, absent member added), and
 * - mutations of the USED fields only (retyped, replaced, null, dropped, added, renamed keys of a map,
 *   elements dropped or doubled): the lean reader rejects exactly when zod rejects, and when both
 *   accept they give the same used data;
 * - mutations of the UNUSED fields only (and unknown fields added): the lean reader still accepts, with
 *   the used data of the unmutated answer (zod may reject: that is what the lean reader no longer does);
 * - the mutations of test/property/answers.test.ts (everything): whatever zod accepts, the lean
 *   reader accepts with the same used data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureNames, result as fixtureResult } from '../fixtures/load.js';
import { mutatedAnswer } from '../helpers/answer-mutations.js';
import { LEAN, both, expectAgreement, leanData, mutatedOnce, mutatedPart } from '../helpers/lean-agreement.js';

const NUM_RUNS = 300;
const METHODS = Object.keys(LEAN);

/**
 * The agreement property over `answers`: `agree` checks that the lean reader and zod agree and says whether both
 * accepted. Both verdicts must be exercised (each in more than a tenth of the runs), or the property proves little.
 */
function expectBothVerdicts<A>(answers: fc.Arbitrary<A>, agree: (a: A) => boolean): void {
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(answers, (a) => {
      if (agree(a)) accepted++;
      else rejected++;
    }),
    { numRuns: NUM_RUNS },
  );
  expect(accepted, `${accepted} accepted, ${rejected} rejected`).toBeGreaterThan(NUM_RUNS / 10);
  expect(rejected, `${accepted} accepted, ${rejected} rejected`).toBeGreaterThan(NUM_RUNS / 10);
}

describe('property: lean readers and zod schemas', () => {
  it.each(METHODS)('%s: a mutation of used fields is rejected by the lean reader exactly when zod rejects it', (method) =>
    expectBothVerdicts(mutatedPart(method, fixtureNames(method), (c) => fixtureResult(method, c), 'used'), ({ answer }) => expectAgreement(method, answer)));

  it.each(METHODS)('%s: one used value, container or key changed: the lean reader rejects exactly when zod rejects', (method) =>
    expectBothVerdicts(mutatedOnce(method, fixtureNames(method), (c) => fixtureResult(method, c)), ({ site, answer }) => expectAgreement(method, answer, site)));

  it.each(METHODS)('%s: a mutation of unused fields leaves the lean reader\'s used data as it was', (method) => {
    let zodRejected = 0;
    fc.assert(
      fc.property(mutatedPart(method, fixtureNames(method), (c) => fixtureResult(method, c), 'unused'), ({ original, answer }) => {
        const before = both(method, original);
        expect(before.zod.success).toBe(true);
        const after = both(method, answer);
        if (!after.zod.success) zodRejected++;
        const data = leanData(after.lean, 'after a mutation of unused fields:');
        expect(data).toEqual(leanData(before.lean));
        expect(data).toEqual(before.c.project(before.zod.data));
      }),
      { numRuns: NUM_RUNS },
    );
    // getBlockchains has no unused field of its own: only unknown fields are added, which zod ignores too.
    if (method !== 'platform.getBlockchains') expect(zodRejected, 'some mutations of unused fields break the zod schema').toBeGreaterThan(0);
  });

  it.each(METHODS)('%s: whatever zod accepts of the answers.test.ts mutations, the lean reader accepts the same', (method) => {
    fc.assert(
      fc.property(mutatedAnswer(method), (answer) => {
        const { zod, lean, c } = both(method, answer);
        if (zod.success) expect(leanData(lean, 'zod accepts it:')).toEqual(c.project(zod.data));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
