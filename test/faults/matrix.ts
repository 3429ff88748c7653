import { afterAll, beforeAll, describe, it } from 'vitest';
import { matrixRows, runFaultRow, startMatrixNode, warmUp, type Row } from '../helpers/fault-matrix.js';
import type { FaultNode } from '../helpers/fault-node.js';
import type { FaultName } from '../helpers/fault-table.js';

/**
 * One part of the fault matrix: every collector × each of `faults`, against a fault proxy in front of
 * the fixture node. The parts live in separate files so that vitest runs them in parallel.
 */
export function faultMatrix(title: string, faults: readonly FaultName[]): void {
  faultRows(title, matrixRows(faults), '$collector × $label → success $success, $result');
}

/** Rows of the matrix against one matrix node, each against a fresh exporter (runFaultRow). */
export function faultRows(title: string, rows: readonly Row[], name = '$collector × $label'): void {
  describe(`fault matrix: ${title}`, () => {
    let node: FaultNode;
    beforeAll(async () => {
      node = await startMatrixNode();
      await warmUp(node.url);
    });
    afterAll(() => node?.close());

    it.each(rows)(name, (row) => runFaultRow(node, row));
  });
}
