import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultNode, matrixRows, runFaultRow, warmUp, type FaultNode, FAULT_FIXTURES } from '../helpers/faults.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';

describe('fault matrix: connections refused or reset, bodies truncated or above the size cap', () => {
  let fixture: FixtureNode;
  let node: FaultNode;
  beforeAll(async () => {
    fixture = await startFixtureNode(0, FAULT_FIXTURES);
    node = await startFaultNode(fixture.url);
    await warmUp(node.url);
  });
  afterAll(async () => {
    await node?.close();
    await fixture?.close();
  });

  it.each(matrixRows(['refused', 'reset', 'truncated', 'tooLargeDeclared', 'tooLargeChunked']))('$collector × $label → success $success, $result', (row) => runFaultRow(node, row));
});
