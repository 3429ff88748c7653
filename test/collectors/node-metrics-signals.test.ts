import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pickFromText } from '../../src/collectors/node-metrics.js';
import { NAMING_SCHEMES, NODE_SIGNALS, schemeOfVersion, type NamingScheme } from '../../src/collectors/node-metrics-signals.js';
import type { Sample } from '../../src/model.js';
import { toV1_10 } from '../helpers/metrics-scheme-rewrite.js';
import { assertContract, lines, valueOf } from './fake.js';

/**
 * The summed counters of the signal table (node-metrics-signals.ts: op lists, value maps, several
 * native names per scheme), as node-metrics reads them.
 *
 * The counters node-metrics sums over a node's per-op, per-method or per-reason series, checked against the
 * node's own sum of those series in real captures (test/fixtures/real-node-v1.*, README there):
 * - scheme v1.11.8: v1.12.2 with a peer (real traffic, early_alpha_pref/conf reasons) and v1.14.2 (no peer);
 * - scheme v1.11.6: v1.11.7 with a peer;
 * - scheme v1.10.0: no v1.10.x or v1.11.5 capture exists, so (1) the v1.12.2 capture rewritten to v1.11.5's
 *   names (ops and methods back into the names, test/helpers/metrics-scheme-rewrite.ts): the op values a real
 *   node used (get_peerlist, handshake, app_error, …) against the node's own labelled sums; (2) bodies built
 *   from avalanchego's sources: every name a v1.10.17 and a v1.11.5 node registers per op (message/ops.go,
 *   network/peer/metrics.go, snow/networking/handler/metrics.go), each with its own value.
 * The expectations below read the captures with a parser of their own, not the exporter's.
 */

const read = (p: string) => readFileSync(fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url)), 'utf8');
const V1_14_2 = read('real-node-v1.14.2/ext-metrics-v1.14.2.txt');
const V1_12_2 = read('real-node-v1.12.2/ext-metrics-with-peer.txt');
const V1_11_7 = read('real-node-v1.11.7/ext-metrics-with-peer.txt');

type Want = string | RegExp;
interface NativeSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

