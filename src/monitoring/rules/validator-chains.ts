// Issue 14: the chains of the subnets and L1s this node validates (subnet-chains: platform.getBlockchainStatus,
// info.getVMs, health.health with the subnet's tag) and the validator's advertised IP (node-info, info.getNodeIP);
// issue 23: why an L1 validator is inactive. Part of the validator group (validator.rules.yaml), in its own file
// to keep validator.ts short.
import { durationWords, promDuration } from '../duration.js';
import { PRIMARY_NETWORK, type AlertRule, type RuleContext } from './types.js';

export function chainRules({ t, q }: RuleContext): AlertRule[] {
  // The chain's subnet and name, and only chains of a subnet whose validator set holds this node.
  const ofValidatedSubnet = (series: string): string => `(
  ${series}
    * on(target, blockchain_id) group_left(subnet, name)
  ${q.sel('avax_chain_info')}
)
and on(target, subnet)
(${q.sel('avax_subnet_node_is_validator')} == 1)`;
  return [
    {
      alert: 'AvalancheChainNotValidating',
      comment: `platform.getBlockchainStatus is Validating only for a chain the node runs and whose subnet's
validator set holds the node: Syncing or Created while avax_subnet_node_is_validator is 1 means the
node is in the set but does not validate the chain (subnet not tracked, chain failed to start).
Silent while a primary-network chain is not bootstrapped (AvalancheChainNotBootstrapped): L1 chains
are created only afterwards. Silent too for a chain whose VM plugin speaks another RPCChainVM protocol
(AvalancheChainVmProtocolMismatch says why) and for 10 minutes after: the status is asked every few
minutes, the health check every cycle, so after the fix the status lags the mismatch by up to 5 minutes.`,
      expr: `${ofValidatedSubnet(q.sel('avax_chain_status', 'status!="Validating"'))}
unless on(target)
(min by (target) (${q.sel('avax_chain_bootstrapped', 'chain=~"P|X|C"')}) == 0)
unless on(target, blockchain_id)
label_replace(max_over_time(${q.sel('avax_chain_vm_protocol_mismatch')}[10m]) == 1, "blockchain_id", "$1", "chain", "(.*)")
`,
      for: '15m',
      severity: 'critical',
      summary: '{{ $labels.target }}: chain {{ $labels.name }} is {{ $labels.status }}, not Validating',
      description:
        'Node {{ $labels.target }} is a validator of subnet {{ $labels.subnet }}, but platform.getBlockchainStatus reports its chain {{ $labels.name }} ({{ $labels.blockchain_id }}) as {{ $labels.status }} (avax_chain_status = {{ $value }}) for more than 15 minutes. The node does not validate that chain: Created means it does not run it (is the subnet in --track-subnets? did the chain fail to start, see AvalancheChainVmMissing), Syncing that the node does not count itself as a validator.',
    },
    {
      alert: 'AvalancheChainVmMissing',
      comment: 'info.getVMs does not list the VM the chain runs: the node cannot run the chain of a subnet it\nvalidates (a plugin missing from --plugin-dir, or not loaded after an upgrade).',
      expr: `${ofValidatedSubnet(`(${q.sel('avax_chain_vm_installed')} == 0)`)}\n`,
      for: '5m',
      severity: 'critical',
      summary: '{{ $labels.target }}: the VM of chain {{ $labels.name }} is not installed',
      description:
        'Node {{ $labels.target }} validates subnet {{ $labels.subnet }}, but the VM {{ $labels.vm_id }} of its chain {{ $labels.name }} ({{ $labels.blockchain_id }}) is not among the VMs the node has (info.getVMs; avax_chain_vm_installed = {{ $value }}) for more than 5 minutes. Install the plugin in the node\'s --plugin-dir (named after the VM ID) and restart the node or call admin.loadVMs.',
    },
    {
      alert: 'AvalancheSubnetUnhealthy',
      comment: `The node's health report for the subnet's tag (health.health {tags:[subnet]}): the subnet's chain
checks plus the node-wide ones. Only L1s and subnets: for the primary network it is the node's
health (AvalancheNodeUnhealthy).`,
      expr: `${q.sel('avax_subnet_healthy', `subnet!="${PRIMARY_NETWORK}"`)} == 0\n`,
      for: '10m',
      severity: 'warning',
      summary: '{{ $labels.target }}: subnet {{ $labels.subnet }} is unhealthy',
      description:
        'The health report of {{ $labels.target }} for subnet {{ $labels.subnet }} (its chains\' checks plus the node-wide ones) has been unhealthy (avax_subnet_healthy = {{ $value }}) for more than 10 minutes. Read it with: curl -s \'http://<node>:9650/ext/health?tag={{ $labels.subnet }}\' | jq \'.checks | map_values(select(.error))\'',
    },
    {
      alert: 'AvalancheValidatorIpChanged',
      comment: `Two or more advertised addresses (the ip label of avax_node_info, info.getNodeIP) within
thresholds.ipChangeWindow, for a node whose own NodeID is an active primary-network validator. Computed
from Prometheus' own history (no state in the exporter): an exporter restart loses nothing. Resolves
once the old address is older than the window. Needs the ip label (node-ip collector, every 5m).`,
      expr: `count by (target, node_id) (
  count by (target, node_id, ip) (max_over_time(${q.sel('avax_node_info', 'ip!=""')}[${promDuration(t.ipChangeWindow)}]))
) > 1
and on(target, node_id)
(${q.sel('avax_validator_active', `subnet="${PRIMARY_NETWORK}"`)} == 1)
`,
      for: '2m',
      severity: 'warning',
      summary: '{{ $labels.target }}: validator {{ $labels.node_id }} changed its advertised IP',
      description: `Validator {{ $labels.node_id }} on {{ $labels.target }} advertised {{ $value }} different IP addresses (info.getNodeIP) within the last ${durationWords(t.ipChangeWindow)}. Its peers must learn the new address and reconnect; until they do, they count it as offline, which costs uptime. Check that the new address is the intended public one (--public-ip) and reachable on the staking port.`,
    },
  ];
}

