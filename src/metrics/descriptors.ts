import type { MetricDescriptor } from './model.js';

/**
 * Every metric family the exporter emits, in exposition order.
 * docs/metrics.md is generated from this table (`npm run docs`) and is the project's metric contract:
 * test/metrics/contract.test.ts fails when it is out of date, when the exporter emits a family or a
 * label it does not list, and when alerts or dashboards use a metric it does not document.
 */
const T = 'target';
const SNID = ['target', 'subnet', 'node_id'] as const;
const TC = ['target', 'check'] as const;
const TCK = ['target', 'chain', 'kind'] as const;

export const DESCRIPTORS: readonly MetricDescriptor[] = [
  // Exporter and collection (always on)
  { name: 'avax_up', type: 'gauge', labels: [T], collector: 'runner', help: '1 if the last collection cycle got at least one valid answer from the node.' },
  { name: 'avax_collector_success', type: 'gauge', labels: [T, 'collector'], collector: 'runner', help: "1 if the collector's last run succeeded." },
  { name: 'avax_collector_duration_seconds', type: 'gauge', labels: [T, 'collector'], collector: 'runner', help: "Wall time of the collector's last run, in seconds." },
  { name: 'avax_collector_last_success_timestamp_seconds', type: 'gauge', labels: [T, 'collector'], collector: 'runner', help: "Unix time of the collector's last successful run." },
  { name: 'avax_rpc_requests_total', type: 'counter', labels: [T, 'method', 'result'], collector: 'runner', help: 'Requests made to the node, by method and result: ok; normal_state (an error answer that means a normal state of the node: index disabled or empty, not a validator, method absent on an older node); rpc_error, http_error, timeout, network_error, invalid_response (something went wrong).' },
  { name: 'avax_rpc_request_duration_seconds', type: 'histogram', labels: [T, 'method'], collector: 'runner', help: 'Latency of each request to the node, in seconds.' },
  { name: 'avax_exporter_build_info', type: 'gauge', labels: ['version', 'nodejs_version'], collector: 'runner', help: 'Build information of avalanche-exporter; value 1.' },

  // Node identity
  { name: 'avax_node_info', type: 'gauge', labels: [T, 'node_id', 'version', 'database_version', 'git_commit', 'rpc_protocol_version', 'network_id', 'network_name'], collector: 'node-info', help: 'Node identity from info.getNodeID, info.getNodeVersion, info.getNetworkID and info.getNetworkName; value 1.' },
  { name: 'avax_node_vm_info', type: 'gauge', labels: [T, 'vm', 'version'], collector: 'node-info', help: 'VM versions from info.getNodeVersion vmVersions; value 1.' },
  { name: 'avax_network_upgrade_timestamp_seconds', type: 'gauge', labels: [T, 'upgrade'], collector: 'info-upgrades', help: 'Activation time of each network upgrade the node knows (info.upgrades), Unix seconds; +Inf when unscheduled.' },

  // Health
  { name: 'avax_node_healthy', type: 'gauge', labels: [T], collector: 'health', help: '1 if GET /ext/health reports healthy.' },
  { name: 'avax_node_ready', type: 'gauge', labels: [T], collector: 'health', help: '1 if GET /ext/health/readiness reports healthy.' },
  { name: 'avax_node_live', type: 'gauge', labels: [T], collector: 'health', help: '1 if GET /ext/health/liveness reports healthy.' },
  { name: 'avax_health_check_pending', type: 'gauge', labels: TC, collector: 'health', help: 'Health check not yet run (the node registered it but has not run it, e.g. for about 30 s after a restart): 1; the other per-check series are absent while it is pending.' },
  { name: 'avax_health_check_healthy', type: 'gauge', labels: TC, collector: 'health', help: 'Health check state: 1 when the check reports no error, 0 when failing; absent while the check is pending (not yet run).' },
  { name: 'avax_health_check_contiguous_failures', type: 'gauge', labels: TC, collector: 'health', help: 'Contiguous failures of the health check (0 when passing).' },
  { name: 'avax_health_check_duration_seconds', type: 'gauge', labels: TC, collector: 'health', help: "Duration of the health check's last run, in seconds." },
  { name: 'avax_health_check_failing_since_timestamp_seconds', type: 'gauge', labels: TC, collector: 'health', help: 'Unix time of the first failure of a failing health check (absent while passing).' },
  { name: 'avax_health_check_timestamp_seconds', type: 'gauge', labels: TC, collector: 'health', help: "Unix time of the health check's last run (absent while not yet run)." },

  // Bootstrap and chain progress
  { name: 'avax_chain_bootstrapped', type: 'gauge', labels: [T, 'chain'], collector: 'info-is-bootstrapped', help: '1 if info.isBootstrapped reports the chain bootstrapped.' },
  { name: 'avax_chain_height', type: 'gauge', labels: [T, 'chain'], collector: 'chain-height', help: 'Last accepted height: P platform.getHeight, C eth_blockNumber, X avm.getHeight.' },
  { name: 'avax_chain_height_behind_reference', type: 'gauge', labels: [T, 'chain'], collector: 'reference', help: 'Blocks this node is behind the reference node(s): highest reference height minus this height (P, C, X; issue 5, not yet in METRICS.md).' },
  { name: 'avax_pchain_timestamp_seconds', type: 'gauge', labels: [T], collector: 'chain-height', help: 'P-Chain time from platform.getTimestamp, as Unix seconds.' },

  // Peers
  { name: 'avax_peers', type: 'gauge', labels: [T], collector: 'info-peers', help: 'Connected peers (info.peers numPeers).' },
  { name: 'avax_peers_by_version', type: 'gauge', labels: [T, 'version'], collector: 'info-peers', help: 'Connected peers per reported version.' },
  { name: 'avax_peers_benched', type: 'gauge', labels: [T, 'chain'], collector: 'info-peers', help: 'Peers benched on each chain.' },
  { name: 'avax_peers_tracking_subnet', type: 'gauge', labels: [T, 'subnet'], collector: 'info-peers', help: 'Peers that track each subnet.' },
  { name: 'avax_peers_observed_uptime_ratio', type: 'summary', labels: [T, 'quantile'], collector: 'info-peers', help: "How the validator peers see this node's uptime: quantiles 0, 0.1 and 0.5 of observedUptime, as a ratio, over the connected peers that are current primary-network validators (_count: how many were counted; absent until the validator list is known)." },
  { name: 'avax_peers_silent', type: 'gauge', labels: [T], collector: 'info-peers', help: 'Peers whose lastReceived is older than the configured silence window.' },
  { name: 'avax_peers_newer_version_ratio', type: 'gauge', labels: [T], collector: 'info-peers', help: 'Share of peers running a newer avalanchego version than this node (semantic version order).' },
  { name: 'avax_peer_info', type: 'gauge', labels: [T, 'peer_node_id', 'version'], collector: 'info-peers', help: 'One series per connected peer (opt-in: --collector.info-peers.per-peer); value 1.' },
  { name: 'avax_peer_last_received_timestamp_seconds', type: 'gauge', labels: [T, 'peer_node_id'], collector: 'info-peers', help: 'Unix time of the last message received from each peer (opt-in).' },

  // Uptime
  { name: 'avax_uptime_rewarding_stake_ratio', type: 'gauge', labels: [T], collector: 'info-uptime', help: 'Share of stake that considers this node above the uptime requirement (info.uptime rewardingStakePercentage / 100).' },
  { name: 'avax_uptime_weighted_average_ratio', type: 'gauge', labels: [T], collector: 'info-uptime', help: 'Stake-weighted average of the uptime peers observe for this node (info.uptime weightedAveragePercentage / 100).' },

  // Validators
  { name: 'avax_validator_active', type: 'gauge', labels: SNID, collector: 'platform-validators', help: '1 if the watched node ID is in platform.getCurrentValidators, 0 if absent.' },
  { name: 'avax_validator_connected', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'connected, as the queried node sees the validator.' },
  { name: 'avax_validator_uptime_ratio', type: 'gauge', labels: SNID, collector: 'platform-validators', help: "The queried node's local view of the validator's uptime, as a ratio." },
  { name: 'avax_validator_start_timestamp_seconds', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Start of the validation, Unix seconds.' },
  { name: 'avax_validator_end_timestamp_seconds', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'End of the validation, Unix seconds.' },
  { name: 'avax_validator_stake_avax', type: 'gauge', labels: SNID, collector: 'platform-validators', help: "The validator's own stake (weight), in AVAX." },
  { name: 'avax_validator_delegators', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Number of current delegators.' },
  { name: 'avax_validator_delegator_stake_avax', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Stake delegated to the validator, in AVAX.' },
  { name: 'avax_validator_potential_reward_avax', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Reward of the validation if the uptime requirement is met, in AVAX.' },
  { name: 'avax_validator_delegation_fee_ratio', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Delegation fee, as a ratio.' },
  { name: 'avax_validator_uptime_requirement_ratio', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Uptime needed for rewards in this validation: 0.8, or 0.9 for validations started at or after the Helicon upgrade.' },
  { name: 'avax_validator_uptime_max_achievable_ratio', type: 'gauge', labels: SNID, collector: 'derived', help: "Best uptime the node's own primary-network validation can still reach if the node stays up until its end (from the weighted-average uptime, elapsed and remaining time)." },
  { name: 'avax_validator_delegation_capacity_avax', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'Stake that can still be delegated: min(5 x own stake, 3,000,000 AVAX) minus own stake and current delegations, in AVAX (primary network).' },
  { name: 'avax_validator_bls_key_matches', type: 'gauge', labels: [T, 'node_id'], collector: 'platform-validators', help: "1 if the node's BLS public key (info.getNodeID) is the signer key registered on the P-Chain, 0 if not (or none is registered)." },
  { name: 'avax_validator_expected_active', type: 'gauge', labels: SNID, collector: 'platform-validators', help: '1 if the watched node ID must be an active validator (--validator.node-id, or the own ID with --validator.expect-active).' },
  { name: 'avax_l1_validator_balance_avax', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'L1 validator balance left for continuous fees, in AVAX.' },
  { name: 'avax_l1_validator_weight', type: 'gauge', labels: SNID, collector: 'platform-validators', help: 'L1 validator weight.' },
  { name: 'avax_l1_validator_fee_price_navax_per_second', type: 'gauge', labels: [T], collector: 'platform-validator-fee', help: 'Continuous fee each active L1 validator pays, in nAVAX per second (platform.getValidatorFeeState price).' },
  { name: 'avax_l1_validator_balance_runway_seconds', type: 'gauge', labels: SNID, collector: 'derived', help: 'Seconds until the L1 validator balance runs out at the current fee price (balance / price); 0 when inactive.' },
  { name: 'avax_subnet_validators', type: 'gauge', labels: [T, 'subnet'], collector: 'platform-validators-full', help: 'Number of current validators of the subnet.' },
  { name: 'avax_subnet_stake_avax', type: 'gauge', labels: [T, 'subnet'], collector: 'platform-validators-full', help: 'Total stake of the subnet (weight plus delegatorWeight), in AVAX.' },
  { name: 'avax_subnet_connected_stake_ratio', type: 'gauge', labels: [T, 'subnet'], collector: 'platform-validators-full', help: 'Share of the subnet stake whose validators the node is connected to.' },

  // ACPs (community proposals)
  { name: 'avax_acp_support_weight', type: 'gauge', labels: [T, 'acp'], collector: 'info-acps', help: "Stake weight (nAVAX) of the node's validator peers supporting the open ACP." },
  { name: 'avax_acp_object_weight', type: 'gauge', labels: [T, 'acp'], collector: 'info-acps', help: "Stake weight (nAVAX) of the node's validator peers objecting to the open ACP." },
  { name: 'avax_acp_abstain_weight', type: 'gauge', labels: [T, 'acp'], collector: 'info-acps', help: 'Stake weight (nAVAX) of the rest of the primary network on the open ACP.' },
  { name: 'avax_acp_node_vote', type: 'gauge', labels: [T, 'acp', 'vote'], collector: 'fleet', help: "The node's own stance on each open ACP (vote support, object or abstain; 1 for its stance), as another target of this exporter sees it." },

  // Index
  { name: 'avax_index_available', type: 'gauge', labels: TCK, collector: 'index-last-accepted', help: '1 if /ext/index/<chain>/<kind> answers with a container, 0 if absent (404) or empty.' },
  { name: 'avax_index_last_accepted_index', type: 'gauge', labels: TCK, collector: 'index-last-accepted', help: 'index.getLastAccepted index (0-based position in this node\'s index).' },
  { name: 'avax_index_last_accepted_timestamp_seconds', type: 'gauge', labels: TCK, collector: 'index-last-accepted', help: 'When this node accepted the last indexed container, Unix seconds.' },
];

export const DESCRIPTOR_BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(DESCRIPTORS.map((d) => [d.name, d]));

/** Histogram bucket bounds of avax_rpc_request_duration_seconds. */
export const RPC_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Family of a sample name (strips histogram suffixes). */
export function familyOf(sampleName: string): MetricDescriptor | undefined {
  const d = DESCRIPTOR_BY_NAME.get(sampleName);
  if (d) return d;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sampleName.endsWith(suffix)) {
      const h = DESCRIPTOR_BY_NAME.get(sampleName.slice(0, -suffix.length));
      if (h && (h.type === 'histogram' || (h.type === 'summary' && suffix !== '_bucket'))) return h;
    }
  }
  return undefined;
}