function parse(text: string): NativeSample[] {
  const out: NativeSample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The node's own sum of the series of `name` whose labels match (undefined: no such series). */
function nodeSum(samples: readonly NativeSample[], name: Want, where: Record<string, Want> = {}): number | undefined {
  const is = (want: Want, got: string | undefined) => got !== undefined && (typeof want === 'string' ? got === want : want.test(got));
  const hits = samples.filter((s) => is(name, s.name) && Object.entries(where).every(([k, w]) => is(w, s.labels[k])));
  return hits.length === 0 ? undefined : hits.reduce((a, s) => a + s.value, 0);
}

const READ = /^(get|has|iterator_next)$/;
const WRITE = /^(put|delete|batch_write)$/;
const CHAINS = ['P', 'X', 'C'] as const;
const REASON: Record<string, RegExp> = { early_alpha: /^early_alpha(_pref|_conf)?$/, early_fail: /^early_fail$/, exhausted: /^exhausted$/ };

interface Check {
  readonly name: string;
  readonly labels: Record<string, string>;
  /** The node's own sum in our unit; undefined: the node has no such series, nor may we. */
  readonly node: number | undefined;
}

/** Native names of the summed counters in one scheme: [chain] → name, for the names that carry the chain. */
interface Names {
  /** Handler names carry the chain in a `chain` label (else in the name). */
  readonly chainLabel: boolean;
  handler(chain: string): string;
  expired(chain: string): string;
  db(chain: string, part: 'calls' | 'duration'): [string, Record<string, Want>];
  polls?: boolean;
}
const V1_11_8_NAMES: Names = {
  chainLabel: true,
  handler: () => 'avalanche_handler_messages',
  expired: () => 'avalanche_handler_expired',
  db: (chain, part) => [`avalanche_meterdb_${part}`, { chain }],
  polls: true,
};
const V1_11_6_NAMES: Names = {
  chainLabel: false,
  handler: (chain) => `avalanche_${chain}_handler_messages`,
  expired: (chain) => `avalanche_${chain}_handler_expired`,
  db: (chain, part) => [chain === 'all' ? `avalanche_db_${part}` : `avalanche_${chain}_db_${part}`, {}],
};

/** What the node itself says each summed counter of ours is (labelled native series: v1.11.6+). */
function checks(text: string, names: Names): Check[] {
  const s = parse(text);
  const out: Check[] = [];
  const add = (name: string, labels: Record<string, string>, node: number | undefined) => out.push({ name, labels, node });
  for (const dir of ['sent', 'received']) {
    add('avax_node_network_messages_total', { direction: dir }, nodeSum(s, 'avalanche_network_msgs', { io: dir }));
    add('avax_node_network_message_bytes_total', { direction: dir }, nodeSum(s, 'avalanche_network_msgs_bytes', { io: dir }));
  }
  add('avax_node_network_send_failures_total', {}, nodeSum(s, 'avalanche_network_msgs_failed_to_send'));
  for (const chain of CHAINS) {
    const c: Record<string, Want> = names.chainLabel ? { chain } : {};
    add('avax_node_handler_messages_total', { chain }, nodeSum(s, names.handler(chain), c));
    add('avax_node_handler_expired_messages_total', { chain }, nodeSum(s, names.expired(chain), c));
    for (const reason of Object.keys(REASON)) {
      add('avax_node_polls_terminated_total', { chain, reason }, names.polls ? nodeSum(s, 'avalanche_snowman_poll_count', { chain, reason: REASON[reason]! }) : undefined);
    }
  }
  for (const chain of ['all', ...CHAINS]) {
    for (const [op, methods] of [['read', READ], ['write', WRITE]] as const) {
      const [calls, cl] = names.db(chain, 'calls');
      const [duration, dl] = names.db(chain, 'duration');
      add('avax_node_db_operations_total', { chain, op }, nodeSum(s, calls, { ...cl, method: methods }));
      const ns = nodeSum(s, duration, { ...dl, method: methods });
      add('avax_node_db_operation_seconds_total', { chain, op }, ns === undefined ? undefined : ns / 1e9);
    }
  }
  return out;
}

function expectSums(ours: readonly Sample[], want: readonly Check[]): void {
  const got = want.map((c) => ({ ...c, node: valueOf(ours, c.name, c.labels) }));
  expect(got).toEqual(want);
}

/** Summed counters (of the table) whose native series are several per series of ours in some scheme. */
const SUMMED = [
  'avax_node_network_messages_total', 'avax_node_network_message_bytes_total', 'avax_node_network_send_failures_total',
  'avax_node_handler_messages_total', 'avax_node_handler_expired_messages_total', 'avax_node_polls_terminated_total',
  'avax_node_db_operations_total', 'avax_node_db_operation_seconds_total',
];

describe('node-metrics-signals: the naming scheme of a version', () => {
  it('behavior: schemeOfVersion', () => {
    // avalanchego/1.12.2, avalanchego/1.11.7 and avalanche/1.10.17 as real nodes report them (v1.10.17: `avalanche/`)
    const versions = ['avalanchego/1.14.2', 'avalanchego/1.12.2', '1.11.8', 'avalanchego/1.11.7', '1.11.6', '1.11.5', 'avalanche/1.10.17', '1.10.0', '1.9.16', '2.0.0', 'x', undefined];
    expect(versions.map((v) => schemeOfVersion(v))).toEqual([
      'v1.11.8', 'v1.11.8', 'v1.11.8', 'v1.11.6', 'v1.11.6', 'v1.10.0', 'v1.10.0', 'v1.10.0', undefined, 'v1.11.8', undefined, undefined,
    ]);
  });
});

describe('node-metrics sums: every summed counter is checked', () => {
  it('default: the counters with op lists, value maps or several native names in a scheme are the ones checked here', () => {
    const summing = NODE_SIGNALS.filter(
      (s) =>
        s.type === 'counter' &&
        (s.extraMap !== undefined || s.native.some((n) => n.opList) || NAMING_SCHEMES.some((sc) => s.native.filter((n) => n.schemes.includes(sc) && !n.part).length > 1)),
    ).map((s) => s.name);
    expect(summing.sort()).toEqual([...SUMMED].sort());
  });
});

const cases: [string, NamingScheme, string, Names][] = [
  ['v1.12.2 with a peer', 'v1.11.8', V1_12_2, V1_11_8_NAMES],
  ['v1.14.2', 'v1.11.8', V1_14_2, V1_11_8_NAMES],
  ['v1.11.7 with a peer', 'v1.11.6', V1_11_7, V1_11_6_NAMES],
];

describe.each(cases)('node-metrics sums: real %s (scheme %s)', (_label, scheme, text, names) => {
  const r = pickFromText(text);
  it('default: the scheme, every sample a declared family', () => {
    expect(r.scheme).toBe(scheme);
    expect(r.stats.malformed).toBe(0);
    assertContract('node-metrics', r.samples);
  });
  it("default: each summed counter equals the node's own sum over its per-op, per-method and per-reason series", () => {
    expectSums(r.samples, checks(text, names));
  });
});

describe('node-metrics sums: scheme v1.10.0, the v1.12.2 capture under v1.11.5 names', () => {
  const body = toV1_10(V1_12_2);
  const r = pickFromText(body);
  it('default: scheme v1.10.0; the ops the real node used are in the names (get_peerlist: issue 24)', () => {
    expect(r.scheme).toBe('v1.10.0');
    assertContract('node-metrics', r.samples);
    expect(body).toMatch(/^avalanche_network_get_peerlist_sent 37$/m);
    expect(body).toMatch(/^avalanche_network_handshake_received 1$/m);
    expect(body).toMatch(/^avalanche_P_handler_app_error_count 165$/m);
    expect(body).not.toMatch(/^avalanche_network_msgs\{/m);
  });
  it("default: each summed counter equals the node's own sum over its labelled series (no poll_count before v1.11.9)", () => {
    expectSums(r.samples, checks(V1_12_2, { ...V1_11_8_NAMES, polls: false }));
  });
});

/*
 * What a v1.10.17 and a v1.11.5 node register per op, transcribed from avalanchego's sources (message/ops.go
 * Op.String(), HandshakeOps, ConsensusExternalOps, ConsensusInternalOps; network/peer/metrics.go registers
 * ExternalOps, snow/networking/handler/metrics.go ConsensusOps; renames of v1.10.18 in avalanchego RELEASES.md).
 */
const CONSENSUS = [
  'get_state_summary_frontier', 'state_summary_frontier', 'get_accepted_state_summary', 'accepted_state_summary', 'get_accepted_frontier', 'accepted_frontier',
  'get_accepted', 'accepted', 'get_ancestors', 'ancestors', 'get', 'put', 'push_query', 'pull_query', 'chits', 'app_request', 'app_response', 'app_gossip',
];
const INTERNAL = [
  'get_state_summary_frontier_failed', 'get_accepted_state_summary_failed', 'get_accepted_frontier_failed', 'get_accepted_failed', 'get_ancestors_failed', 'get_failed',
  'query_failed', 'cross_chain_app_request', 'cross_chain_app_response', 'connected', 'connected_subnet', 'disconnected', 'notify', 'gossip_request', 'timeout',
];
const SOURCE_OPS: Record<string, { network: string[]; handler: string[] }> = {
  'v1.10.17': {
    network: ['ping', 'pong', 'version', 'peerlist', 'peerlist_ack', ...CONSENSUS],
    handler: [...CONSENSUS, ...INTERNAL, 'app_request_failed', 'cross_chain_app_request_failed'],
  },
  'v1.11.5': {
    network: ['ping', 'pong', 'handshake', 'get_peerlist', 'peerlist', ...CONSENSUS, 'app_error'],
    handler: [...CONSENSUS, 'app_error', ...INTERNAL, 'cross_chain_app_error'],
  },
};

/** A v1.10.x-named body with every per-op name of `ops` (each its own value) and look-alikes that are not messages. */
function sourceBody(ops: { network: string[]; handler: string[] }): { body: string; want: Record<string, number> } {
  const lines: string[] = [];
  const want: Record<string, number> = { sent: 0, received: 0, sent_bytes: 0, received_bytes: 0, failed: 0, P: 0, X: 0, C: 0 };
  let n = 0;
  const put = (name: string, key?: string) => {
    n += 1;
    lines.push(`${name} ${n}`);
    if (key) want[key]! += n;
  };
  for (const op of ops.network) {
    for (const io of ['sent', 'received', 'sent_bytes', 'received_bytes', 'failed']) put(`avalanche_network_${op}_${io}`, io);
    // compressed messages (already counted in _sent / _received) and bytes saved
    put(`avalanche_network_${op}_compression_saved_sent_bytes_count`);
    put(`avalanche_network_${op}_compression_saved_received_bytes_sum`);
  }
  put('avalanche_network_msgs_failed_to_parse');
  for (const chain of CHAINS) {
    for (const op of ops.handler) {
      put(`avalanche_${chain}_handler_${op}_count`, chain);
      put(`avalanche_${chain}_handler_${op}_sum`);
      put(`avalanche_${chain}_handler_${op}_msg_handling_count`);
    }
  }
  return { body: lines.join('\n') + '\n', want };
}

describe.each(Object.keys(SOURCE_OPS))('node-metrics sums: scheme v1.10.0, every per-op name of %s from the sources', (version) => {
  const { body, want } = sourceBody(SOURCE_OPS[version]!);
  const r = pickFromText(body);
  it('default: messages, bytes and failures sum every network op; handled messages every handler op; look-alikes are left out', () => {
    expect(r.scheme).toBe('v1.10.0');
    const v = (name: string, labels: Record<string, string> = {}) => valueOf(r.samples, name, labels);
    expect({
      sent: v('avax_node_network_messages_total', { direction: 'sent' }),
      received: v('avax_node_network_messages_total', { direction: 'received' }),
      sent_bytes: v('avax_node_network_message_bytes_total', { direction: 'sent' }),
      received_bytes: v('avax_node_network_message_bytes_total', { direction: 'received' }),
      failed: v('avax_node_network_send_failures_total'),
      ...Object.fromEntries(CHAINS.map((chain) => [chain, v('avax_node_handler_messages_total', { chain })])),
    }).toEqual(want);
  });
});

describe('node-metrics sums: the numbers of the real nodes', () => {
  const v = (text: string, name: string, labels: Record<string, string> = {}) => valueOf(pickFromText(text).samples, name, labels);
  it('default: v1.12.2 with a peer: messages, bytes, handled messages, terminated polls', () => {
    expect([v(V1_12_2, 'avax_node_network_messages_total', { direction: 'sent' }), v(V1_12_2, 'avax_node_network_messages_total', { direction: 'received' })]).toEqual([1677, 1677]);
    expect([v(V1_12_2, 'avax_node_network_message_bytes_total', { direction: 'sent' }), v(V1_12_2, 'avax_node_network_message_bytes_total', { direction: 'received' })]).toEqual([183476, 201163]);
    expect(CHAINS.map((chain) => v(V1_12_2, 'avax_node_handler_messages_total', { chain }))).toEqual([11719, 11230, 10888]);
    // reasons early_alpha_pref and early_alpha_conf (0 each on this network) are early_alpha
    expect(CHAINS.map((chain) => ['early_alpha', 'early_fail', 'exhausted'].map((reason) => v(V1_12_2, 'avax_node_polls_terminated_total', { chain, reason })))).toEqual([
      [0, 0, 46],
      [0, 0, 23],
      [0, 0, 23],
    ]);
  });
  it('behavior: early_alpha_pref and early_alpha_conf (v1.11.9 to at least v1.13.0) are summed into early_alpha', () => {
    const body = Object.entries({ early_alpha_pref: 5, early_alpha_conf: 7, early_fail: 2, exhausted: 11 })
      .map(([reason, n]) => `avalanche_snowman_poll_count{chain="C",reason="${reason}"} ${n}`)
      .join('\n');
    expect(lines(pickFromText(body).samples)).toEqual([
      'avax_node_polls_terminated_total{chain="C",reason="early_alpha"} 12',
      'avax_node_polls_terminated_total{chain="C",reason="early_fail"} 2',
      'avax_node_polls_terminated_total{chain="C",reason="exhausted"} 11',
    ]);
  });
  it('default: v1.11.7 with a peer: messages, bytes, handled messages', () => {
    expect([v(V1_11_7, 'avax_node_network_messages_total', { direction: 'sent' }), v(V1_11_7, 'avax_node_network_messages_total', { direction: 'received' })]).toEqual([1324, 1318]);
    expect(CHAINS.map((chain) => v(V1_11_7, 'avax_node_handler_messages_total', { chain }))).toEqual([9025, 8973, 9145]);
    expect(v(V1_11_7, 'avax_node_polls_terminated_total', { chain: 'C', reason: 'exhausted' })).toBeUndefined();
  });
});
