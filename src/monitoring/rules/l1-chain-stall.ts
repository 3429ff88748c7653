// Issue 23: a stalled L1 chain, from node-metrics' per-chain series of the L1 chains the node runs
// (chain="<blockchain ID>", found with no flag). Part of the node-internals group, in its own file.
// P, X and C have their own stall alerts (AvalancheChainHeightStalled, AvalancheConsensusStuck).
import { durationWords, promDuration } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

/** The L1 chains: every chain label but the primary network's aliases. */
export const L1_CHAINS = 'chain!~"P|X|C"';

/**
 * An L1 may be idle for days by design (no transaction, no block: a real L1 stayed at height 0), so "no
 * new block" alone is not a stall. Stalled is: no new block for thresholds.l1ChainStallWindow, and one of
 * - blocks wait in consensus the whole window (an idle chain has none waiting);
 * - the chain was busy until it stopped: in the look-back (thresholds.l1ChainLookback) no pause between two
 *   blocks lasted thresholds.l1ChainBusyPause or more (the pause going on now has not ended, so it does not
 *   count), the exporter saw the chain for all of the look-back (a new chain has no history to judge), and
 *   the silence is shorter than the look-back (after that the chain counts as idle).
 * A pause that ended shows as the jump of the last block's timestamp from one minute to the next.
 */
export function l1ChainStalled({ t, q }: RuleContext): AlertRule {
  const w = promDuration(t.l1ChainStallWindow);
  const lookback = promDuration(t.l1ChainLookback);
  const ts = q.sel('avax_node_last_accepted_timestamp_seconds', L1_CHAINS);
  const on = 'and on(target, chain)';
  return {
    alert: 'AvalancheL1ChainStalled',
    comment: `Value: seconds since the L1 chain's last accepted block. The L1 chains the node runs (node-metrics: chain = their
blockchain ID, no flag needed) that finished bootstrapping and accepted no block for thresholds.l1ChainStallWindow (${w}), and
either blocks wait in consensus the whole window, or the chain was busy until it stopped: within thresholds.l1ChainLookback
(${lookback}) no pause between two blocks lasted thresholds.l1ChainBusyPause (${promDuration(t.l1ChainBusyPause)}) or more (a pause that ended shows
as a jump of the last block's timestamp within a minute; the pause going on now has not ended), the chain was already
seen ${lookback} ago, and it has been silent for less than ${lookback}. An idle L1 (never a block, or none for days) has
nothing waiting and no such history: it never fires. AvalancheConsensusStuck covers a chain whose processing also grows
(alerts/README.md inhibits this one then).`,
    expr: `(time() - ${ts})
${on} (changes(${q.sel('avax_node_last_accepted_height', L1_CHAINS)}[${w}]) == 0)
${on} (${q.sel('avax_node_bootstrap_finished', L1_CHAINS)} == 1)
${on} (
  min_over_time(${q.sel('avax_node_blocks_processing', L1_CHAINS)}[${w}]) > 0
  or
  (
    (time() - ${ts}) < ${t.l1ChainLookback}
      ${on}
    max_over_time((${ts} - ${ts} offset 1m)[${lookback}:1m]) < ${t.l1ChainBusyPause}
      ${on}
    ${ts} offset ${lookback}
  )
)
`,
    for: '5m',
    severity: 'critical',
    summary: '{{ $labels.target }}: L1 chain {{ $labels.chain }} accepted no block for {{ $value | humanizeDuration }}',
    description: `The L1 chain {{ $labels.chain }}{{ with printf \`${q.tsel('avax_chain_info', 'target=%q', 'blockchain_id=%q')}\` $labels.target $labels.chain | query }} ({{ . | first | label "name" }}, subnet {{ . | first | label "subnet" }}){{ end }} on {{ $labels.target }} has accepted no block for {{ $value | humanizeDuration }} (height {{ with printf \`${q.tsel('avax_node_last_accepted_height', 'target=%q', 'chain=%q')}\` $labels.target $labels.chain | query }}{{ . | first | value }}{{ end }}; {{ with printf \`${q.tsel('avax_node_blocks_processing', 'target=%q', 'chain=%q')}\` $labels.target $labels.chain | query }}{{ . | first | value }}{{ else }}?{{ end }} blocks waiting in consensus). Either blocks wait and none is decided, or the chain made a block at least every ${durationWords(t.l1ChainBusyPause)} for ${durationWords(t.l1ChainLookback)} and has made none for ${durationWords(t.l1ChainStallWindow)} now. Check the L1's validators (connected stake, balances above 0) and this node's logs of the chain.`,
  };
}
