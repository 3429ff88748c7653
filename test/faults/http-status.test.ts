import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultNode, matrixRows, runFaultRow, warmUp, type FaultNode, FAULT_FIXTURES } from '../helpers/faults.js';
import { startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';

describe('fault matrix: HTTP status answers with the plain-text bodies of a real node', () => {
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

  it.each(matrixRows(['http500', 'http404', 'http405', 'http415', 'http403', 'http503']))('$collector × $label → success $success, $result', (row) => runFaultRow(node, row));
});
