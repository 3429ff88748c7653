// Node health, bootstrap, chain progress and peers (health, info.isBootstrapped, chain heights, info.peers).
import { durationWords, percent, promDuration } from '../duration.js';
import { PRIMARY_NETWORK, type RuleGroupDef } from './types.js';

export const nodeRules: RuleGroupDef = {
  name: 'node',
  group: 'avalanche-node',
  header: 'Node health, bootstrap, chain progress and peers.\nThresholds operators tune are listed in alerts/README.md (monitoring.yaml `thresholds`).',
  rules: ({ t, q }) => [
    {
      alert: 'AvalancheChainNotBootstrapped',
      comment: 'Per chain. A freshly started node is expected to fire this until bootstrap completes\n(hours on mainnet); silence it during planned resyncs. for: 15m: the re-bootstrap after an upgrade restart\ntakes minutes (up to 12 in the backtest\'s healthy weeks, which paged at 10m) and pages nothing.',
      expr: `${q.sel('avax_chain_bootstrapped')} == 0`,
      for: '15m',
      severity: 'critical',
      summary: '{{ $labels.target }}: chain {{ $labels.chain }} is not bootstrapped',
      description:
        'Node {{ $labels.target }} reports chain {{ $labels.chain }} as not bootstrapped (info.isBootstrapped = {{ $value }}) for more than 15 minutes. The chain does not accept new blocks or serve current state until bootstrap finishes.',
    },
    {
      alert: 'AvalancheNodeUnhealthy',
      comment: `Silent while a chain of the node is bootstrapping (a re-bootstrap after an upgrade is unhealthy by design):
AvalancheChainNotBootstrapped pages when that lasts, and AvalancheHealthCheckFailing for any other failing check.`,
      expr: `${q.sel('avax_node_healthy')} == 0
unless on(target)
(min by (target) (${q.sel('avax_chain_bootstrapped')}) == 0)
`,
      for: '5m',
      severity: 'critical',
      summary: '{{ $labels.target }}: node health check is failing',
      description:
        '/ext/health on {{ $labels.target }} has reported unhealthy (avax_node_healthy = {{ $value }}) for more than 5 minutes. See AvalancheHealthCheckFailing for the individual checks.',
    },
    {
      alert: 'AvalancheHealthCheckFailing',
      comment: `The futureupgrade check pages as AvalancheFutureUpgradeUnknown (critical, upgrades.rules.yaml), the bootstrapped
check as AvalancheChainNotBootstrapped (node.rules.yaml): it fails through every re-bootstrap after an upgrade; the
check of a chain whose VM plugin speaks another RPCChainVM protocol as AvalancheChainVmProtocolMismatch (critical).`,
      expr: `${q.sel('avax_health_check_healthy', 'check!~"futureupgrade|bootstrapped"')} == 0
unless on(target, check)
label_replace(${q.sel('avax_chain_vm_protocol_mismatch')} == 1, "check", "$1", "chain", "(.*)")
`,
      for: '5m',
      severity: 'warning',
      summary: '{{ $labels.target }}: health check {{ $labels.check }} is failing',
      description:
        'Health check {{ $labels.check }} on {{ $labels.target }} has reported an error (healthy = {{ $value }}) for more than 5 minutes. Read the check\'s error with: curl -s http://<node>:9650/ext/health | jq \'.checks["{{ $labels.check }}"]\'',
    },
    {
      alert: 'AvalancheChainVmProtocolMismatch',
      comment: `A chain whose VM plugin implements another RPCChainVM protocol than the node is not created (the plugin's
handshake fails, chains/manager.go): its health check fails with avalanchego's mismatch error until the node
restarts. avax_chain_vm_protocol_mismatch is 1 only then (0 for P, X, C and the watched chains on a normal
node, so the expression selects a series a healthy node has). Value: 1; the plugin's protocol version
(avax_chain_vm_rpc_protocol_version, present only during the mismatch) and the node's
(avax_node_rpc_protocol_version) are read by queries in the description. The VM is still listed by info.getVMs,
so AvalancheChainVmMissing stays silent, and AvalancheChainNotValidating leaves the chain to this alert.`,
      expr: `${q.sel('avax_chain_vm_protocol_mismatch')} == 1
`,
      for: '5m',
      severity: 'critical',
      summary: '{{ $labels.target }}: chain {{ $labels.chain }} does not run: its VM plugin speaks another RPCChainVM protocol',
      description: `Node {{ $labels.target }} could not create chain {{ $labels.chain }} (avax_chain_vm_protocol_mismatch = {{ $value }}): its VM plugin implements RPCChainVM protocol version {{ with printf \`${q.tsel('avax_chain_vm_rpc_protocol_version', 'target=%q', 'chain=%q')}\` $labels.target $labels.chain | query }}{{ . | first | value }}{{ else }}(unknown){{ end }}, the node{{ with printf \`${q.tsel('avax_node_rpc_protocol_version', 'target=%q')}\` $labels.target | query }} implements {{ . | first | value }}{{ else }} another one{{ end }}, and avalanchego demands an exact match. The chain does not run on this node (no blocks, no API, no validation) until the plugin or avalanchego is upgraded to versions of the same protocol and the node restarted. Read the error with: curl -s http://<node>:9650/ext/health | jq '.checks["{{ $labels.chain }}"].error'`,
    },
    {
      alert: 'AvalancheChainHeightStalled',
      comment: `Value: the current C-Chain height. The C-Chain builds blocks every few seconds, so ${promDuration(t.chainStallWindow)}
without a new block means the chain is stuck (thresholds.chainStallWindow). Silent while the chain
is not bootstrapped (AvalancheChainNotBootstrapped covers that).`,
      expr: `(
  ${q.sel('avax_chain_height', 'chain="C"')}
    and on(target, chain) (delta(${q.sel('avax_chain_height', 'chain="C"')}[${promDuration(t.chainStallWindow)}]) <= 0)
)
unless on(target, chain) (${q.sel('avax_chain_bootstrapped')} == 0)
`,
      for: '5m',
      severity: 'critical',
      summary: '{{ $labels.target }}: C-Chain height is not increasing',
      description: `The C-Chain height on {{ $labels.target }} has stayed at {{ $value }} for more than ${durationWords(t.chainStallWindow + 300)} (no increase over a ${promDuration(t.chainStallWindow)} window, for 5m). The node is not accepting C-Chain blocks.`,
    },
    {
      alert: 'AvalanchePeersLow',
      comment: `thresholds.peersLow: mainnet nodes normally have 1.5k-2.5k peers. A node connects to every validator, so
on a network of few validators (a local or test network, a five-node one) the bound is thresholds.peersLowShare of
the other primary-network validators (avax_subnet_validators) when that is lower: 2 of a five-validator network's
4 others. Without the validator count (platform-validators-full not answered yet) the fixed bound.`,
      expr: `${q.sel('avax_peers')} < on(target) group_left() (
  clamp_max(${t.peersLowShare} * (${q.sel('avax_subnet_validators', `subnet="${PRIMARY_NETWORK}"`)} - 1), ${t.peersLow})
  or on(target) (0 * ${q.sel('avax_peers')} + ${t.peersLow})
)`,
      for: '10m',
      severity: 'warning',
      summary: '{{ $labels.target }}: only {{ $value }} peers',
      description: `Node {{ $labels.target }} has been connected to {{ $value }} peers for more than 10 minutes (threshold ${t.peersLow}, or ${percent(t.peersLowShare)} % of the other validators on a network of fewer). It is cut off from much of the network: check its public IP, port 9651, firewall and bootstrap settings.`,
    },
    {
      alert: 'AvalancheNodeLogLevelVerbose',
      comment: `admin.getLoggerLevel (admin-logger, opt-in): a logger writing DEBUG or VERBO for longer than
thresholds.verboseLogFor fills the disk. Nothing without the Admin API (a normal state). last_over_time([15m]):
a failed scrape, an exporter restart or one failed run of the 5-minute admin-logger (no series until its next run)
leaves the series absent for up to 10 minutes, and a pending alert whose series is gone for one evaluation starts
its for: over; a day of for: would then hardly ever end (the backtest, which models the staleness, missed it in
27 h at one request in 1,000 timing out with [5m]).`,
      expr: `last_over_time(${q.sel('avax_node_log_level', 'level=~"DEBUG|VERBO"')}[15m]) == 1`,
      for: promDuration(t.verboseLogFor),
      severity: 'info',
      needs: '`--collector.admin-logger`',
      summary: '{{ $labels.target }}: logger {{ $labels.logger }} writes {{ $labels.level }}',
      description: `Logger {{ $labels.logger }} of {{ $labels.target }} has written at level {{ $labels.level }} (avax_node_log_level = {{ $value }}) for more than ${durationWords(t.verboseLogFor)}. Debug logs grow fast and fill the disk; set it back with admin.setLoggerLevel {"loggerName":"{{ $labels.logger }}","logLevel":"INFO"} once the investigation is over.`,
    },
  ],
};
