// Issue 23: a stalled L1 chain, from node-metrics' per-chain series of the L1 chains the node runs
// (chain="<blockchain ID>", found with no flag). Part of the node-internals group, in its own file.
// P, X and C have their own stall alerts (AvalancheChainHeightStalled, AvalancheConsensusStuck).
import { durationWords, promDuration } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

/** The L1 chains: every chain label but the primary network's aliases. */
export const L1_CHAINS = 'chain!~"P|X|C"';

/**
 * An L1 may be idle for days by design (no transaction, no block: a real L1 stayed at height 0), and a busy one
 * may go idle for hours, so "no new block" alone is not a stall, and neither is "it was busy until then" (issue 43:
 * the healthy weeks' busy L1 idle for 12 hours paged every week). What tells a stalled chain from an idle one is
 * what the node says of the chain while no block comes, never its past pace. Stalled is: no new block for
 * thresholds.l1ChainStallWindow, and one of
 * - blocks wait in consensus the whole window (an idle chain has none waiting);
 * - the chain's own health check fails (avalanchego registers one per chain under its blockchain ID,
 *   snow/networking/handler/health.go): a block processing longer than MaxItemProcessingTime (30 s) or too many
 *   processing (consensus), less stake connected than accepting needs (networking: alpha/k · 0.8 + 0.2, 80 % by
 *   default), or the VM reporting itself unhealthy. An idle chain passes it: the real idle L1 (v1.14.2, xsvm at
 *   height 0) showed processingBlocks 0, percentConnected 1, vm health 200;
 * - another target of the same Prometheus accepted blocks of the same chain in the window: the L1 moves on and
 *   this node does not follow it.
 * A chain that stops with nothing waiting, a healthy check and no other node to compare with (a VM that stops
 * building blocks and says nothing) cannot be told from an idle one here.
 */
export function l1ChainStalled({ t, q }: RuleContext): AlertRule {
  const w = promDuration(t.l1ChainStallWindow);
  const ts = q.sel('avax_node_last_accepted_timestamp_seconds', L1_CHAINS);
  const height = q.sel('avax_node_last_accepted_height', L1_CHAINS);
  const on = 'and on(target, chain)';
  return {
    alert: 'AvalancheL1ChainStalled',
    comment: `Value: seconds since the L1 chain's last accepted block. The L1 chains the node runs (node-metrics: chain = their
blockchain ID, no flag needed) that finished bootstrapping and accepted no block for thresholds.l1ChainStallWindow (${w}),
while blocks wait in consensus the whole window, or the chain's own health check (its blockchain ID) fails (a block
undecided for 30 s, too little stake connected to accept, its VM unhealthy), or another target saw the same chain
accept blocks in the window. An idle L1 (no transaction: nothing waiting, a passing check), however busy before, never
fires. AvalancheConsensusStuck covers a chain whose processing also grows (alerts/README.md inhibits this one then).`,
    expr: `(time() - ${ts})
${on} (changes(${height}[${w}]) == 0)
${on} (${q.sel('avax_node_bootstrap_finished', L1_CHAINS)} == 1)
${on} (
  min_over_time(${q.sel('avax_node_blocks_processing', L1_CHAINS)}[${w}]) > 0
  or
  label_replace(${q.sel('avax_health_check_healthy')} == 0, "chain", "$1", "check", "(.+)")
  or
  (changes(${height}[${w}]) == 0 and on(chain) max by (chain) (changes(${height}[${w}])) > 0)
)
`,
    for: '5m',
    severity: 'critical',
    summary: '{{ $labels.target }}: L1 chain {{ $labels.chain }} accepted no block for {{ $value | humanizeDuration }}',
    description: `The L1 chain {{ $labels.chain }}{{ with printf \`${q.tsel('avax_chain_info', 'target=%q', 'blockchain_id=%q')}\` $labels.target $labels.chain | query }} ({{ . | first | label "name" }}, subnet {{ . | first | label "subnet" }}){{ end }} on {{ $labels.target }} has accepted no block for {{ $value | humanizeDuration }} (height {{ with printf \`${q.tsel('avax_node_last_accepted_height', 'target=%q', 'chain=%q')}\` $labels.target $labels.chain | query }}{{ . | first | value }}{{ end }}; {{ with printf \`${q.tsel('avax_node_blocks_processing', 'target=%q', 'chain=%q')}\` $labels.target $labels.chain | query }}{{ . | first | value }}{{ else }}?{{ end }} blocks waiting in consensus; its health check {{ with printf \`${q.tsel('avax_health_check_healthy', 'target=%q', 'check=%q')}\` $labels.target $labels.chain | query }}{{ if eq (. | first | value) 1.0 }}passing{{ else }}failing{{ end }}{{ else }}unknown{{ end }}). For ${durationWords(t.l1ChainStallWindow)} either blocks waited and none was decided, or the node reported the chain unhealthy, or another node of this Prometheus saw the chain move on. Check the L1's validators (connected stake, balances above 0), the chain's health check and this node's logs of the chain.`,
  };
}
