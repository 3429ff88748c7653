import { describe, expect, it } from 'vitest';
import { COLLECTOR_BY_NAME, COLLECTORS } from '../../src/collectors/index.js';
import { find } from '../helpers/exposition-parser.js';
import { DEPENDENTS, indexUnavailable, type Row } from '../helpers/fault-matrix.js';
import { ROUTES, rpcErrorHandler } from '../helpers/fault-table.js';
import { SELF as OWN_NODE_ID } from '../fixtures/ids.js';
import { result as fixtureResult } from '../fixtures/load.js';
import { faultRows } from './matrix.js';

const only = (method: string) => (r: { method: string }) => r.method === method;

/**
 * The answers a collector tolerates (docs/avalanchego-wire.md §4, §6, §7), counted as `normal_state` (not as an
 * error), and partial faults: a failing
 * call never takes the series of the calls that succeeded with it, and never brings in stale ones.
 */
const ROWS: Row[] = [
  {
    collector: 'index-last-accepted',
    fault: 'rpcError',
    label: 'index empty (-32000 no containers have been accepted) → available 0, tolerated',
    handler: rpcErrorHandler('no containers have been accepted'),
    result: 'normal_state',
    success: 1,
    during: indexUnavailable,
  },
  {
    collector: 'node-info',
    fault: 'http404',
    label: 'info.getNodeID 404 (public server) → node_id "", tolerated',
    match: only('info.getNodeID'),
    result: 'normal_state',
    success: 1,
    during: (p) => expect(find(p, 'avax_node_info').map((s) => s.labels['node_id'])).toEqual(['']),
  },
  {
    collector: 'node-info',
    fault: 'rpcError',
    label: 'info.getNodeID can\'t find method → node_id "", tolerated',
    match: only('info.getNodeID'),
    handler: rpcErrorHandler('rpc: can\'t find method "info.GetNodeID"'),
    result: 'normal_state',
    success: 1,
    during: (p) => expect(find(p, 'avax_node_info').map((s) => s.labels['node_id'])).toEqual(['']),
  },
  {
    collector: 'info-uptime',
    fault: 'rpcError',
    label: 'not a validator (-32000) → no uptime series, tolerated',
    handler: rpcErrorHandler("couldn't get node uptime: node is not a validator"),
    result: 'normal_state',
    success: 1,
    during: (p) => {
      expect(find(p, 'avax_uptime_rewarding_stake_ratio')).toEqual([]);
      expect(find(p, 'avax_uptime_weighted_average_ratio')).toEqual([]);
    },
  },
  {
    collector: 'node-info',
    fault: 'http500',
    label: 'info.getNodeID 500 only → failure, node_id kept from the last good answer',
    match: only('info.getNodeID'),
    result: 'http_error',
    success: 0,
    during: (p) => expect(find(p, 'avax_node_info').map((s) => s.labels['node_id'])).toEqual([OWN_NODE_ID]),
  },
  {
    collector: 'chain-height',
    fault: 'http503',
    label: 'C-Chain not bootstrapped (eth_blockNumber 503) → failure, P and X heights kept',
    match: only('eth_blockNumber'),
    result: 'http_error',
    success: 0,
    during: (p) => {
      expect(find(p, 'avax_chain_height').map((s) => s.labels['chain']).sort()).toEqual(['P', 'X']);
      expect(find(p, 'avax_pchain_timestamp_seconds')).toHaveLength(1);
    },
  },
  {
    collector: 'health',
    fault: 'http503',
    label: '503 with a JSON health report is an answer, not a fault → healthy 0',
    handler: (req, res) => {
      const which = req.path.endsWith('/readiness') ? 'health.readiness' : req.path.endsWith('/liveness') ? 'health.liveness' : 'health.health';
      const body = which === 'health.health' ? fixtureResult('health.health', 'unhealthy') : { ...fixtureResult(which, 'default'), healthy: false };
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    },
    result: 'ok',
    success: 1,
    during: (p) => {
      expect(find(p, 'avax_node_healthy').map((s) => s.value)).toEqual([0]);
      expect(find(p, 'avax_node_ready').map((s) => s.value)).toEqual([0]);
      expect(find(p, 'avax_health_check_healthy').some((s) => s.value === 0)).toBe(true);
    },
  },
];

describe('fault matrix: routes and dependents', () => {
  it('the routes (from the declared calls) cover exactly the collectors', () => {
    expect(Object.keys(ROUTES).sort()).toEqual(COLLECTORS.map((c) => c.name).sort());
  });
  it('each dependent reads the collector whose failure it shares (declared in reads)', () => {
    for (const [collector, dependents] of Object.entries(DEPENDENTS)) for (const d of dependents) expect(COLLECTOR_BY_NAME.get(d)?.reads, `${d} reads ${collector}`).toContain(collector);
  });
});

faultRows('tolerated answers and partial faults', ROWS);
