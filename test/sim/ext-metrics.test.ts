/**
 * The simulated node's GET /ext/metrics: the v1.14.2 shape (component namespace + chain label), moving
 * with its clock, the older namings as scenarios, 404 when disabled or on a public server, and a
 * mainnet-sized body. Checked on the wire with the tests' own strict text-format parser (not the
 * exporter's reader).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { find, parseExposition } from '../helpers/exposition-parser.js';
import { raw } from './helpers.js';

let clock = Date.UTC(2026, 4, 14, 9, 0, 0);
let sim: SimNode;
let small: SimNode;

beforeAll(async () => {
  sim = await startSimNode({ seed: 3, validators: 150, peers: 200, now: () => clock });
  small = await startSimNode({ seed: 4, validators: 10, peers: 5, now: () => clock });
});
afterAll(async () => {
  await sim?.close();
  await small?.close();
});

const get = async (node: SimNode = sim) => raw(`${node.url}/ext/metrics`);
const val = (text: string, name: string, labels: Record<string, string> = {}) => {
  const hits = parseExposition(text).samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return hits.length === 1 ? hits[0]!.value : undefined;
};

describe('sim GET /ext/metrics', () => {
  it('default: text format 0.0.4 in the v1.14.2 naming, valid for a strict parser', async () => {
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const p = parseExposition(r.body);
    // P, X, C and the L1 chain the node runs (under its blockchain ID, as a real node shows it).
    expect(find(p, 'avalanche_snowman_last_accepted_height').map((s) => s.labels['chain']).sort()).toEqual(['C', 'P', 'X', sim.l1ChainId].sort());
    expect(val(r.body, 'avalanche_snowman_bootstrap_finished', { chain: 'C' })).toBe(1);
    expect(val(r.body, 'avalanche_network_peers')).toBeGreaterThan(100);
    expect(val(r.body, 'avalanche_health_checks_failing', { check: 'health', tag: 'all' })).toBe(0);
    expect(r.body).not.toMatch(/^avalanche_C_/m);
  });

  it('behavior: counters move with the clock and never go back', async () => {
    const a = (await get()).body;
    clock += 60_000;
    const b = (await get()).body;
    for (const [name, labels] of [
      ['avalanche_snowman_blks_accepted_count', { chain: 'C' }],
      ['avalanche_snowman_polls_successful', { chain: 'P' }],
      ['avalanche_network_msgs', { compressed: 'false', io: 'sent', op: 'pull_query' }],
      ['avalanche_meterdb_calls', { chain: 'all', method: 'get' }],
      ['avalanche_evm_eth_chain_block_gas_used_accepted', { chain: 'C' }],
    ] as const) {
      expect(val(b, name, labels), name).toBeGreaterThan(val(a, name, labels)!);
    }
    expect(val(b, 'avalanche_snowman_last_accepted_height', { chain: 'C' })).toBe(val(a, 'avalanche_snowman_last_accepted_height', { chain: 'C' })! + 30);
  });

  it('behavior: at mainnet scale (>= 100 peers) several times the 3,600 lines of an idle local node', async () => {
    const big = (await get()).body.split('\n').length;
    const little = (await get(small)).body.split('\n').length;
    expect(big).toBeGreaterThan(3 * 3636);
    expect(little).toBeLessThan(3636);
  });

  it('behavior: metrics-v1.11.6 puts the chain alias back into the name; metrics-v1.10 also ops and methods', async () => {
    await sim.setScenario('metrics-v1.11.6');
    const b = (await get()).body;
    parseExposition(b);
    expect(val(b, 'avalanche_C_blks_accepted_count')).toBeGreaterThan(0);
    expect(val(b, 'avalanche_db_calls', { method: 'get' })).toBeGreaterThan(0);
    expect(val(b, 'avalanche_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(val(b, 'avalanche_health_checks_failing', { tag: 'all' })).toBe(0);
    expect(b).not.toMatch(/^avalanche_(snowman|meterdb)_/m);
    await sim.setScenario('metrics-v1.10');
    const a = (await get()).body;
    parseExposition(a);
    expect(val(a, 'avalanche_db_get_count')).toBeGreaterThan(0);
    expect(val(a, 'avalanche_network_pull_query_sent')).toBeGreaterThan(0);
    expect(val(a, 'avalanche_C_handler_chits_count')).toBeGreaterThan(0);
    expect(a).not.toMatch(/^avalanche_network_msgs\{/m);
    await sim.setScenario('healthy');
  });

  it('behavior: metrics-disabled and public-server answer 404', async () => {
    for (const s of ['metrics-disabled', 'public-server'] as const) {
      await sim.setScenario(s);
      expect((await get()).status, s).toBe(404);
    }
    await sim.setScenario('healthy');
    expect((await get()).status).toBe(200);
  });

  it('behavior: unhealthy-network shows failing polls, benched validators and expired messages', async () => {
    await sim.setScenario('unhealthy-network');
    const a = (await get()).body;
    clock += 120_000;
    const b = (await get()).body;
    expect(val(b, 'avalanche_snowman_polls_failed', { chain: 'C' })!).toBeGreaterThan(val(a, 'avalanche_snowman_polls_failed', { chain: 'C' })!);
    expect(val(b, 'avalanche_benchlist_benched_num', { chain: 'C' })).toBeGreaterThan(0);
    expect(val(b, 'avalanche_handler_expired', { chain: 'C', op: 'pull_query' })).toBeGreaterThan(0);
    await sim.setScenario('healthy');
  });
});
