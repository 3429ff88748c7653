import { afterAll, beforeAll, describe, it } from 'vitest';
import { FAULT_FIXTURES, matrixRows, runFaultRow, warmUp } from '../helpers/fault-matrix.js';
import { startFaultNode, type FaultNode } from '../helpers/fault-node.js';
import { type FaultName } from '../helpers/fault-table.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';

/**
 * One part of the fault matrix: every collector × each of `faults`, against a fault proxy in front of
 * the fixture node. The parts live in separate files so that vitest runs them in parallel.
 */
export function faultMatrix(title: string, faults: readonly FaultName[]): void {
  describe(`fault matrix: ${title}`, () => {
    let fixture: FixtureNode;
    let node: FaultNode;
    beforeAll(async () => {
      fixture = await startFixtureNode(FAULT_FIXTURES);
      node = await startFaultNode(fixture.url);
      await warmUp(node.url);
    });
    afterAll(async () => {
      await node?.close();
      await fixture?.close();
    });

    it.each(matrixRows(faults))('$collector × $label → success $success, $result', (row) => runFaultRow(node, row));
  });
}
