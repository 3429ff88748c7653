import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultNode, matrixRows, runFaultRow, warmUp, type FaultNode, FAULT_FIXTURES } from '../helpers/faults.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';

describe('fault matrix: unusable JSON-RPC answers', () => {
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

  it.each(matrixRows(['invalidJson', 'wrongTypes', 'rpcError', 'idMismatch', 'empty']))('$collector × $label → success $success, $result', (row) => runFaultRow(node, row));
});
