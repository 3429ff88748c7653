// The C-Chain's execution under SAE (ACP-194, avalanchego v1.15.0+ once Helicon activated): blocks are accepted by
// consensus first and executed afterwards, in order, by the node's execution queue. What the node serves as
// `latest` (eth_blockNumber) is its last executed block, so a node whose execution stops or falls behind serves
// old state while its consensus looks healthy. Part of the node-internals group (collector node-metrics), in its
// own file. Silent on a Coreth C-Chain: the SAE series and avax_cchain_execution_lag_blocks do not exist there.
import { durationWords, promDuration } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

export function nodeCchainExecutionRules({ t, q }: RuleContext): AlertRule[] {
  const w = promDuration(t.cchainExecutionWindow);
  const window = durationWords(t.cchainExecutionWindow);
  const lag = q.sel('avax_cchain_execution_lag_blocks');
  const executed = q.sel('avax_node_cchain_last_executed_height');
  const accepted = q.sel('avax_node_last_accepted_height', 'chain="C"');
  const bootstrapped = `and on(target) (${q.sel('avax_node_bootstrap_finished', 'chain="C"')} == 1)`;
  const notExecuting = `(changes(${executed}[${w}]) == 0)`;
  return [
    {
      alert: 'AvalancheCChainExecutionStuck',
      comment: `Value: accepted C-Chain blocks not executed (avax_cchain_execution_lag_blocks). Under SAE: the last executed height did not
change for thresholds.cchainExecutionWindow (${w}) while the last accepted one did, on a bootstrapped C-Chain. A quiet chain
(nothing accepted) does not fire. node-metrics reads both every minute, from the same /ext/metrics body.`,
      expr: `${lag} > 0
and on(target) ${notExecuting}
and on(target) (changes(${accepted}[${w}]) > 0)
${bootstrapped}
`,
      for: '2m',
      severity: 'critical',
      summary: '{{ $labels.target }}: C-Chain execution stopped, {{ $value }} accepted blocks wait',
      description: `The C-Chain of {{ $labels.target }} executed no block in ${window} while consensus kept accepting them: {{ $value }} accepted blocks wait for execution. Its RPC (eth_blockNumber, the latest block, balances, nonces) serves state that grows older, and it builds no C-Chain block (SAE refuses to while execution lags settlement). Read the node's C-Chain log for the execution error; a restart re-executes from the last executed block.`,
    },
    {
      alert: 'AvalancheCChainExecutionLagging',
      comment: `Value: accepted C-Chain blocks not executed. Under SAE: more than thresholds.cchainExecutionLagBlocks, not shrinking over
thresholds.cchainExecutionWindow (${w}: deriv >= 0), for that long, while execution still moves (a stopped one is
AvalancheCChainExecutionStuck), on a bootstrapped C-Chain. A node catching up (the lag shrinking) does not fire.`,
      expr: `${lag} > ${t.cchainExecutionLagBlocks}
and on(target) (deriv(${lag}[${w}]) >= 0)
unless on(target) ${notExecuting}
${bootstrapped}
`,
      for: w,
      severity: 'warning',
      summary: '{{ $labels.target }}: C-Chain execution is {{ $value }} blocks behind consensus',
      description: `The C-Chain of {{ $labels.target }} has had more than ${t.cchainExecutionLagBlocks} accepted blocks waiting for execution for ${window}, and the queue is not shrinking ({{ $value }} now): the node executes more slowly than the network accepts blocks. Its RPC serves state {{ $value }} blocks old, and it cannot build C-Chain blocks while execution lags settlement. Look at the execute-block duration, the database latency (disk) and the node's CPU.`,
    },
  ];
}