/**
 * An L1 validator listed with balance 0: inactive, and why. On the P-Chain both causes end the same
 * (balance 0, still listed): disabled (DisableL1ValidatorTx returns the rest of the balance to its owner)
 * or out of balance (the continuous fee used it up). The last runway seen above 0 tells them apart: a
 * balance that ran out was below thresholds.l1RunwayCritical before; one that was disabled dropped at once.
 */
export function l1ValidatorInactive({ t, q }: RuleContext): AlertRule {
  const lastRunway = `last_over_time((${q.tsel('avax_l1_validator_balance_runway_seconds', 'target=%q', 'subnet=%q', 'node_id=%q')} > 0)[1d:1m])`;
  return {
    alert: 'AvalancheL1ValidatorInactive',
    comment: `ACP-77: an L1 validator whose balance is 0 stays listed by getCurrentValidators but is inactive (avax_validator_active 0,
no weight in consensus) until its balance is increased: disabled (DisableL1ValidatorTx) or out of balance (the continuous
fee used it up). The description tells which from the last runway seen above 0 within a day: below
thresholds.l1RunwayCritical (${promDuration(t.l1RunwayCritical)}) it ran out, above it dropped at once (disabled).`,
    expr: `${q.sel('avax_l1_validator_balance_avax')} == 0`,
    for: '5m',
    severity: 'critical',
    summary: '{{ $labels.target }}: L1 validator {{ $labels.node_id }} is inactive (balance 0: disabled or out of balance)',
    description: `L1 validator {{ $labels.node_id }} on {{ $labels.subnet }} (watched by {{ $labels.target }}) has had a balance of {{ $value }} AVAX for more than 5 minutes: it is still listed by platform.getCurrentValidators but inactive, with no weight in the L1's consensus. Why: {{ with printf \`${lastRunway}\` $labels.target $labels.subnet $labels.node_id | query }}{{ if lt (. | first | value) ${t.l1RunwayCritical.toFixed(1)} }}it ran out of balance: the continuous fee used it up (its last runway seen was {{ . | first | value | humanizeDuration }}){{ else }}it was disabled (DisableL1ValidatorTx, which returns the rest of the balance to its owner): its balance dropped to 0 at once from {{ . | first | value | humanizeDuration }} of fees{{ end }}{{ else }}disabled or out of balance (no balance above 0 seen within a day){{ end }}. The balance is the P-Chain's as of its last block. Top it up with an IncreaseL1ValidatorBalanceTx to reactivate it.`,
  };
}
