// Network upgrades, the node's version against its peers, and ACPs (info.upgrades, info.peers, info.acps).
import { durationWords, percent, promDuration, secondsExpr } from '../duration.js';
import { num } from '../text.js';
import type { RuleGroupDef } from './types.js';

export const upgradesRules: RuleGroupDef = {
  name: 'upgrades',
  group: 'avalanche-upgrades',
  header: "Network upgrades, the node's version against its peers, and ACPs (info.upgrades, info.peers, info.acps).\nThresholds operators tune are listed in alerts/README.md (monitoring.yaml `thresholds`).",
  rules: ({ t, q }) => {
    const nodeVersion = `{{ with printf \`${q.tsel('avax_node_info', 'target=%q')}\` $labels.target | query }}{{ . | first | label "version" }}{{ else }}version unknown{{ end }}`;
    return [
      {
        alert: 'AvalancheNetworkUpgradeNodeOutdated',
        comment: `Value: seconds until the upgrade. Only upgrades scheduled in the next ${durationWords(t.upgradeWindow)} (thresholds.upgradeWindow):
unscheduled ones are +Inf (year 9999 in info.upgrades) and past ones are negative, so neither matches.
And most peers (> ${percent(t.newerVersionRatio)} %, thresholds.newerVersionRatio) run a newer avalanchego than this node.`,
        expr: `(${q.sel('avax_network_upgrade_timestamp_seconds')} - time() > 0 < ${secondsExpr(t.upgradeWindow)})
  and on(target)
(${q.sel('avax_peers_newer_version_ratio')} > ${num(t.newerVersionRatio)})
`,
        for: '10m',
        severity: 'critical',
        summary: '{{ $labels.target }}: network upgrade {{ $labels.upgrade }} in {{ $value | humanizeDuration }} and the node runs an older version than most peers',
        description: `The {{ $labels.upgrade }} network upgrade activates in {{ $value | humanizeDuration }}, and {{ with printf \`max(${q.tsel('avax_peers_newer_version_ratio', 'target=%q')})\` $labels.target | query }}{{ . | first | value | humanizePercentage }}{{ else }}most{{ end }} of the peers of {{ $labels.target }} run a newer avalanchego than it does (${nodeVersion}). A node without the release for the upgrade stops following the network when it activates: update avalanchego before then.`,
      },
      {
        alert: 'AvalancheFutureUpgradeUnknown',
        comment: `The node's own \`futureupgrade\` health check (v1.14.1+): the upgrade time most of the stake
announces (peers' upgradeTime) differs from this node's. AvalancheHealthCheckFailing leaves
this check to this alert. Silent while a chain is not bootstrapped: before the P-Chain has
its validator set the check fails with "no validators in the current validator set", and
AvalancheChainNotBootstrapped already pages for that.`,
        expr: `${q.sel('avax_health_check_healthy', 'check="futureupgrade"')} == 0
  unless on(target)
(min by (target) (${q.sel('avax_chain_bootstrapped')}) == 0)
`,
        for: '5m',
        severity: 'critical',
        summary: '{{ $labels.target }}: peers announce a network upgrade this avalanchego does not know',
        description:
          "The futureupgrade health check of {{ $labels.target }} has failed (healthy = {{ $value }}) for more than 5 minutes: the stake-weighted most common upgrade time announced by its peers differs from the one this avalanchego knows, so a network upgrade is coming that this version does not have. When it activates the node stops following the network. Update avalanchego. Details: curl -s http://<node>:9650/ext/health | jq '.checks.futureupgrade'",
      },
      {
        alert: 'AvalancheNodeVersionBehindPeers',
        comment: `More than ${percent(t.newerVersionRatio)} % of the peers (with a parseable version) run a newer avalanchego, compared by
semantic version (1.14.10 > 1.14.2), for ${durationWords(t.versionBehindFor, { article: true })} (thresholds.versionBehindFor): new releases roll out
over days, so the first day is normal. Prometheus keeps the pending state over restarts shorter than
--rules.alert.for-outage-tolerance (1h by default). last_over_time([5m]): a failed scrape, an exporter restart
or the node's own upgrade makes the series stale for a minute or two, and a pending alert whose series is gone
for one evaluation starts its for: over (the backtest, which models the staleness, missed it in 27 h).`,
        expr: `last_over_time(${q.sel('avax_peers_newer_version_ratio')}[5m]) > ${num(t.newerVersionRatio)}`,
        for: promDuration(t.versionBehindFor),
        severity: 'warning',
        summary: '{{ $labels.target }}: {{ $value | humanizePercentage }} of peers run a newer avalanchego',
        description: `For more than ${durationWords(t.versionBehindFor, { article: true })}, {{ $value | humanizePercentage }} of the peers of {{ $labels.target }} have run a newer avalanchego than it does (${nodeVersion}). Plan the update: releases often carry fixes the network relies on, and the next network upgrade needs a recent version.`,
      },
      {
        alert: 'AvalancheACPMajoritySupport',
        comment: `Value: support weight / (support + object + abstain) of an open ACP (info.acps), above
thresholds.acpMajority. Only ACPs the node lists; none on mainnet v1.14.2. avalanchego lists ACPs of
its release that an activated upgrade already carries (v1.13.x: ACP-176 after Fortuna; v1.15.0: the
six Helicon ACPs): avax_acp_activated 1 marks them, and they are no vote to tell anyone about. Only
ACPs known to be open (avax_acp_activated 0) page: none when the exporter cannot tell, e.g. an ACP in
no upgrade it knows once the node has activated an upgrade it does not know (avax_acp_table_outdated).`,
        expr: `(
  ${q.sel('avax_acp_support_weight')}
    /
  (${q.sel('avax_acp_support_weight')} + ${q.sel('avax_acp_object_weight')} + ${q.sel('avax_acp_abstain_weight')})
  > ${num(t.acpMajority)}
)
and on(target, acp) (${q.sel('avax_acp_activated')} == 0)
`,
        for: '1h',
        severity: 'info',
        summary: '{{ $labels.target }}: ACP-{{ $labels.acp }} is supported by {{ $value | humanizePercentage }} of the stake',
        description: `ACP-{{ $labels.acp }} has the support of {{ $value | humanizePercentage }} of the weight in info.acps on {{ $labels.target }} (${t.acpMajority === 0.5 ? 'more than half' : `more than ${percent(t.acpMajority)}%`}) for an hour. This node's vote: {{ with printf \`${q.tsel('avax_acp_node_vote', 'target=%q', 'acp=%q')} == 1\` $labels.target $labels.acp | query }}{{ . | first | label "vote" }}{{ else }}unknown (seen only from another target that has this node as a peer){{ end }}. Read the proposal at https://github.com/avalanche-foundation/ACPs and set the node's stance with --acp-support or --acp-object.`,
      },
    ];
  },
};
