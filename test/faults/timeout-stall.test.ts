import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultNode, matrixRows, runFaultRow, warmUp, type FaultNode, FAULT_FIXTURES } from '../helpers/faults.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';

describe('fault matrix: a body that stops in the middle', () => {
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

  it.each(matrixRows(['stall']))('$collector × $label → success $success, $result', (row) => runFaultRow(node, row));
});
