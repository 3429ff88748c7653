/**
 * The message ops, poll reasons and database methods of node-metrics' signal table (node-metrics-signals.ts):
 * the names older avalanchego releases gave one metric each, and the native label values mapped to ours.
 * Pure data, imported only by node-metrics-signals.ts.
 */
/*
 * Message ops of the v1.10.0 scheme (v1.10.0–v1.11.5), where every op has metric names of its own. From
 * v1.11.6 on the op is a label (`op`) and every value is summed, so these lists matter for v1.10.0–v1.11.5 only.
 * Source: avalanchego message/ops.go (the names are Op.String(); the groups are its HandshakeOps,
 * ConsensusExternalOps and ConsensusInternalOps) as stored for the PeerListAck era (v1.10.x) and for v1.11.x
 * (the source index holds no tag-exact copy of v1.10.0 or v1.11.5), and avalanchego RELEASES.md
 * v1.10.18 for the renames of that release: `version` → `handshake` (PR 2479), `peerlist_ack` → `get_peerlist`
 * (PR 2580), AppError (PR 2248): `app_request_failed` → `app_error`, `cross_chain_app_request_failed` →
 * `cross_chain_app_error`. Cross-checked against the `op` labels of real v1.11.7 and v1.12.2 nodes
 * (test/fixtures/real-node-v1.11.7, real-node-v1.12.2). Version ranges are given per name.
 * - network: network/peer/metrics.go registers `avalanche_network_<op>_{sent,received,sent_bytes,received_bytes,failed}`
 *   for every op of message.ExternalOps = ConsensusExternalOps + HandshakeOps;
 * - chain handler: snow/networking/handler/metrics.go registers the averager `avalanche_<a>_handler_<op>_{count,sum}`
 *   for every op of message.ConsensusOps = ConsensusExternalOps + ConsensusInternalOps (not the handshake ops).
 */
/** HandshakeOps: peer-to-peer only, never handed to a chain. */
const HANDSHAKE_OPS: readonly string[] = [
  // v1.10.0–v1.11.5
  'ping', 'pong', 'peerlist',
  // v1.10.0–v1.10.17
  'version', 'peerlist_ack',
  // v1.10.18–v1.11.5
  'handshake', 'get_peerlist',
];
/** ConsensusExternalOps: requests and responses between the chains of two nodes, and AppGossip. */
const CONSENSUS_EXTERNAL_OPS: readonly string[] = [
  // v1.10.0–v1.11.5
  'get_state_summary_frontier', 'state_summary_frontier', 'get_accepted_state_summary', 'accepted_state_summary',
  'get_accepted_frontier', 'accepted_frontier', 'get_accepted', 'accepted', 'get_ancestors', 'ancestors',
  'get', 'put', 'push_query', 'pull_query', 'chits', 'app_request', 'app_response', 'app_gossip',
  // v1.10.18–v1.11.5: the AppError response (before: the internal app_request_failed)
  'app_error',
];
/** ConsensusInternalOps: the node's own messages to a chain handler (never on the wire). */
const CONSENSUS_INTERNAL_OPS: readonly string[] = [
  // v1.10.0–v1.11.5
  'get_state_summary_frontier_failed', 'get_accepted_state_summary_failed', 'get_accepted_frontier_failed',
  'get_accepted_failed', 'get_ancestors_failed', 'get_failed', 'query_failed',
  'connected', 'disconnected', 'notify', 'gossip_request', 'timeout',
  // v1.10.0 to at least v1.11.5 (the v1.10.x source has them; avalanchego RELEASES.md notes no removal up to v1.11.6)
  'cross_chain_app_request', 'cross_chain_app_response', 'connected_subnet',
  // v1.10.0–v1.10.17
  'app_request_failed', 'cross_chain_app_request_failed',
  // v1.10.18–v1.11.5
  'cross_chain_app_error',
];
/** Ops with `avalanche_network_<op>_*` names (v1.10.0 scheme): message.ExternalOps. */
export const NETWORK_OPS: readonly string[] = [...HANDSHAKE_OPS, ...CONSENSUS_EXTERNAL_OPS];
/** Ops with `avalanche_<a>_handler_<op>_count` names (v1.10.0 scheme): message.ConsensusOps. */
export const HANDLER_OPS: readonly string[] = [...CONSENSUS_EXTERNAL_OPS, ...CONSENSUS_INTERNAL_OPS];
/**
 * `reason` of `avalanche_snowman_poll_count{chain,reason}` (terminated polls; v1.11.9+, none before) → ours.
 * Source: snow/consensus/snowman/poll, early_term_no_traversal.go (v1.11.9, PR 3093 "Add early termination
 * metrics case by case") and early_term_traversal.go (PR 3337, v1.13.0), and the real v1.12.2 and v1.14.2 nodes:
 * - `exhausted` (every polled validator answered), `early_fail` (alpha preference out of reach): v1.11.9–v1.14.2;
 * - `early_alpha_pref` (alpha preference reached, alpha confidence out of reach) and `early_alpha_conf` (alpha
 *   confidence reached): v1.11.9 (v1.12.2 capture) to at least v1.13.0 (its traversal poll still counts them);
 * - `early_alpha` (either of the two): v1.14.2 (capture and source); the release between v1.13.0 and v1.14.2
 *   that merged them is not established.
 * Both early-alpha reasons of the older releases are summed into `early_alpha`: one label value set for all.
 */
export const POLL_REASON: Readonly<Record<string, string>> = {
  exhausted: 'exhausted',
  early_fail: 'early_fail',
  early_alpha: 'early_alpha',
  early_alpha_pref: 'early_alpha',
  early_alpha_conf: 'early_alpha',
};
/** Database calls (database/meterdb) and whether they read or write; the others are not exported. */
export const DB_METHOD_KIND: Readonly<Record<string, 'read' | 'write'>> = {
  get: 'read', has: 'read', iterator_next: 'read',
  put: 'write', delete: 'write', batch_write: 'write',
};
export const DB_METHODS = Object.keys(DB_METHOD_KIND);
