// Consensus health from the node's own /ext/metrics (collector node-metrics), with the official Builders Hub
// "Key Metrics & Alerts" thresholds as defaults (issue 27, item 5): the poll success rate (warning below 95 %,
// page below 90 %), blocks processing (6 / 15 for 5 minutes), connected stake (page below 80 %) and C-Chain bad
// blocks (page above 10 in 5 minutes). alerts/README.md "Official thresholds" says where the defaults differ.
import { percent } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

export function nodeConsensusRules({ t, q }: RuleContext): AlertRule[] {
  const failed = q.sel('avax_node_polls_failed_total');
  const ok = q.sel('avax_node_polls_successful_total');
  const pollFailure = (severity: AlertRule['severity'], above: number, comment?: string): AlertRule => ({
    alert: 'AvalanchePollFailureRatioHigh',
    ...(comment ? { comment } : {}),
    expr: `(
  rate(${failed}[10m])
  / (rate(${failed}[10m]) + rate(${ok}[10m]))
) > ${above}`,
    for: '10m',
    severity,
    summary: '{{ $labels.target }}: {{ $value | humanizePercentage }} of the consensus polls on chain {{ $labels.chain }} fail',
    description: `{{ $value | humanizePercentage }} of the consensus polls of chain {{ $labels.chain }} on {{ $labels.target }} failed over the last 10 minutes (threshold ${percent(above)} %: a success rate below ${percent(1 - above)} %). Validators do not answer its queries in time: look at connectivity, connected stake, benched validators and the node's CPU.`,
  });
  const processing = q.sel('avax_node_blocks_processing');
  const processingHigh = (severity: AlertRule['severity'], above: number, comment?: string): AlertRule => ({
    alert: 'AvalancheBlocksProcessingHigh',
    ...(comment ? { comment } : {}),
    expr: `${processing} > ${above}
and on(target, chain) (${q.sel('avax_node_bootstrap_finished')} == 1)`,
    for: '5m',
    severity,
    summary: '{{ $labels.target }}: {{ $value }} blocks wait in consensus on chain {{ $labels.chain }}',
    description: `{{ $value }} blocks of chain {{ $labels.chain }} on {{ $labels.target }} have been in consensus without a decision for 5 minutes (threshold ${above}). Finalization is slowing down: look at the poll failure ratio, connected stake and benched validators.`,
  });
  return [
    pollFailure(
      'warning',
      t.pollFailureRatio,
      `Per chain: share of consensus polls that failed over 10m (thresholds.pollFailureRatio and
pollFailureRatioCritical: the Builders Hub success rates 95 % and 90 %). Silent while no poll finished
(the ratio is NaN). Both families carry the same labels (one scrape), so plain matching: an on() inside
the denominator would keep only its labels and match nothing in the division.`,
    ),
    pollFailure('critical', t.pollFailureRatioCritical),
    processingHigh(
      'warning',
      t.blocksProcessingWarning,
      `Per chain that finished bootstrapping: blocks issued to consensus and not decided, above the threshold for
5m (thresholds.blocksProcessingWarning and blocksProcessingCritical, the Builders Hub 6 and 15). A stopped
chain (AvalancheConsensusStuck) crosses them too.`,
    ),
    processingHigh('critical', t.blocksProcessingCritical),
    {
      alert: 'AvalancheConnectedStakeLow',
      comment: `Per subnet (the primary network from the P-Chain, a watched L1 from its chain): the node's own share of the
validator stake it is connected to (avalanche_stake_percent_connected), below thresholds.connectedStakeLow
(the Builders Hub 80 %) for 10m. Below alpha/k (75 % by default) the node stops sending queries.`,
      expr: `${q.sel('avax_subnet_connected_stake_ratio')} < ${t.connectedStakeLow}`,
      for: '10m',
      severity: 'critical',
      summary: '{{ $labels.target }}: connected to {{ $value | humanizePercentage }} of the stake of subnet {{ $labels.subnet }}',
      description: `{{ $labels.target }} has been connected to only {{ $value | humanizePercentage }} of the validator stake of subnet {{ $labels.subnet }} for 10 minutes (threshold ${percent(t.connectedStakeLow)} %). It cannot complete its polls; below 75 % it stops querying and its chains stall. Check its network (public IP, port 9651, firewall) and its peers.`,
    },
    {
      alert: 'AvalancheBadBlocks',
      comment: `C-Chain blocks that failed verification on this node (coreth's chain/block/bad/count: a bad state root,
invalid transactions), more than thresholds.badBlocks in 5m (the Builders Hub value, 10). The node may be
diverging from the network; its poll failure ratio need not move. L1 EVM chains: not read (see the runbook).
Coreth only: under SAE (avalanchego v1.15.0+ after Helicon) the series is absent and this alert silent.`,
      expr: `increase(${q.sel('avax_node_cchain_bad_blocks_total')}[5m]) > ${t.badBlocks}`,
      for: '2m',
      severity: 'critical',
      summary: '{{ $labels.target }}: {{ $value | humanize }} C-Chain blocks failed verification in 5 minutes',
      description: `{{ $value | humanize }} C-Chain blocks failed verification on {{ $labels.target }} in the last 5 minutes (threshold ${t.badBlocks}). The node rejects blocks the network accepts or its state is corrupt: compare its C-Chain height and block hashes with a reference node, read its log for "bad block", and resync it if it diverged.`,
    },
  ];
}
